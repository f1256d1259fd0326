import Foundation
import SkillbookCore
import SkillbookSQLite
import SkillbookTesting
import Testing

/// Issue 24 item 1 through MCP: the real `skillbook mcp` and the Python SDK's client, which
/// declares no elicitation; the call that needs a confirmation answers that its run waits, and
/// `skillbook approve` from another process lets it finish, `skillbook decline` rolls it back, and
/// a request that expired is declined (`expired`) by the next process that looks at the approvals.
@Suite(.serialized) struct MCPApprovalTests {
    typealias Workspace = ApprovalFlowTests.Workspace

    static let python = "\(MCPCommandTests.packageRoot)/.build/venv/bin/python"

    /// The Python client calls the tool `nightly` of `workspace` (ApprovalFlowTests' playbook: a
    /// note, then `purge`, which needs a confirmation) and waits until the note is gone; returns it
    /// once its run waits at `purge`, with the run's id.
    static func nightlyWaits(in workspace: Workspace) async throws -> (SkillbookChild, String) {
        let script = "\(MCPCommandTests.packageRoot)/Tests/SkillbookCLITests/Fixtures/mcp_decision_client.py"
        let client = try SkillbookChild(
            [script, try builtExecutable().path, workspace.directory.path, workspace.directory.state.path],
            in: workspace.directory.url, executable: URL(fileURLWithPath: python))
        let waits = await eventually(within: 60) { client.stdout.text.contains("run: ") || !client.process.isRunning }
        try #require(waits && client.process.isRunning, "\(client.transcript)")
        let line = try #require(client.stdout.text.split(separator: "\n").first { $0.hasPrefix("run: ") })
        let runID = String(line.dropFirst("run: ".count))
        let journal = try workspace.journal()
        #expect(try journal.run(runID)?.status == .waiting)
        #expect(try journal.run(runID)?.trigger == .mcp)
        #expect(workspace.ledger.isEmpty, "nothing purged yet")
        return (client, runID)
    }

    /// The checks the client printed, in order, once it ended.
    static func checks(_ client: SkillbookChild) -> [String] {
        client.stdout.text.split(separator: "\n").filter { $0.hasPrefix("ok: ") }.map(String.init)
    }

    static let rolledBackChecks = [
        "ok: a call that needs a confirmation is not an error", "ok: it answers with its run id and that it waits",
        "ok: and where it waits", "ok: the step before it ran",
        "ok: decided from another process, the run rolled back: its note is gone",
    ]

    /// The journal of a run that was declined while it waited at `purge`: rolled back (the note of
    /// `mark` undone), the declined call never started, resumed once (by the process that decided).
    static func expectRolledBack(_ runID: String, in workspace: Workspace) throws {
        let journal = try workspace.journal()
        #expect(try journal.run(runID)?.status == .rolledBack)
        let calls = try journal.calls(of: runID)
        #expect(calls.map(\.skill) == ["notes.create"], "the declined call never started: \(calls.map(\.skill))")
        #expect(calls.allSatisfy { $0.compensated }, "the note of 'mark' was undone")
        #expect(try NotesStore(stateDirectory: workspace.directory.state).list(limit: 10).isEmpty)
        #expect(workspace.ledger.isEmpty, "the declined call never ran")
        let sessions = try journal.sessions(of: runID)
        #expect(sessions.map(\.kind) == ["run", "resume"])
        #expect(sessions.first?.trigger == .mcp)
        #expect(sessions.first?.outcome == "waiting")
    }

    @Test func aCallThatWaitsIsApprovedFromAnotherProcessAndFinishes() async throws {
        guard Self.hasPython() else { return }
        let python = Self.python
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

    @Test func aCallThatWaitsIsDeclinedFromAnotherProcessAndRollsBack() async throws {
        guard Self.hasPython() else { return }
        let workspace = Workspace()
        let (client, runID) = try await Self.nightlyWaits(in: workspace)
        let declined = try await workspace.skillbook(["decline", String(runID.prefix(8)), "--reason", "not from a chat"])
        #expect(declined.code == 1, "the run it went on with rolled back: \(declined.err)")
        #expect(declined.err.contains("run \(runID): step 'purge' declined by "), "\(declined.err)")
        #expect(try await client.waitForExit(upTo: 60) == 0, "\(client.transcript)")
        #expect(Self.checks(client) == Self.rolledBackChecks, "\(client.transcript)")

        try Self.expectRolledBack(runID, in: workspace)
        let journal = try workspace.journal()
        let error = try journal.run(runID)?.error ?? ""
        #expect(error.hasSuffix(": not from a chat"), "\(error)")
        let decision = try #require(try journal.approvals(ofRun: runID).last?.decision)
        #expect(decision.verdict == .declined)
        #expect(decision.reason == "not from a chat")
        #expect(decision.by.contains("@"))
    }

    @Test func aCallWhoseRequestExpiresIsDeclinedAsExpired() async throws {
        guard Self.hasPython() else { return }
        let workspace = Workspace(timeout: "1s")
        let (client, runID) = try await Self.nightlyWaits(in: workspace)
        let journal = try workspace.journal()
        let expires = try #require(try journal.approvals(ofRun: runID).last?.request.expires)
        // The MCP server only answers calls: the next process that looks at the approvals (here
        // `skillbook approvals`; the daemon and `schedule tick` do it on their own) declines it.
        try await Task.sleep(for: .seconds(max(0, expires.timeIntervalSinceNow) + 0.1))
        let listed = try await workspace.skillbook(["approvals"])
        #expect(listed.code == 0, "\(listed.err)")
        #expect(listed.out == "no run waits for an approval\n", "\(listed.out)")
        #expect(try await client.waitForExit(upTo: 60) == 0, "\(client.transcript)")
        #expect(Self.checks(client) == Self.rolledBackChecks, "\(client.transcript)")

        try Self.expectRolledBack(runID, in: workspace)
        let error = try journal.run(runID)?.error ?? ""
        #expect(error.hasSuffix("(demo.purge has confirm): expired"), "\(error)")
        let decision = try #require(try journal.approvals(ofRun: runID).last?.decision)
        #expect(decision.verdict == .expired)
        #expect(decision.reason == "expired")
        let late = try await workspace.skillbook(["approve", String(runID.prefix(8)), "--yes"])
        #expect(late.code == 2, "\(late.err)")
        #expect(late.err.contains("run \(runID) expired"), "\(late.err)")
        #expect(workspace.ledger.isEmpty, "an approval after the expiry runs nothing")
    }

    /// Records an issue (never skips) when the Python SDK is missing.
    static func hasPython() -> Bool {
        guard FileManager.default.isExecutableFile(atPath: python) else {
            Issue.record("\(python) is missing: run 'make venv' (or 'make test', which creates it with PyPI 'mcp')")
            return false
        }
        return true
    }
}
