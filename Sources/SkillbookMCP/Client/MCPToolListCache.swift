import Foundation
import SkillbookCore

/// The last tool list of a server, in a file of the state folder, so skills can be listed and
/// playbooks checked without starting the server.
///
/// One file per server, keyed by the manifest that declares it and its command:
/// `mcp/PREFIX-HASH.json`, where HASH is the FNV-1a hash of the manifest's path and the argv.
/// The file also holds both, and a file whose manifest or command differs (a hash collision, an
/// edited copy) is ignored. Writes go to a temporary file that is renamed over the old one, so a
/// reader sees the old list or the new one, never half of one.
public struct MCPToolListCache: Sendable {
    public let file: String
    /// The manifest's path (`nil`: a server not declared by a file, such as in tests).
    public let manifest: String?
    public let command: MCPServerCommand

    public init(directory: String, prefix: String, manifest: String?, command: MCPServerCommand) {
        self.manifest = manifest
        self.command = command
        let key = ([manifest ?? ""] + command.arguments).joined(separator: "\u{0}")
        file = (directory as NSString).appendingPathComponent("mcp/\(prefix)-\(SourceHash.of(key)).json")
    }

    private var commandValue: Value { .array(command.arguments.map(Value.string)) }
    private var manifestValue: Value { manifest.map(Value.string) ?? .null }

    /// The cached tools, or `nil` when there are none for this manifest and command (or the file
    /// is unreadable).
    public func load() -> [MCPTool]? {
        guard let data = FileManager.default.contents(atPath: file), let text = String(data: data, encoding: .utf8),
            let value = try? JSONText.decode(text), value["command"] == commandValue, (value["manifest"] ?? .null) == manifestValue,
            let tools = value["tools"]?.arrayValue
        else { return nil }
        return tools.compactMap { entry in
            guard let name = entry["name"]?.stringValue else { return nil }
            return MCPTool(
                name: name, title: entry["title"]?.stringValue, description: entry["description"]?.stringValue ?? "",
                inputSchema: entry["inputSchema"] ?? ["type": "object"], outputSchema: entry["outputSchema"],
                annotations: MCPToolAnnotations(entry["annotations"]))
        }
    }

    public func save(_ tools: [MCPTool]) throws {
        let value: Value = [
            "version": 1, "manifest": manifestValue, "command": commandValue,
            "tools": .array(tools.map { $0.value(for: .v2025_11_25) }),
        ]
        let directory = (file as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let temporary = file + ".tmp-\(ProcessInfo.processInfo.processIdentifier)"
        try Data((JSONText.encode(value, pretty: true) + "\n").utf8).write(to: URL(fileURLWithPath: temporary))
        guard rename(temporary, file) == 0 else {
            try? FileManager.default.removeItem(atPath: temporary)
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: file])
        }
    }
}
