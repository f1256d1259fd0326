import Foundation
import SkillbookCore
import SkillbookPostgres
import SkillbookSQLite
import SkillbookTesting
import Testing
import SkillbookSQL

/// The built-in stores, resource locks and fire ledger, run against SQLite and PostgreSQL alike.
@Suite struct BackendStoresTests {
    @Test(arguments: Backend.allCases)
    func notesListInOrderAndComeBackInTheirPlaces(_ backend: Backend) async throws {
        let state = try await backend.makeState()
        let clock = FixedClock(Date(timeIntervalSince1970: 1_780_000_000.7))
        let notes = try state.notes(clock: clock)
        let a = try await notes.create(title: "a", body: "", tags: ["x"])
        let many = try await notes.create([NoteDraft(title: "b", tags: ["y"]), NoteDraft(title: "c", body: "it's", tags: ["x", "y"])])
        #expect(a.createdText == "2026-05-28T20:26:40Z")
        #expect(try await notes.list(tag: nil, limit: 10).map(\.title) == ["a", "b", "c"])
        #expect(try await notes.list(tag: "x", limit: 10).map(\.title) == ["a", "c"])
        #expect(try await notes.list(tag: nil, limit: 2).map(\.title) == ["a", "b"])
        #expect(try await notes.get(id: many[1].id)?.body == "it's")

        let deleted = try await notes.delete(ids: [many[0].id, a.id, a.id, "missing"])
        #expect(deleted.map(\.note.title) == ["a", "b"])
        #expect(try await notes.list(tag: nil, limit: 10).map(\.title) == ["c"])
        try await notes.restore(deleted)
        try await notes.restore(deleted)  // safe to retry
        #expect(try await notes.list(tag: nil, limit: 10).map(\.title) == ["a", "b", "c"], "back in their old places")
        var changed = a
        changed.title = "other"
        await #expect(throws: (any Error).self) { try await notes.restore(changed) }
        #expect(try await notes.delete(id: a.id))
        #expect(try await !notes.delete(id: a.id))
    }

    @Test(arguments: Backend.allCases)
    func remindersListByDueAndCompleteOnce(_ backend: Backend) async throws {
        let state = try await backend.makeState()
        let now = Date(timeIntervalSince1970: 1_780_000_000)
        let reminders = try state.reminders(clock: FixedClock(now))
        let late = try await reminders.create(title: "late", due: now.addingTimeInterval(7200), notes: "")
        let soon = try await reminders.create(title: "soon", due: now.addingTimeInterval(60.5), notes: "n")
        let whenever = try await reminders.create(title: "whenever", due: nil, notes: "")
        #expect(soon.due == now.addingTimeInterval(60))
        #expect(try await reminders.list(dueFrom: nil, dueBefore: nil, includeDone: false, limit: 10).map(\.title) == ["soon", "late", "whenever"])
        #expect(
            try await reminders.list(dueFrom: now, dueBefore: now.addingTimeInterval(3600), includeDone: false, limit: 10).map(\.title)
                == ["soon"])
        let completed = try #require(try await reminders.complete(id: soon.id))
        #expect(!completed.wasDone)
        #expect(completed.reminder.completedAt == now)
        #expect(try await reminders.complete(id: soon.id)?.wasDone == true)
        #expect(try await reminders.list(dueFrom: nil, dueBefore: nil, includeDone: false, limit: 10).map(\.title) == ["late", "whenever"])
        #expect(try await reminders.reopen(id: soon.id, completedAt: now))
        #expect(try await !reminders.reopen(id: soon.id, completedAt: now))
        let deleted = try await reminders.delete(ids: [whenever.id, late.id])
        #expect(deleted.map(\.reminder.title) == ["late", "whenever"])
        try await reminders.restore(deleted)
        #expect(try await reminders.list(dueFrom: nil, dueBefore: nil, includeDone: true, limit: 10).map(\.title) == ["soon", "late", "whenever"])
        #expect(try await reminders.complete(id: "missing") == nil)
    }

    @Test(arguments: Backend.allCases)
    func twoRunsNeverHoldOneResourceAtOnce(_ backend: Backend) async throws {
        let state = try await backend.makeState()
        let journal = try state.journal()
        try await journal.runStarted(.sample("first"))
        try await journal.runStarted(.sample("second"))
        let one = try state.locks()
        let two = try state.locks()
        try await one.acquire(["notes", "files"], for: "first", step: "a") { _ in }
        let waits = Recorder<ResourceWait>()
        let waiting = Task { try await two.acquire(["notes"], for: "second", step: "b") { waits.append($0) } }
        #expect(await eventually { !waits.values.isEmpty })
        #expect(waits.values.first == ResourceWait(resources: ["notes"], heldBy: "first"))
        await one.release(["notes", "files"], for: "first")
        try await waiting.value
        let timeline = try #require(try await journal.timeline("second"))
        #expect(timeline.waits.map(\.outcome) == ["acquired"])
        // A cancelled wait holds nothing.
        let cancelled = Task { try await one.acquire(["notes"], for: "first", step: "c") { _ in } }
        try await Task.sleep(for: .milliseconds(50))
        cancelled.cancel()
        await #expect(throws: CancellationError.self) { try await cancelled.value }
    }

    @Test(arguments: Backend.allCases)
    func ofTwoLedgersClaimingOneFireExactlyOneGetsIt(_ backend: Backend) async throws {
        let state = try await backend.makeState()
        let at = Date(timeIntervalSince1970: 1_780_000_000)
        let fire = Fire(key: FireKey(playbook: "sync", entry: 0, scheduledAt: at), isCatchUp: false)
        var decided = EntryState()
        decided.anchor = at
        let decision = FireDecision(start: [fire], skipped: [], dropped: 0, state: decided)
        let ledgers = try (0..<4).map { _ in try state.ledger() }
        let claims = try await withThrowingTaskGroup(of: Int.self) { group in
            for ledger in ledgers { group.addTask { try await ledger.commit(decision, playbook: "sync", entry: 0).count } }
            return try await group.reduce(0, +)
        }
        #expect(claims == 1)
        #expect(try await ledgers[0].state(playbook: "sync", entry: 0).anchor == at)
    }
}
