import SkillbookTesting
import Foundation
import SkillbookCore
import SkillbookSQLite
import Testing
import SkillbookSQL

@Suite struct NotesStoreTests {
    static let start = Date(timeIntervalSince1970: 1_780_000_000)  // 2026-05-28T20:26:40Z

    func makeStore(_ dir: URL) throws -> NotesStore {
        try NotesStore(stateDirectory: dir, clock: SteppingClock(from: Self.start, by: 60), ids: .sequential())
    }

    @Test func createThenGetAndListRoundTrip() async throws {
        try await withTemporaryDirectory { dir in
            let store = try makeStore(dir)
            let note = try store.create(title: "Call Anna", body: "about Friday", tags: ["work", "calls"])
            #expect(note.id == "00000000-0000-0000-0000-000000000001")
            #expect(note.created == Self.start)
            #expect(try store.get(id: note.id) == note)
            #expect(try store.list() == [note])
            #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("skillbook.sqlite").path))
            #expect(
                note.value
                    == [
                        "id": "00000000-0000-0000-0000-000000000001", "title": "Call Anna", "body": "about Friday",
                        "tags": ["work", "calls"], "created": "2026-05-28T20:26:40Z",
                    ])
        }
    }

    @Test func createdIsTruncatedToWholeSecondsSoItRoundTrips() async throws {
        try await withTemporaryDirectory { dir in
            let store = try NotesStore(
                stateDirectory: dir, clock: FixedClock(Self.start.addingTimeInterval(0.75)), ids: .sequential())
            let note = try store.create(title: "t")
            #expect(note.created == Self.start)
            #expect(try store.get(id: note.id)?.created == Self.start)
        }
    }

    @Test func listIsOldestFirstFilteredByTagAndLimited() async throws {
        try await withTemporaryDirectory { dir in
            let store = try makeStore(dir)
            let a = try store.create(title: "a", tags: ["x"])
            let b = try store.create(title: "b", tags: ["y"])
            let c = try store.create(title: "c", tags: ["x", "y"])
            let d = try store.create(title: "d")
            #expect(try store.list().map(\.title) == ["a", "b", "c", "d"])
            #expect(try store.list(tag: "x") == [a, c])
            #expect(try store.list(tag: "y") == [b, c])
            #expect(try store.list(tag: "X").isEmpty)
            #expect(try store.list(tag: "z").isEmpty)
            #expect(try store.list(limit: 2) == [a, b])
            #expect(try store.list(tag: "y", limit: 1) == [b])
            #expect(try store.list(limit: 0).isEmpty)
            _ = d
        }
    }

    @Test func notesCreatedInTheSameSecondKeepInsertionOrder() async throws {
        try await withTemporaryDirectory { dir in
            let store = try NotesStore(stateDirectory: dir, clock: FixedClock(Self.start), ids: .live)
            let titles = (1...10).map { "note \($0)" }
            for title in titles { _ = try store.create(title: title) }
            #expect(try store.list().map(\.title) == titles)
        }
    }

    @Test func deleteThenRestorePutsTheNoteBackInItsPlace() async throws {
        try await withTemporaryDirectory { dir in
            let store = try makeStore(dir)
            let a = try store.create(title: "a")
            let b = try store.create(title: "b", body: "body", tags: ["t"])
            let c = try store.create(title: "c")

            #expect(try store.delete(id: b.id))
            #expect(try store.delete(id: b.id) == false)
            #expect(try store.get(id: b.id) == nil)
            #expect(try store.list() == [a, c])

            try store.restore(b)
            try store.restore(b)  // retrying is harmless
            #expect(try store.list() == [a, b, c])
            #expect(try store.get(id: b.id) == b)

            var changed = b
            changed.title = "other"
            let error = #expect(throws: StoreError.self) { try store.restore(changed) }
            #expect(error?.kind == .conflict)
            #expect(try store.get(id: b.id) == b)
        }
    }

    @Test func notesPersistAcrossOpenings() async throws {
        try await withTemporaryDirectory { dir in
            let note = try makeStore(dir).create(title: "kept", tags: ["a"])
            let reopened = try NotesStore(stateDirectory: dir)
            #expect(try reopened.list() == [note])
            #expect(try reopened.database.userVersion() == StateDatabase.schemaVersion)
        }
    }

    @Test func concurrentCreatesFromTwentyTasksAllLand() async throws {
        try await withTemporaryDirectory { dir in
            let store = try NotesStore(stateDirectory: dir)
            let ids = try await withThrowingTaskGroup(of: String.self) { group in
                for n in 0..<20 {
                    group.addTask { try store.create(title: "note \(n)", tags: ["n\(n % 3)"]).id }
                }
                return try await group.reduce(into: Set<String>()) { $0.insert($1) }
            }
            #expect(ids.count == 20)
            let listed = try store.list(limit: 1000)
            #expect(Set(listed.map(\.id)) == ids)
            #expect(Set(listed.map(\.title)) == Set((0..<20).map { "note \($0)" }))
            #expect(try store.list(tag: "n0").count == 7)
        }
    }

    @Test func twoStoresOnTheSameDirectorySeeEachOthersNotes() async throws {
        try await withTemporaryDirectory { dir in
            let first = try NotesStore(stateDirectory: dir)
            let second = try NotesStore(stateDirectory: dir)
            let note = try first.create(title: "shared")
            #expect(try second.get(id: note.id) == note)
        }
    }

    @Test func corruptStateFileGivesClearErrorAndIsLeftUntouched() async throws {
        try await withTemporaryDirectory { dir in
            let file = dir.appendingPathComponent("skillbook.sqlite")
            let garbage = Data((0..<2048).map { UInt8(truncatingIfNeeded: $0 &* 91 &+ 7) })
            try garbage.write(to: file)
            let error = #expect(throws: StoreError.self) { try NotesStore(stateDirectory: dir) }
            #expect(
                error?.message
                    == "state database \(file.path) is not a valid SQLite database (file is not a database); "
                    + "move it aside or use another state directory")
            #expect(try Data(contentsOf: file) == garbage)
        }
    }
}
