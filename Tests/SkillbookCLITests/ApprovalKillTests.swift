import Foundation
import SkillbookCore
import SkillbookSQL
import SkillbookSQLite
import SkillbookTesting
import Testing

/// Issue 24: kill -9 in the approval path with real processes — while pausing (the request recorded,
/// the run not yet `waiting`) and while a daemon continues an approved run. The call runs at most
/// once, and exactly once after an approval.
@Suite(.serialized) struct ApprovalKillTests {
    typealias Workspace = ApprovalFlowTests.Workspace

    /// A parameter longer than a pipe holds (64 KiB): the `run.waiting` line that carries it blocks
    /// `run --json` in its write once nobody reads — after the request is recorded, before the run's
    /// end is.
    static let filler = String(repeating: "x", count: 100_000)

    static let playbook = """
        name: nightly
        steps:
          - { id: mark, skill: notes.create, with: { title: "nightly ran" } }
          - { id: purge, skill: demo.purge, with: { ledger: ledger.txt, pause: "0", note: "\(filler)" } }

        """

    /// `demo.purge` with a `note` it ignores.
    static let manifest = ApprovalFlowTests.manifest.replacingOccurrences(
        of: "pause: { type: string }", with: "pause: { type: string }\n    note: { type: string }")

    @Test func killedBetweenTheRequestAndWaitingTheCallRunsOnlyAfterAnApproval() async throws {
        let workspace = Workspace()
        workspace.directory.write("Skills/purge.yaml", Self.manifest)
        workspace.directory.write("Playbooks/nightly.yaml", Self.playbook)

        let process = try ChildProgram(
            try builtExecutable().path, ["run", "nightly", "--json"] + workspace.state,
            environment: ["HOME": workspace.directory.path, "NO_COLOR": "1", "PATH": "/usr/bin:/bin"],
            in: workspace.directory.url, output: .pipe)

        // Read the events one byte at a time up to the end of `confirmation.answered`, then no more:
        // the next line (`run.waiting`) fills the pipe and the process blocks inside that write.
        let descriptor = try #require(process.outputPipe)
        var line: [UInt8] = []
        var lines: [String] = []
        var answered = false
        while !answered {
            var byte: UInt8 = 0
            let count = read(descriptor, &byte, 1)
            try #require(count == 1, "the run ended early: \(lines.map { String($0.prefix(200)) })")
            if byte == 0x0A {
                let text = String(decoding: line, as: UTF8.self)
                lines.append(text)
                answered = text.hasPrefix(#"{"type":"confirmation.answered""#) || text.contains(#""type":"confirmation.answered""#)
                line.removeAll(keepingCapacity: true)
            } else {
                line.append(byte)
            }
        }
        let first = try #require(lines.first)
        let started = try #require(JSONText.decode(first).objectValue)
        let runID = try #require(started["run"]?.stringValue)
        let journal = try workspace.journal()
        let requested = await eventually(within: 30) { (try? journal.approvals(ofRun: runID).count) == 1 }
        try #require(requested, "the request was not recorded")
        // Blocked in its write: the run is still recorded as running, not as waiting.
        try await Task.sleep(for: .milliseconds(200))
        #expect(try journal.database.query("SELECT status FROM runs WHERE id = ?1", [.text(runID)]).first?[0].stringValue == "running")
        process.signal(SIGKILL)
        _ = await process.exit(within: 60)

        #expect(try journal.run(runID)?.status == .interrupted)
        #expect(workspace.ledger.isEmpty, "nothing ran")
        let listed = try await workspace.skillbook(["approvals", "--json"])
        #expect(try JSONText.decode(listed.out).arrayValue?.isEmpty == true, "an interrupted run does not wait: \(listed.out)")
        let approve = try await workspace.skillbook(["approve", String(runID.prefix(8)), "--yes"])
        #expect(approve.code == 2, "\(approve.err)")
        #expect(approve.err.contains("run \(runID) no longer waits for an approval: it is interrupted"), "\(approve.err)")
        #expect(workspace.ledger.isEmpty)

        // Resumed with nobody to ask, it asks again: a new request, then the call once approved.
        let resumed = try await workspace.skillbook(["resume", String(runID.prefix(8))])
        #expect(resumed.code == 4, "\(resumed.err)")
        #expect(workspace.ledger.isEmpty)
        let approved = try await workspace.skillbook(["approve", String(runID.prefix(8)), "--yes"])
        #expect(approved.code == 0, "\(approved.err)")
        #expect(workspace.ledger == ["purged"], "exactly once after the approval")
        #expect(try journal.run(runID)?.status == .succeeded)
        let requests = try journal.approvals(ofRun: runID)
        #expect(requests.map { $0.decision?.verdict } == [nil, .approved])
        #expect(requests.first?.runStatus == .succeeded)
    }

    @Test func aDaemonKilledWhileItContinuesAnApprovedRunLeavesTheCallToRunAtMostOnce() async throws {
        let workspace = Workspace(pause: "30")
        let (daemon, run) = try await DaemonApprovalTests.daemonRunWaits(workspace)
        defer { kill(daemon.pid, SIGKILL) }
        let approved = try await workspace.skillbook(["approve", String(run.id.prefix(8)), "--yes"])
        #expect(approved.code == 0, "\(approved.err)")
        // The daemon goes on with it: killed once the call runs (it writes its line at once, then works 30 s).
        let started = await eventually(within: 30) { workspace.ledger == ["purged"] }
        try #require(started, "\(daemon.transcript)")
        try await daemon.kill(SIGKILL)
        let journal = try workspace.journal()
        #expect(try journal.run(run.id)?.status == .interrupted)

        let refused = try await workspace.skillbook(["resume", String(run.id.prefix(8))])
        #expect(refused.code == 2, "\(refused.err)")
        #expect(refused.err.contains("purge (demo.purge), started"), "\(refused.err)")
        let resumed = try await workspace.skillbook(["resume", String(run.id.prefix(8)), "--skip-uncertain"])
        #expect(resumed.code == 0, "\(resumed.err)")
        #expect(workspace.ledger == ["purged"], "at most once")
        #expect(try journal.run(run.id)?.status == .succeeded)
    }
}
