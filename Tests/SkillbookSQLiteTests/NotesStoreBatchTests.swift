import SkillbookTesting
import Foundation
import SkillbookCore
import SkillbookSQLite
import Testing
import SkillbookSQL

/// `create(_ drafts:)`, `delete(ids:)` and `restore(_ deleted:)`: several notes in one transaction.
@Suite struct NotesStoreBatchTests {
    static let start = Date(timeIntervalSince1970: 1_780_000_000)

    func makeStore(_ dir: URL, ids: IDGenerator = .sequential()) throws -> NotesStore {
        try NotesStore(stateDirectory: dir, clock: SteppingClock(from: Self.start, by: 60), ids: ids)
    }

    @Test func createManyWritesEveryDraftInOrderAtOneTime() async throws {
        try await withTemporaryDirectory { dir in
            let store = try makeStore(dir)
            let before = try store.create(title: "before")
            let notes = try store.create([
                NoteDraft(title: "a"), NoteDraft(title: "b", body: "text", tags: ["x", "y"]), NoteDraft(title: "c"),
            ])
            #expect(notes.map(\.title) == ["a", "b", "c"])
            #expect(Set(notes.map(\.created)) == [Self.start.addingTimeInterval(60)])
            #expect(notes[1].body == "text" && notes[1].tags == ["x", "y"])
            #expect(try store.list() == [before] + notes)
            #expect(try store.create([]) == [])
        }
    }

    @Test func createManyIsAllOrNothing() async throws {
        try await withTemporaryDirectory { dir in
            // The fourth new id repeats the existing note's id: the primary key fails mid-transaction.
            let calls = Shared(0)
            let ids = IDGenerator {
                let n = calls.withLock { count in
                    count += 1
                    return count
                }
                return n == 5 ? "id-1" : "id-\(n)"
            }
            let store = try makeStore(dir, ids: ids)
            let existing = try store.create(title: "existing")
            let error = #expect(throws: StoreError.self) {
                try store.create((1...6).map { NoteDraft(title: "new \($0)") })
            }
            #expect(error?.kind == .conflict)
            #expect(try store.list() == [existing])
            // The connection is usable afterwards: no transaction was left open.
            let next = try store.create([NoteDraft(title: "after")])
            #expect(try store.list() == [existing] + next)
        }
    }

    @Test func deleteManyReturnsTheNotesInListOrderAndSkipsUnknownIds() async throws {
        try await withTemporaryDirectory { dir in
            let store = try makeStore(dir)
            let notes = try store.create((1...5).map { NoteDraft(title: "n\($0)", tags: ["t\($0)"]) })
            let deleted = try store.delete(ids: [notes[3].id, "no-such-id", notes[1].id, notes[3].id])
            #expect(deleted.map(\.note) == [notes[1], notes[3]])
            #expect(try store.list() == [notes[0], notes[2], notes[4]])
            #expect(try store.delete(ids: [notes[1].id]).isEmpty)
            #expect(try store.delete(ids: []).isEmpty)
        }
    }

    @Test func restoreManyPutsNotesBackInTheirPlaceAmongNotesOfTheSameSecond() async throws {
        try await withTemporaryDirectory { dir in
            let store = try makeStore(dir)
            let first = try store.create(title: "first")
            let batch = try store.create((1...8).map { NoteDraft(title: "n\($0)", body: "b\($0)", tags: ["t"]) })
            let last = try store.create(title: "last")
            let original = try store.list()
            #expect(original == [first] + batch + [last])

            let deleted = try store.delete(ids: [batch[0].id, batch[3].id, batch[4].id, last.id])
            try store.restore(deleted)
            #expect(try store.list() == original)
            try store.restore(deleted)  // retrying is harmless
            #expect(try store.list() == original)
        }
    }

    @Test func restoreManyWhosePositionWasTakenStillRestoresTheNote() async throws {
        try await withTemporaryDirectory { dir in
            let store = try NotesStore(stateDirectory: dir, clock: FixedClock(Self.start), ids: .sequential())
            let a = try store.create(title: "a")
            let b = try store.create(title: "b")
            let deleted = try store.delete(ids: [b.id])
            let c = try store.create(title: "c")  // SQLite reuses the highest rowid: b's old position
            try store.restore(deleted)
            // b is back with its fields and `created`; it lists after c, which now holds its position.
            #expect(try store.get(id: b.id) == b)
            #expect(try store.list() == [a, c, b])
        }
    }

    @Test func restoreManyIsAllOrNothingOnConflict() async throws {
        try await withTemporaryDirectory { dir in
            let store = try makeStore(dir)
            let notes = try store.create([NoteDraft(title: "a"), NoteDraft(title: "b")])
            var deleted = try store.delete(ids: notes.map(\.id))
            deleted[1].note.title = "changed"
            try store.restore([DeletedNote(note: notes[1], position: deleted[1].position)])
            let error = #expect(throws: StoreError.self) { try store.restore(deleted) }
            #expect(error?.kind == .conflict)
            #expect(try store.list() == [notes[1]])
        }
    }
}
