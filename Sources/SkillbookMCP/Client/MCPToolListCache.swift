import Foundation
import SkillbookCore

/// The last tool list of a server, in a file (`mcp-PREFIX.json` in the state folder), so
/// skills can be listed and playbooks checked without starting the server.
///
/// The file holds the command it was listed from; a cache written for another command is
/// ignored. Writes go to a temporary file that is renamed over the old one.
public struct MCPToolListCache: Sendable {
    public let file: String

    public init(directory: String, prefix: String) {
        file = (directory as NSString).appendingPathComponent("mcp-\(prefix).json")
    }

    /// The cached tools for `command`, or `nil` when there is none for it (or it is unreadable).
    public func load(for command: MCPServerCommand) -> [MCPTool]? {
        guard let data = FileManager.default.contents(atPath: file), let text = String(data: data, encoding: .utf8),
            let value = try? JSONText.decode(text), value["command"] == .array(command.arguments.map(Value.string)),
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

    public func save(_ tools: [MCPTool], for command: MCPServerCommand) throws {
        let value: Value = [
            "version": 1, "command": .array(command.arguments.map(Value.string)),
            "tools": .array(tools.map { $0.value(for: .v2025_11_25) }),
        ]
        let directory = (file as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let temporary = file + ".tmp-\(ProcessInfo.processInfo.processIdentifier)"
        try Data((JSONText.encode(value, pretty: true) + "\n").utf8).write(to: URL(fileURLWithPath: temporary))
        guard rename(temporary, file) == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: file])
        }
    }
}
