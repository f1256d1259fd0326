import Foundation
import SkillbookCore
import SkillbookSQL
import SkillbookSQLite
import SkillbookTesting
import Testing

/// Issue 24 item 1 with real processes: `schedule tick` (nobody at a terminal) meets a confirmation,
/// its run waits holding nothing, and another process approves, declines, or finds it expired.
@Suite(.serialized) struct ApprovalFlowTests {
    /// Appends a line to a ledger (so a test counts how often it ran), then works on for
    /// `pause` seconds; asks for confirmation. Its undo appends `undone`.
    static let manifest = """
        id: demo.purge
        summary: Purges the ledger's entries (appends a line to it), slowly.
        kind: action
        confirm: true
        parameters:
          type: object
          properties:
            ledger: { type: string, format: path, access: write }
            pause: { type: string }
          required: [ledger, pause]
        run: [sh, -c, "echo purged >> \\"$0\\"; exec sleep \\"$1\\"", "${{ params.ledger }}", "${{ params.pause }}"]
        undo: [sh, -c, "echo undone >> \\"$0\\"", "${{ params.ledger }}"]
        timeout: 1m

        """

    static func playbook(pause: String = "0", timeout: String = "4h") -> String {
        """
        name: nightly
        schedule: { every: 1h }
        approval: { timeout: \(timeout) }
        steps:
          - { id: mark, skill: notes.create, with: { title: "nightly ran" } }
          - { id: purge, skill: demo.purge, with: { ledger: ledger.txt, pause: "\(pause)" } }

        """
    }

