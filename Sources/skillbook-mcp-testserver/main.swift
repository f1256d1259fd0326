#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import SkillbookMCP
import SkillbookMCPTesting

// skillbook-mcp-testserver [--yes] [--events FILE]: the demo skills as MCP tools on stdio.
// Logs go to stderr; FILE gets one line per event (`ran demo.echo`, `counting stopped at 3`).
var allowUnconfirmed = false
var eventsPath: String?
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--yes": allowUnconfirmed = true
    case "--events": eventsPath = arguments.popFirst()
    default:
        FileHandle.standardError.write(Data("skillbook-mcp-testserver: unknown option '\(argument)'\n".utf8))
        exit(2)
    }
}
let eventsFD: Int32 = eventsPath.map { open($0, O_WRONLY | O_CREAT | O_APPEND, 0o644) } ?? -1
let events: @Sendable (String) -> Void = { event in
    guard eventsFD >= 0 else { return }
    let line = Array((event + "\n").utf8)
    _ = line.withUnsafeBytes { write(eventsFD, $0.baseAddress, $0.count) }
}
let log: @Sendable (String) -> Void = { FileHandle.standardError.write(Data("testserver: \($0)\n".utf8)) }
let toolbox = SkillToolbox(skills: DemoSkills.all(events: events), events: events)
let server = MCPServer(
    catalog: toolbox, runner: toolbox,
    configuration: MCPServerConfiguration(name: "skillbook-mcp-testserver", version: "1.0", allowsUnconfirmedCalls: allowUnconfirmed),
    log: log)
await server.serve(LineChannel.standardStreams())
log("input closed; exiting")
exit(0)
