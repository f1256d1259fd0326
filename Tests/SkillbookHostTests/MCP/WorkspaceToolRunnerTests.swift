import Foundation
import SkillbookCore
import SkillbookHost
import SkillbookMCP
import Testing

/// The MCP server's runner looks tools up in the workspace.
@Suite struct WorkspaceToolRunnerTests {
    /// Skills that fail to load are not the same as an unknown tool: the call says why.
    @Test func skillsThatDoNotLoadAreSaidNotTakenForAnUnknownTool() async throws {
        let fixture = HostFixture()
        fixture.write("Skills/broken.yaml", "id: [never closed\n")
        var configuration = fixture.configuration()
        configuration.skillDirectories = [fixture.url.appendingPathComponent("Skills")]
        let runner = WorkspaceToolRunner(host: PlaybookHost(configuration), selection: .all)
        guard case .invalidArguments(let lines) = await runner.prepare(tool: "notes.list", arguments: [:]) else {
            Issue.record("expected the skills' errors")
            return
        }
        #expect(lines.first == "'notes.list' cannot be looked up: the workspace's skills did not load:")
        #expect(lines.count > 1, "\(lines)")

        // With the manifest fixed, the same tool is found.
        fixture.write("Skills/broken.yaml", "")
        fixture.remove("Skills/broken.yaml")
        guard case .ready(let call) = await runner.prepare(tool: "notes.list", arguments: [:]) else {
            Issue.record("notes.list should be found once the skills load")
            return
        }
        #expect(call.tool == "notes.list")
        guard case .unknownTool = await runner.prepare(tool: "no.such.tool", arguments: [:]) else {
            Issue.record("an unknown tool is still one")
            return
        }
    }
}