    struct Workspace {
        let directory = TemporaryDirectory()
        var state: [String] { ["--playbooks", directory.playbooks.path, "--state", directory.state.path] }
        var ledger: [String] {
            ((try? String(contentsOfFile: directory.path + "/ledger.txt", encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        }

        init(pause: String = "0", timeout: String = "4h") {
            directory.write("Skills/purge.yaml", ApprovalFlowTests.manifest)
            directory.write("Playbooks/nightly.yaml", ApprovalFlowTests.playbook(pause: pause, timeout: timeout))
        }

        func skillbook(_ arguments: [String]) async throws -> (code: Int32, out: String, err: String) {
            try await runSkillbook(arguments + state, in: directory.url)
        }

        /// `schedule tick` fires the playbook; its run stops at `purge` and waits. Returns its id.
        func tickUntilItWaits() async throws -> String {
            let tick = try await skillbook(["schedule", "tick"])
            #expect(tick.code == 0, "\(tick.err)")
            let listed = try await skillbook(["approvals", "--json"])
            #expect(listed.code == 0, "\(listed.err)")
            let requests = try #require(try JSONSerialization.jsonObject(with: Data(listed.out.utf8)) as? [[String: Any]], "\(listed.out)")
            let request = try #require(requests.first, "nothing waits: \(tick.err)")
            #expect(requests.count == 1)
            #expect(request["playbook"] as? String == "nightly")
            #expect(request["step"] as? String == "purge")
            #expect(request["skill"] as? String == "demo.purge")
            #expect((request["parameters"] as? [String: Any])?["ledger"] as? String == "ledger.txt")
            return try #require(request["run"] as? String)
        }

        func journal() throws -> SQLiteJournal { try SQLiteJournal(stateDirectory: directory.state) }
    }

    @Test func aWaitingRunHoldsNothingAndIsApprovedFromAnotherProcessExactlyOnce() async throws {
        let workspace = Workspace()
        let runID = try await workspace.tickUntilItWaits()
        #expect(workspace.ledger.isEmpty, "nothing ran before the approval")
        let journal = try workspace.journal()
        let waiting = try #require(try journal.run(runID))
        #expect(waiting.status == .waiting)
        #expect(waiting.trigger == "schedule")
        #expect(journal.heldRuns.isEmpty)
        #expect(try journal.runs(playbook: nil, status: .running, limit: 5).isEmpty, "no lease while it waits")
        let locks = try journal.database.query("SELECT count(*) FROM resource_locks")
        #expect(locks.first?[0].intValue == 0, "no resource lock while it waits")

        let table = try await workspace.skillbook(["approvals"])
        #expect(table.out.hasPrefix("RUN       PLAYBOOK  STEP   TOUCHES"), "\(table.out)")
        #expect(table.out.contains("\(runID.prefix(8))  nightly   purge  ledger=\"ledger.txt\", pause=\"0\""), "\(table.out)")

        let approved = try await workspace.skillbook(["approve", String(runID.prefix(8)), "--yes"])
        #expect(approved.code == 0, "\(approved.err)")
        #expect(approved.err.contains("run \(runID): step 'purge' approved by "), "\(approved.err)")
        #expect(workspace.ledger == ["purged"], "the approved call ran once")
        #expect(try journal.run(runID)?.status == .succeeded)

        let again = try await workspace.skillbook(["approve", String(runID.prefix(8)), "--yes"])
        #expect(again.code == 2)
        #expect(again.err.contains("run \(runID) was already approved by "), "\(again.err)")
        #expect(again.err.contains("and is succeeded now; an approval is decided once"), "\(again.err)")
        let resumed = try await workspace.skillbook(["resume", String(runID.prefix(8))])
        #expect(resumed.code == 2)
        #expect(workspace.ledger == ["purged"], "and never again")
        let sessions = try journal.sessions(of: runID)
        #expect(sessions.map(\.kind) == ["run", "resume"])
        #expect(sessions.map(\.outcome) == ["waiting", "succeeded"])
    }

    @Test func aDeclinedRunRollsBackWithTheReasonRecorded() async throws {
        let workspace = Workspace()
        let runID = try await workspace.tickUntilItWaits()
        let declined = try await workspace.skillbook(["decline", String(runID.prefix(8)), "--reason", "not this week"])
        #expect(declined.code == 1, "\(declined.err)")
        #expect(declined.err.contains("step 'purge' declined by "), "\(declined.err)")
        let journal = try workspace.journal()
        let run = try #require(try journal.run(runID))
        #expect(run.status == .rolledBack)
        #expect(run.error?.hasSuffix(": not this week") == true, "\(run.error ?? "")")
        #expect(workspace.ledger.isEmpty)
        #expect(try NotesStore(stateDirectory: workspace.directory.state).list(limit: 10).isEmpty, "the note of 'mark' was undone")
        let decision = try #require(try journal.approvals(ofRun: runID).last?.decision)
        #expect(decision.verdict == .declined)
        #expect(decision.reason == "not this week")
        #expect(decision.by.contains("@"))
        let after = try await workspace.skillbook(["approve", String(runID.prefix(8)), "--yes"])
        #expect(after.code == 2)
        #expect(after.err.contains("was already declined by"), "\(after.err)")

        // `runs show` tells who decided what, when and why.
        let shown = try await workspace.skillbook(["runs", "show", String(runID.prefix(8))])
        #expect(shown.code == 0, "\(shown.err)")
        let section = try #require(shown.out.components(separatedBy: "\nApprovals:\n").last, "\(shown.out)")
        #expect(section.hasPrefix("  purge  requested "), "\(shown.out)")
        #expect(section.contains("  declined by \(decision.by) at "), "\(shown.out)")
        #expect(section.contains(": not this week\n"), "\(shown.out)")
        let json = try await workspace.skillbook(["runs", "show", String(runID.prefix(8)), "--json"])
        let approvals = try #require(JSONText.decode(json.out)["approvals"]?.arrayValue, "\(json.out)")
        #expect(approvals.count == 1)
        #expect(approvals.first?["step"]?.stringValue == "purge")
        #expect(approvals.first?["decision"]?["verdict"]?.stringValue == "declined")
        #expect(approvals.first?["decision"]?["reason"]?.stringValue == "not this week")
    }

    @Test func anExpiredRequestIsDeclinedWhenListed() async throws {
        let workspace = Workspace(timeout: "1s")
        let runID = try await workspace.tickUntilItWaits()
        try await Task.sleep(for: .seconds(1.2))
        let listed = try await workspace.skillbook(["approvals"])
        #expect(listed.code == 0, "\(listed.err)")
        #expect(listed.out == "no run waits for an approval\n", "\(listed.out)")
        // …and says what became of the one that expired, instead of letting it vanish.
        #expect(listed.err.hasPrefix("run \(runID.prefix(8)): the approval of step 'purge' expired at "), "\(listed.err)")
        #expect(listed.err.hasSuffix("; declined, the run rolled_back\n"), "\(listed.err)")
        let journal = try workspace.journal()
        #expect(try journal.run(runID)?.status == .rolledBack)
        let decision = try #require(try journal.approvals(ofRun: runID).last?.decision)
        #expect(decision.verdict == .expired)
        #expect(decision.reason == "expired")
        let error = try journal.run(runID)?.error ?? ""
        #expect(error.hasSuffix("(demo.purge has confirm): expired"), "\(error)")
        #expect(workspace.ledger.isEmpty)
    }

    @Test func anExpiredRequestIsDeclinedByALaterTick() async throws {
        let workspace = Workspace(timeout: "1s")
        let runID = try await workspace.tickUntilItWaits()
        let journal = try workspace.journal()
        let expires = try #require(try journal.approvals(ofRun: runID).last?.request.expires)
        try await Task.sleep(for: .seconds(max(0, expires.timeIntervalSinceNow) + 0.1))

        // The next tick (cron's, a minute later) fires nothing new and declines the request.
        let tick = try await workspace.skillbook(["schedule", "tick"])
        #expect(tick.code == 0, "\(tick.err)")
        #expect(tick.err.contains("approval expired nightly run=\(runID) step=purge status=rolled_back"), "\(tick.err)")
        #expect(tick.err.contains("tick done started=0"), "\(tick.err)")
        let run = try #require(try journal.run(runID))
        #expect(run.status == .rolledBack)
        #expect(run.error?.hasSuffix("(demo.purge has confirm): expired") == true, "\(run.error ?? "")")
        let decision = try #require(try journal.approvals(ofRun: runID).last?.decision)
        #expect(decision.verdict == .expired)
        #expect(decision.reason == "expired")
        #expect(decision.by.contains("@"))
        let calls = try journal.calls(of: runID)
        #expect(calls.map(\.skill) == ["notes.create"], "the expired call never started: \(calls.map(\.skill))")
        #expect(calls.allSatisfy { $0.compensated }, "the note of 'mark' was undone")
        #expect(try NotesStore(stateDirectory: workspace.directory.state).list(limit: 10).isEmpty)
        #expect(workspace.ledger.isEmpty)
        let sessions = try journal.sessions(of: runID)
        #expect(sessions.map(\.kind) == ["run", "resume"])
        #expect(sessions.map(\.outcome) == ["waiting", "rolled_back"])
        #expect(sessions.map(\.trigger) == ["schedule", "schedule"], "the tick that expired it continued it")

        // Once: a third tick finds nothing to decline, and an approval comes too late.
        let again = try await workspace.skillbook(["schedule", "tick"])
        #expect(again.code == 0, "\(again.err)")
        #expect(!again.err.contains("approval expired"), "\(again.err)")
        let late = try await workspace.skillbook(["approve", String(runID.prefix(8)), "--yes"])
        #expect(late.code == 2, "\(late.err)")
        #expect(late.err.contains("run \(runID) expired"), "\(late.err)")
        #expect(try journal.sessions(of: runID).count == 2)
        #expect(workspace.ledger.isEmpty)
    }

    @Test func killedWhileTheApprovedCallRunsItRunsAtMostOnce() async throws {
        let workspace = Workspace(pause: "30")
        let runID = try await workspace.tickUntilItWaits()
        let approve = try SkillbookChild(
            ["approve", String(runID.prefix(8)), "--yes", "--json"] + workspace.state, in: workspace.directory.url)
        // Killed once the call runs (it writes its line at once, then works on for 30 s).
        let started = await eventually(within: 30) { workspace.ledger == ["purged"] }
        try #require(started, "\(approve.transcript)")
        try await approve.kill(SIGKILL)
        let journal = try workspace.journal()
        #expect(try journal.run(runID)?.status == .interrupted)
        #expect(try journal.approvals(ofRun: runID).last?.decision?.verdict == .approved, "the decision outlives the process")

        // Going on must not do it again on its own: the call may or may not have finished.
        let refused = try await workspace.skillbook(["resume", String(runID.prefix(8))])
        #expect(refused.code == 2, "\(refused.err)")
        #expect(refused.err.contains("purge (demo.purge), started"), "\(refused.err)")
        let resumed = try await workspace.skillbook(["resume", String(runID.prefix(8)), "--skip-uncertain"])
        #expect(resumed.code == 0, "\(resumed.err)")
        #expect(resumed.err.contains("✓ approved: purge"), "the journaled approval answers: \(resumed.err)")
        #expect(!resumed.err.contains("waits for an approval"), "\(resumed.err)")
        #expect(workspace.ledger == ["purged"], "at most once")
        #expect(try journal.run(runID)?.status == .succeeded)
    }

    @Test func aKilledApproverLeavesTheDecisionAndResumeGoesOnWithIt() async throws {
        // Decided, and the approving process gone before the run went on (as a kill -9 between the
        // two would leave it): the run still waits, `approve` refuses, `resume` goes on once.
        let workspace = Workspace()
        let runID = try await workspace.tickUntilItWaits()
        let journal = try workspace.journal()
        try journal.decide(runID, step: "purge", ApprovalDecision(verdict: .approved, by: "ada@desk", at: Date()))
        #expect(try journal.run(runID)?.status == .waiting)
        let listed = try await workspace.skillbook(["approvals", "--json"])
        #expect(try JSONText.decode(listed.out).arrayValue?.isEmpty == true, "a decided request no longer waits: \(listed.out)")
        let resumed = try await workspace.skillbook(["resume", String(runID.prefix(8))])
        #expect(resumed.code == 0, "\(resumed.err)")
        #expect(workspace.ledger == ["purged"], "exactly once after the approval")
        #expect(try journal.run(runID)?.status == .succeeded)
    }

    @Test func runWithoutATerminalExitsFourAndSaysHowToApprove() async throws {
        let workspace = Workspace()
        let run = try await workspace.skillbook(["run", "nightly"])
        #expect(run.code == 4, "\(run.err)")
        #expect(run.err.contains("waits for an approval at step 'purge' (demo.purge: ledger=\"ledger.txt\", pause=\"0\")"), "\(run.err)")
        #expect(run.err.contains("\n  skillbook approve "), "\(run.err)")
        #expect(run.err.contains("approves it: the run goes on from that step"))
        let undecided = try await workspace.skillbook(["resume", String(try #require(try workspace.journal().runs(playbook: nil, status: .waiting, limit: 1).first?.id).prefix(8))])
        #expect(undecided.code == 2)
        #expect(undecided.err.contains("waits for an approval; 'skillbook approve"), "\(undecided.err)")
    }
}
