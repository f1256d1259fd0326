import SkillbookTesting
import Foundation
import SkillbookCore
import SkillbookSQLite
import Testing
import SkillbookSQL

@Suite struct RemindersStoreTests {
    static let start = Date(timeIntervalSince1970: 1_780_000_000)  // 2026-05-28T20:26:40Z

    func makeStore(_ dir: URL, clock: any WallClock = SteppingClock(from: start, by: 60)) throws -> RemindersStore {
        try RemindersStore(stateDirectory: dir, clock: clock, ids: .sequential())
    }

    func at(_ text: String) throws -> Date {
        try Date(text, strategy: .iso8601)
    }

    @Test func createThenGetRoundTripsToTheSecond() async throws {
        try await withTemporaryDirectory { dir in
            let store = try makeStore(dir, clock: FixedClock(Self.start.addingTimeInterval(0.75)))
            let due = try at("2026-06-01T09:00:00Z").addingTimeInterval(0.5)
            let reminder = try store.create(title: "Call Anna", due: due, notes: "about Friday")
            #expect(reminder.id == "00000000-0000-0000-0000-000000000001")
            #expect(reminder.created == Self.start)
            #expect(reminder.due == (try at("2026-06-01T09:00:00Z")))
            #expect(!reminder.done && reminder.completedAt == nil)
            #expect(try store.get(id: reminder.id) == reminder)
            #expect(
                reminder.value
                    == [
                        "id": "00000000-0000-0000-0000-000000000001", "title": "Call Anna",
                        "due": "2026-06-01T09:00:00Z", "notes": "about Friday", "done": false,
                    ])
            let undated = try store.create(title: "Buy milk")
            #expect(undated.due == nil)
            #expect(undated.value == ["id": .string(undated.id), "title": "Buy milk", "notes": "", "done": false])
            #expect(try store.get(id: undated.id) == undated)
        }
    }

    @Test func sharesTheStateFileWithNotesAndMigratesIt() async throws {
        try await withTemporaryDirectory { dir in
            let notes = try NotesStore(stateDirectory: dir)
            _ = try notes.create(title: "a note")
            let store = try makeStore(dir)
            _ = try store.create(title: "a reminder")
            #expect(try store.database.userVersion() == StateDatabase.schemaVersion)
            #expect(store.database.url.standardizedFileURL == StateDatabase.url(in: dir).standardizedFileURL)
            #expect(try notes.list().count == 1)
        }
    }

    @Test func listsByDueTimeWithUndatedLastThenOldestFirst() async throws {
        try await withTemporaryDirectory { dir in
            let store = try makeStore(dir)
            let undated1 = try store.create(title: "undated 1")
            let late = try store.create(title: "late", due: try at("2026-06-02T09:00:00Z"))
            let early = try store.create(title: "early", due: try at("2026-06-01T09:00:00Z"))
            let undated2 = try store.create(title: "undated 2")
            let sameTime = try store.create(title: "early too", due: try at("2026-06-01T09:00:00Z"))
            #expect(try store.list().map(\.id) == [early, sameTime, late, undated1, undated2].map(\.id))
            #expect(try store.list(limit: 2).map(\.id) == [early, sameTime].map(\.id))
        }
    }

    @Test func filtersByAHalfOpenRangeOfDueTimesAndLeavesUndatedOut() async throws {
        try await withTemporaryDirectory { dir in
            let store = try makeStore(dir)
            _ = try store.create(title: "undated")
            let a = try store.create(title: "a", due: try at("2026-06-01T00:00:00Z"))
            let b = try store.create(title: "b", due: try at("2026-06-01T23:59:59Z"))
            _ = try store.create(title: "c", due: try at("2026-06-02T00:00:00Z"))
            let list = try store.list(dueFrom: try at("2026-06-01T00:00:00Z"), dueBefore: try at("2026-06-02T00:00:00Z"))
            #expect(list.map(\.id) == [a.id, b.id])
            #expect(try store.list(dueBefore: try at("2026-06-01T23:59:59Z")).map(\.id) == [a.id])
            #expect(try store.list(dueFrom: try at("2026-06-02T00:00:00Z")).map(\.title) == ["c"])
        }
    }

    @Test func completeSetsTheTimeOnceAndReopenUndoesOnlyThatCompletion() async throws {
        try await withTemporaryDirectory { dir in
            let store = try makeStore(dir)
            let reminder = try store.create(title: "t")
            let first = try #require(try store.complete(id: reminder.id))
            #expect(!first.wasDone)
            #expect(first.reminder.done)
            #expect(first.reminder.completedAt == Self.start.addingTimeInterval(60))
            #expect(try store.get(id: reminder.id) == first.reminder)
            #expect(try store.list().isEmpty)
            #expect(try store.list(includeDone: true) == [first.reminder])

            let again = try #require(try store.complete(id: reminder.id))
            #expect(again.wasDone)
            #expect(again.reminder == first.reminder)  // completion time kept

            let other = try #require(first.reminder.completedAt).addingTimeInterval(1)
            #expect(try !store.reopen(id: reminder.id, completedAt: other))
            #expect(try store.reopen(id: reminder.id, completedAt: try #require(first.reminder.completedAt)))
            #expect(try store.get(id: reminder.id) == reminder)
            #expect(try !store.reopen(id: reminder.id, completedAt: try #require(first.reminder.completedAt)))
            #expect(try store.complete(id: "no-such-reminder") == nil)
        }
    }

    @Test func deleteThenRestorePutsRemindersBackExactlyAndIsSafeToRetry() async throws {
        try await withTemporaryDirectory { dir in
            let store = try makeStore(dir, clock: FixedClock(Self.start))
            let due = try at("2026-06-01T09:00:00Z")
            var created: [Reminder] = []
            for n in 1...6 { created.append(try store.create(title: "r\(n)", due: n == 6 ? nil : due, notes: "n\(n)")) }
            _ = try store.complete(id: created[2].id)
            let original = try store.list(includeDone: true)
            let deleted = try store.delete(ids: [created[1].id, created[2].id, created[5].id, "missing", created[1].id])
            #expect(deleted.map(\.reminder.id) == [created[1].id, created[2].id, created[5].id])
            #expect(deleted[1].reminder.done && deleted[1].reminder.completedAt != nil)
            #expect(try store.list(includeDone: true).count == 3)

            try store.restore(deleted)
            #expect(try store.list(includeDone: true) == original)
            try store.restore(deleted)
            #expect(try store.list(includeDone: true) == original)
        }
    }

    @Test func restoreRefusesADifferentReminderWithTheSameIdAndRestoresNothing() async throws {
        try await withTemporaryDirectory { dir in
            let store = try makeStore(dir)
            let a = try store.create(title: "a")
            let b = try store.create(title: "b")
            let deleted = try store.delete(ids: [a.id, b.id])
            var impostor = deleted[1]
            impostor.reminder.title = "someone else"
            try store.restore([impostor])
            #expect(throws: StoreError.self) { try store.restore(deleted) }
            #expect(try store.get(id: a.id) == nil)
            #expect(try store.get(id: b.id)?.title == "someone else")
        }
    }

    @Test func aHandEditedRowIsReportedNotTrusted() async throws {
        try await withTemporaryDirectory { dir in
            let store = try makeStore(dir)
            let reminder = try store.create(title: "t", due: try at("2026-06-01T09:00:00Z"))
            try store.database.run("UPDATE reminders SET due = 'next week' WHERE id = ?", [.text(reminder.id)])
            let error = #expect(throws: StoreError.self) { try store.list() }
            #expect(error?.kind == .malformedRow)
            #expect(error?.message.contains("malformed reminder \(reminder.id)") == true)
        }
    }

    @Test func theSchemaKeepsDoneAndCompletionTimeTogether() async throws {
        try await withTemporaryDirectory { dir in
            let store = try makeStore(dir)
            let reminder = try store.create(title: "t")
            let error = #expect(throws: StoreError.self) {
                try store.database.run("UPDATE reminders SET done = 1 WHERE id = ?", [.text(reminder.id)])
            }
            #expect(error?.kind == .conflict)
        }
    }
}
