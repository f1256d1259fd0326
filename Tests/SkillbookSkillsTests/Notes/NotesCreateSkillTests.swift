import SkillbookTesting
import Foundation
import SkillbookCore
import SkillbookSkills
import SkillbookSQLite
import Testing

@Suite struct NotesCreateSkillTests {
    @Test func createsANoteWithDefaults() async throws {
        try await withHarness(ids: .sequential()) { harness in
            let output = try await harness.run("notes.create", ["title": "Buy milk"])
            #expect(output == ["id": "00000000-0000-0000-0000-000000000001", "title": "Buy milk"])
            let note = try #require(try harness.environment.sqliteNotes().get(id: "00000000-0000-0000-0000-000000000001"))
            #expect(note.title == "Buy milk")
            #expect(note.body == "")
            #expect(note.tags == [])
        }
    }

    @Test func storesBodyAndTags() async throws {
        try await withHarness { harness in
            let output = try await harness.run(
                "notes.create", ["title": "Meeting", "body": "moved to Friday", "tags": ["work", "calendar"]])
            let id = try #require(output["id"]?.stringValue)
            let note = try #require(try harness.environment.sqliteNotes().get(id: id))
            #expect(note.body == "moved to Friday")
            #expect(note.tags == ["work", "calendar"])
        }
    }

    @Test func titleIsBoundedByTheSchema() async throws {
        try await withHarness { harness in
            let schema = try harness.skill("notes.create").descriptor.parameters
            #expect(!SchemaValidator.validate(["title": ""], against: schema).isEmpty)
            #expect(!SchemaValidator.validate(["title": .string(String(repeating: "x", count: 201))], against: schema).isEmpty)
            #expect(!SchemaValidator.validate(["title": "t", "colour": "red"], against: schema).isEmpty)
            #expect(SchemaValidator.validate(["title": .string(String(repeating: "x", count: 200))], against: schema).isEmpty)
        }
    }

    @Test func compensationDeletesTheNoteAndIsSafeToRetry() async throws {
        try await withHarness { harness in
            let skill = try harness.skill("notes.create")
            let keep = try await harness.run("notes.create", ["title": "keep"])
            let parameters: Value = ["title": "undo me"]
            let output = try await harness.run("notes.create", parameters)
            let call = CompletedCall(parameters: params(parameters), output: output)
            let store = try harness.environment.sqliteNotes()

            try await skill.compensate(call, context: harness.context)
            #expect(try store.get(id: output["id"]!.stringValue!) == nil)
            try await skill.compensate(call, context: harness.context)  // already gone: not an error
            #expect(try store.list().map(\.id) == [keep["id"]!.stringValue!])
        }
    }

    @Test func compensationWithoutAnIdFails() async throws {
        try await withHarness { harness in
            let skill = try harness.skill("notes.create")
            await #expect(throws: SkillError("cannot undo notes.create: its output has no note id")) {
                try await skill.compensate(CompletedCall(parameters: ValueObject(), output: [:]), context: harness.context)
            }
        }
    }

    @Test func corruptStateFileFailsTheSkillWithTheStoreMessage() async throws {
        try await withHarness { harness in
            let file = harness.directory.appendingPathComponent("skillbook.sqlite")
            let garbage = Data(repeating: 0x5A, count: 1024)
            try garbage.write(to: file)
            let skill = try harness.skill("notes.create")
            await #expect(
                throws: SkillError(
                    "state database \(file.path) is not a valid SQLite database (file is not a database); "
                        + "move it aside or use another state directory")
            ) {
                try await skill.run(params(["title": "t"]), context: harness.context)
            }
            #expect(try Data(contentsOf: file) == garbage)

            // Once the file is moved aside, the next call opens a fresh store.
            try FileManager.default.moveItem(at: file, to: harness.directory.appendingPathComponent("old.sqlite"))
            _ = try await harness.run("notes.create", ["title": "t"])
        }
    }

    @Test func environmentOpensTheStoreOnceAndSharesIt() async throws {
        try await withHarness { harness in
            let copy = harness.environment
            let stores = try await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in
                for _ in 0..<10 {
                    group.addTask { ObjectIdentifier(try copy.sqliteNotes()) }
                }
                return try await group.reduce(into: Set<ObjectIdentifier>()) { $0.insert($1) }
            }
            #expect(stores == [ObjectIdentifier(try harness.environment.sqliteNotes())])
        }
    }

    @Test func concurrentCreatesAllLand() async throws {
        try await withHarness { harness in
            let skill = try harness.skill("notes.create")
            let context = harness.context
            let ids = try await withThrowingTaskGroup(of: String.self) { group in
                for n in 0..<20 {
                    group.addTask {
                        try await skill.run(params(["title": .string("note \(n)")]), context: context)["id"]!.stringValue!
                    }
                }
                return try await group.reduce(into: Set<String>()) { $0.insert($1) }
            }
            #expect(ids.count == 20)
            #expect(Set(try harness.environment.sqliteNotes().list().map(\.id)) == ids)
        }
    }
}
