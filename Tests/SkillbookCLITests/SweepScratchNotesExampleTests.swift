import Foundation
import SkillbookCore
import SkillbookSQLite
import SkillbookTesting
import Testing

/// `Playbooks/sweep-scratch-notes.yaml`, the scheduled example that asks before it deletes and
/// notifies when it waits and when it fails, run by `schedule tick` as cron would.
@Suite(.serialized) struct SweepScratchNotesExampleTests {
    static let shipped = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Playbooks/sweep-scratch-notes.yaml")

    @Test func waitsForAnApprovalNotifiesAndDeletesOnlyOnceApproved() async throws {
        let directory = TemporaryDirectory()
        // As shipped, but due now: a fresh state's weekly cron would fire only next Sunday.
        let shipped = try String(contentsOf: Self.shipped, encoding: .utf8)
        let schedule = #"schedule: { cron: "0 20 * * 0", catch_up: latest }"#
        try #require(shipped.contains(schedule))
        directory.write("Playbooks/sweep-scratch-notes.yaml", shipped.replacingOccurrences(of: schedule, with: "schedule: { every: 1h }"))
        let state = ["--playbooks", directory.playbooks.path, "--state", directory.state.path]
        func skillbook(_ arguments: [String]) async throws -> (code: Int32, out: String, err: String) {
            try await runSkillbook(arguments + state, in: directory.url)
        }
        for (title, tag) in [("draft one", "scratch"), ("draft two", "scratch"), ("keep me", "journal")] {
            let made = try await skillbook(["call", "notes.create", "-i", "title=\(title)", "-i", "tags=[\(tag)]"])
            #expect(made.code == 0, "\(made.err)")
        }
        let notes = try NotesStore(stateDirectory: directory.state)

        // Fired with nobody to ask: it waits at `remove` and says so.
        let tick = try await skillbook(["schedule", "tick"])
        #expect(tick.code == 0, "\(tick.err)")
        let journal = try SQLiteJournal(stateDirectory: directory.state)
        let run = try #require(try journal.runs(playbook: "sweep-scratch-notes", status: .waiting, limit: 1).first, "\(tick.err)")
        #expect(tick.err.contains("sweep-scratch-notes waits for your approval: skillbook approve \(run.id)"), "\(tick.err)")
        let listed = try await skillbook(["approvals"])
        #expect(listed.out.contains("\(run.id.prefix(8))  sweep-scratch-notes  remove"), "\(listed.out)")
        #expect(listed.out.contains("draft one"), "what it would delete: \(listed.out)")
        #expect(try notes.list(tag: nil, limit: 10).count == 3)

        // Declined: nothing deleted, and the failure is told.
        let declined = try await skillbook(["decline", String(run.id.prefix(8)), "--reason", "not yet"])
        #expect(declined.code == 1, "\(declined.err)")
        #expect(declined.err.contains("sweep-scratch-notes rolled_back: step 'remove'"), "\(declined.err)")
        #expect(try notes.list(tag: nil, limit: 10).count == 3)
        let told = try journal.runs(playbook: nil, status: nil, limit: 20).filter { $0.trigger == .notify }
        #expect(told.count == 2, "one for waiting, one for the failure: \(told.map(\.playbook))")

        // Run by hand with nobody to ask, approved from another process: only the scratch notes go.
        let again = try await skillbook(["run", "sweep-scratch-notes"])
        #expect(again.code == 4, "\(again.err)")
        let second = try #require(try journal.runs(playbook: "sweep-scratch-notes", status: .waiting, limit: 1).first)
        let approved = try await skillbook(["approve", String(second.id.prefix(8)), "--yes"])
        #expect(approved.code == 0, "\(approved.err)")
        #expect(try journal.run(second.id)?.outputs?["deleted"] == .int(2))
        #expect(try notes.list(tag: nil, limit: 10).map(\.title) == ["keep me"])
    }
}
