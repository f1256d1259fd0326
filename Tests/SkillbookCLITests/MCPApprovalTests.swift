import Foundation
import SkillbookCore
import SkillbookSQLite
import SkillbookTesting
import Testing

/// Issue 24 item 1 through MCP: the real `skillbook mcp` and the Python SDK's client, which
/// declares no elicitation; the call that needs a confirmation answers that its run waits, and
/// `skillbook approve` from another process lets it finish.
@Suite(.serialized) struct MCPApprovalTests {
    @Test func aCallThatWaitsIsApprovedFromAnotherProcessAndFinishes() async throws {
        let python = "\(MCPCommandTests.packageRoot)/.build/venv/bin/python"
        guard FileManager.default.isExecutableFile(atPath: python) else {
            Issue.record("\(python) is missing: run 'make venv' (or 'make test', which creates it with PyPI 'mcp')")
            return
        }
        let directory = MCPCommandTests.workspace()
        let script = "\(MCPCommandTests.packageRoot)/Tests/SkillbookCLITests/Fixtures/mcp_approval_client.py"
        let client = try SkillbookChild(
            [script, try builtExecutable().path, directory.path, directory.state.path], in: directory.url,
            executable: URL(fileURLWithPath: python))
        let waits = await eventually(within: 60) { client.stdout.text.contains("run: ") || !client.process.isRunning }
        try #require(waits && client.process.isRunning, "\(client.transcript)")
        let line = try #require(client.stdout.text.split(separator: "\n").first { $0.hasPrefix("run: ") })
        let runID = String(line.dropFirst("run: ".count))
        let journal = try SQLiteJournal(stateDirectory: directory.state)
        #expect(try journal.run(runID)?.status == .waiting)
        #expect(try journal.run(runID)?.trigger == .mcp)

        let approved = try await runSkillbook(["approve", runID, "--yes", "--state", directory.state.path], in: directory.url)
        #expect(approved.code == 0, "\(approved.err)")
        #expect(try await client.waitForExit(upTo: 60) == 0, "\(client.transcript)")
        #expect(
            client.stdout.text.split(separator: "\n").filter { $0.hasPrefix("ok: ") } == [
                "ok: a note is made", "ok: a call that needs a confirmation is not an error",
                "ok: it answers with its run id and that it waits", "ok: and where it waits", "ok: nothing is deleted yet",
                "ok: approved from another process, the run finished",
            ], "\(client.transcript)")
        #expect(try journal.run(runID)?.status == .succeeded)
        #expect(try journal.sessions(of: runID).map(\.kind) == ["run", "resume"])
    }
}
