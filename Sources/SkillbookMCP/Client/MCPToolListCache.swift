public import Foundation
import SkillbookCore

/// The last tool list of a server, in a file of the state folder, so skills can be listed and
/// playbooks checked without starting the server.
///
/// One file per server, keyed by the manifest that declares it and its command:
/// `mcp/PREFIX-HASH.json`, where HASH is the FNV-1a hash of the manifest's path and the argv.
/// The file also holds both, and a file whose manifest or command differs (a hash collision, an
/// edited copy) is ignored. It also holds the modification time and size of every file the argv
/// names (the server's script, resolved against its working folder), so a cached list is stale —
/// ignored, and the server listed again — once its script changes. Writes go to a temporary file that is renamed over the old one, so a
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

    /// Each argument of the command that names a regular file (relative ones in the command's
    /// working folder): its path, modification time and size.
    var scriptsValue: Value {
        var files: [Value] = []
        for argument in command.arguments where !argument.isEmpty {
            let path =
                argument.hasPrefix("/")
                ? argument : ((command.workingDirectory ?? FileManager.default.currentDirectoryPath) as NSString).appendingPathComponent(argument)
            var status = stat()
            guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { continue }
            // As text, so the comparison is exact whatever a JSON number reads back as.
            files.append([
                "path": .string(path), "modified": .string("\(status.st_mtim.tv_sec).\(status.st_mtim.tv_nsec)"),
                "size": .string("\(status.st_size)"),
            ])
        }
        return .array(files)
    }

    /// Whether the files recorded with a list are those named now, unchanged. A recorded file
    /// that is gone is left out (the server cannot start, and its last list is all there is).
    static func sameScripts(_ recorded: Value?, _ now: Value) -> Bool {
        let kept = (recorded?.arrayValue ?? []).filter { FileManager.default.fileExists(atPath: $0["path"]?.stringValue ?? "") }
        return Value.array(kept) == now
    }

    /// The cached tools, or `nil` when there are none for this manifest and command, a file the
    /// command names changed since (or the file is unreadable).
    public func load() -> [MCPTool]? {
        loadEntry()?.tools
    }

    /// The cached tools and when they were listed (`nil` for a file written before that was kept).
    public func loadEntry() -> (tools: [MCPTool], listedAt: Date?)? {
        guard let data = FileManager.default.contents(atPath: file), let text = String(data: data, encoding: .utf8),
            let value = try? JSONText.decode(text), value["command"] == commandValue, (value["manifest"] ?? .null) == manifestValue,
            Self.sameScripts(value["scripts"], scriptsValue), let tools = value["tools"]?.arrayValue
        else { return nil }
        let listedAt = value["listedAt"]?.doubleValue.map { Date(timeIntervalSince1970: $0) }
        return (tools.compactMap { entry in
            guard let name = entry["name"]?.stringValue else { return nil }
            return MCPTool(
                name: name, title: entry["title"]?.stringValue, description: entry["description"]?.stringValue ?? "",
                inputSchema: entry["inputSchema"] ?? ["type": "object"], outputSchema: entry["outputSchema"],
                annotations: MCPToolAnnotations(entry["annotations"]))
        }, listedAt)
    }

    public func save(_ tools: [MCPTool], listedAt: Date = Date()) throws {
        let value: Value = [
            "version": 1, "manifest": manifestValue, "command": commandValue, "scripts": scriptsValue,
            "listedAt": .double(listedAt.timeIntervalSince1970),
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
