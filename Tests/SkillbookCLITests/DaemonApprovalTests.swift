import Foundation
import SkillbookCore
import SkillbookSQLite
import SkillbookTesting
import Testing

/// Issue 24 item 1 on SQLite with the real daemon: a run the daemon started and left waiting goes
/// on in that daemon once another process approves it; with the daemon gone, in the approver.
@Suite(.serialized) struct DaemonApprovalTests {
    typealias Workspace = ApprovalFlowTests.Workspace

    /// Starts the daemon and waits until its first fire waits at `purge`; returns the run.
    static func daemonRunWaits(_ workspace: Workspace) async throws -> (SkillbookChild, JournalRun) {
        let daemon = try SkillbookChild(["daemon", "--grace", "5s"] + workspace.state, in: workspace.directory.url)
        let journal = try workspace.journal()
        let waits = await eventually(within: 30) { (try? journal.runs(playbook: "nightly", status: .waiting, limit: 1).first) != nil }
        try #require(waits, "\(daemon.transcript)")
        let run = try #require(try journal.runs(playbook: "nightly", status: .waiting, limit: 1).first)
        return (daemon, run)
    }

    @Test func theDaemonThatStartedAWaitingRunGoesOnWithItOnceApproved() async throws {
        let workspace = Workspace()
        let (daemon, run) = try await Self.daemonRunWaits(workspace)
        defer { kill(daemon.pid, SIGKILL) }
        #expect(run.holder?.pid == daemon.pid, "the daemon started it")
        #expect(workspace.ledger.isEmpty)

        let approved = try await workspace.skillbook(["approve", String(run.id.prefix(8)), "--yes"])
        #expect(approved.code == 0, "\(approved.err)")
        #expect(approved.err.contains("run \(run.id): step 'purge' approved by "), "\(approved.err)")
        #expect(approved.err.contains("run \(run.id) goes on in the daemon that started it (pid \(daemon.pid))"), "\(approved.err)")

        let journal = try workspace.journal()
        let finished = await eventually(within: 30) { (try? journal.run(run.id)?.status) == .succeeded }
        #expect(finished, "\(daemon.transcript)")
        #expect(workspace.ledger == ["purged"], "the approved call ran once")
        let sessions = try journal.sessions(of: run.id)
        #expect(sessions.map(\.kind) == ["run", "resume"])
        #expect(sessions.allSatisfy { $0.pid == daemon.pid }, "both in the daemon: \(sessions.map(\.pid))")
        #expect(sessions.last?.trigger == .schedule)
        // The daemon's log is read from its pipe by another thread: wait for the lines, not only the journal.
        let logged = await eventually(within: 10) {
            daemon.stderr.text.contains("approval approved nightly run=\(run.id) step=purge: going on")
                && daemon.stderr.text.contains("run continued nightly run=\(run.id) status=succeeded")
        }
        #expect(logged, "\(daemon.transcript)")

        // The daemon's 2 s check finds nothing more to do: the run is not continued twice.
        try await Task.sleep(for: .seconds(2.5))
        #expect(daemon.stderr.text.components(separatedBy: "run continued nightly").count == 2, "\(daemon.transcript)")
        #expect(workspace.ledger == ["purged"])
        kill(daemon.pid, SIGTERM)
        #expect(try await daemon.waitForExit(upTo: 20) == 0, "\(daemon.transcript)")
    }

    @Test func aDecisionTheDaemonWasNotWokenForIsFoundByItsCheck() async throws {
        // Decided without a wake (as a decider killed before it sends one leaves it): the daemon's
        // check every 2 s finds the run and goes on with it, once.
        let workspace = Workspace()
        let (daemon, run) = try await Self.daemonRunWaits(workspace)
        defer { kill(daemon.pid, SIGKILL) }
        let journal = try workspace.journal()
        try journal.decide(run.id, step: "purge", ApprovalDecision(verdict: .approved, by: "ada@desk", at: Date()))
        let finished = await eventually(within: 30) { (try? journal.run(run.id)?.status) == .succeeded }
        #expect(finished, "\(daemon.transcript)")
        #expect(workspace.ledger == ["purged"])
        #expect(try journal.sessions(of: run.id).allSatisfy { $0.pid == daemon.pid })
    }

    @Test func aDeclineIsCarriedOutByTheDaemonAndRollsBack() async throws {
        let workspace = Workspace()
        let (daemon, run) = try await Self.daemonRunWaits(workspace)
        defer { kill(daemon.pid, SIGKILL) }
        let declined = try await workspace.skillbook(["decline", String(run.id.prefix(8)), "--reason", "not tonight"])
        #expect(declined.code == 0, "\(declined.err)")
        #expect(declined.err.contains("goes on in the daemon that started it (pid \(daemon.pid))"), "\(declined.err)")
        let journal = try workspace.journal()
        let rolledBack = await eventually(within: 30) { (try? journal.run(run.id)?.status) == .rolledBack }
        #expect(rolledBack, "\(daemon.transcript)")
        #expect(try journal.run(run.id)?.error?.hasSuffix(": not tonight") == true)
        #expect(workspace.ledger.isEmpty, "the declined call never ran")
        #expect(try NotesStore(stateDirectory: workspace.directory.state).list(limit: 10).isEmpty, "the note of 'mark' was undone")
        #expect(try journal.sessions(of: run.id).allSatisfy { $0.pid == daemon.pid })
    }

    @Test func anExpiredRequestIsDeclinedByTheDaemonItself() async throws {
        let workspace = Workspace(timeout: "1s")
        let (daemon, run) = try await Self.daemonRunWaits(workspace)
        defer { kill(daemon.pid, SIGKILL) }
        let journal = try workspace.journal()
        let rolledBack = await eventually(within: 30) { (try? journal.run(run.id)?.status) == .rolledBack }
        #expect(rolledBack, "\(daemon.transcript)")
        #expect(try journal.approvals(ofRun: run.id).last?.decision?.verdict == .expired)
        #expect(
            await eventually(within: 10) { daemon.stderr.text.contains("approval expired nightly run=\(run.id) step=purge status=rolled_back") },
            "\(daemon.transcript)")
        #expect(workspace.ledger.isEmpty)
    }

    @Test func withTheDaemonGoneTheApproverGoesOn() async throws {
        let workspace = Workspace()
        let (daemon, run) = try await Self.daemonRunWaits(workspace)
        kill(daemon.pid, SIGTERM)
        #expect(try await daemon.waitForExit(upTo: 20) == 0, "\(daemon.transcript)")
        let approved = try await workspace.skillbook(["approve", String(run.id.prefix(8)), "--yes"])
        #expect(approved.code == 0, "\(approved.err)")
        #expect(!approved.err.contains("goes on in the daemon"), "\(approved.err)")
        #expect(approved.err.contains("nightly succeeded in "), "\(approved.err)")
        let journal = try workspace.journal()
        #expect(try journal.run(run.id)?.status == .succeeded)
        #expect(workspace.ledger == ["purged"])
        let sessions = try journal.sessions(of: run.id)
        #expect(sessions.map(\.kind) == ["run", "resume"])
        #expect(sessions.last?.pid != daemon.pid)
    }
}
