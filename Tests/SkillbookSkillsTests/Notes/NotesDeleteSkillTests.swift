import SkillbookTesting
import Foundation
import SkillbookCore
import SkillbookSkills
import SkillbookSQLite
import Testing

@Suite struct NotesDeleteSkillTests {
    static let start = Date(timeIntervalSince1970: 1_780_000_000)

    /// A note, then ten notes created in one second, then another note.
    func seed(_ harness: Harness) async throws -> [Note] {
        _ = try await harness.run("notes.create", ["title": "first", "body": "one", "tags": ["a"]])
        let batch: Value = .array(
            (1...10).map { n in
                ["title": .string("batch \(n)"), "body": .string("line 1\nline 2 \(n)"), "tags": ["b", .string("n\(n)")]]
            })
        _ = try await harness.run("notes.create_many", ["notes": batch])
        _ = try await harness.run("notes.create", ["title": "last"])
        let notes = try harness.environment.sqliteNotes().list()
        #expect(notes.count == 12)
        return notes
    }

    @Test func descriptorAsksFirstAndLimitsABatchToAHundredIds() async throws {
        try await withHarness { harness in
            let descriptor = try harness.skill("notes.delete").descriptor
            #expect(descriptor.confirm)
            #expect(descriptor.kind == .action && descriptor.reversible)
            #expect(descriptor.resources == ["notes"])
            let ids = try #require(descriptor.parameters.property("ids"))
            #expect(ids.maxItems == 100)
            #expect(ids.minItems == 1)
            #expect(ids.items?.type == .string)
            #expect(descriptor.parameters.required == ["ids"])

            let schema = descriptor.parameters
            let hundred: Value = .array((1...100).map { .string("id-\($0)") })
            let tooMany: Value = .array((1...101).map { .string("id-\($0)") })
            #expect(SchemaValidator.validate(["ids": hundred], against: schema).isEmpty)
            #expect(!SchemaValidator.validate(["ids": tooMany], against: schema).isEmpty)
            #expect(!SchemaValidator.validate(["ids": []], against: schema).isEmpty)
            #expect(!SchemaValidator.validate([:], against: schema).isEmpty)
            #expect(!SchemaValidator.validate(["ids": [1]], against: schema).isEmpty)
        }
    }

    @Test func deletesTheNotesAndReportsThemAsTheyWere() async throws {
        try await withHarness(clock: SteppingClock(from: Self.start, by: 60)) { harness in
            let notes = try await seed(harness)
            let output = try await harness.run("notes.delete", ["ids": [.string(notes[5].id), .string(notes[0].id)]])
            #expect(output["deleted"] == 2)
            let reported = try #require(output["notes"]?.arrayValue)
            #expect(reported.count == 2)
            for (value, note) in zip(reported, [notes[0], notes[5]]) {  // oldest first
                #expect(value["id"] == .string(note.id))
                #expect(value["title"] == .string(note.title))
                #expect(value["body"] == .string(note.body))
                #expect(value["tags"] == .array(note.tags.map(Value.string)))
                #expect(value["created"] == .string(note.createdText))
                #expect(value["position"]?.intValue != nil)
            }
            let store = try harness.environment.sqliteNotes()
            #expect(try store.list() == notes.enumerated().filter { ![0, 5].contains($0.offset) }.map(\.element))
        }
    }

    @Test func unknownIdsAreSkippedNotErrors() async throws {
        try await withHarness { harness in
            let notes = try await seed(harness)
            let output = try await harness.run(
                "notes.delete", ["ids": ["no-such-note", .string(notes[2].id), .string(notes[2].id), "another"]])
            #expect(output["deleted"] == 1)
            #expect(output["notes"]?.arrayValue?.count == 1)

            let none = try await harness.run("notes.delete", ["ids": ["no-such-note"]])
            #expect(none == ["deleted": 0, "notes": []])
            #expect(try harness.environment.sqliteNotes().list().count == 11)
        }
    }

    @Test func compensationRestoresTheNotesExactlyInTheirPlaceAndIsSafeToRetry() async throws {
        try await withHarness(clock: SteppingClock(from: Self.start, by: 60)) { harness in
            let original = try await seed(harness)
            let skill = try harness.skill("notes.delete")
            let store = try harness.environment.sqliteNotes()
            // The first note, four from the middle of the same-second batch, and the last note.
            let doomed = [0, 2, 3, 7, 10, 11].map { original[$0].id }
            let parameters: Value = ["ids": .array(doomed.map(Value.string) + ["no-such-note"])]
            let output = try await harness.run("notes.delete", parameters)
            #expect(output["deleted"] == 6)
            #expect(try store.list().map(\.id) == original.map(\.id).filter { !doomed.contains($0) })

            let call = CompletedCall(parameters: params(parameters), output: output)
            try await skill.compensate(call, context: harness.context)
            #expect(try store.list() == original)
            for note in original { #expect(try store.get(id: note.id) == note) }
            try await skill.compensate(call, context: harness.context)  // already back: not an error
            #expect(try store.list() == original)
        }
    }

    @Test func compensationOfABatchedDeleteRestoresEveryBatch() async throws {
        try await withHarness(clock: FixedClock(Self.start)) { harness in
            let original = try await seed(harness)
            let skill = try harness.skill("notes.delete")
            let store = try harness.environment.sqliteNotes()
            // Two batches, as the engine would run them, compensated in reverse order.
            let first: Value = ["ids": [.string(original[1].id), .string(original[4].id)]]
            let second: Value = ["ids": [.string(original[5].id), .string(original[6].id)]]
            let out1 = try await harness.run("notes.delete", first)
            let out2 = try await harness.run("notes.delete", second)
            try await skill.compensate(CompletedCall(parameters: params(second), output: out2), context: harness.context)
            try await skill.compensate(CompletedCall(parameters: params(first), output: out1), context: harness.context)
            #expect(try store.list() == original)
        }
    }

    @Test func compensationRefusesToOverwriteADifferentNote() async throws {
        try await withHarness { harness in
            let notes = try await seed(harness)
            let skill = try harness.skill("notes.delete")
            let parameters: Value = ["ids": [.string(notes[1].id), .string(notes[2].id)]]
            let output = try await harness.run("notes.delete", parameters)
            let store = try harness.environment.sqliteNotes()
            var impostor = notes[2]
            impostor.title = "someone else"
            try store.restore(impostor)

            let error = await #expect(throws: SkillError.self) {
                try await skill.compensate(CompletedCall(parameters: params(parameters), output: output), context: harness.context)
            }
            #expect(error?.message.contains("a different note with that id exists") == true)
            #expect(try store.get(id: notes[1].id) == nil)  // all or nothing
            #expect(try store.get(id: notes[2].id) == impostor)
        }
    }

    @Test func compensationWithAnIncompleteOutputFails() async throws {
        try await withHarness { harness in
            let skill = try harness.skill("notes.delete")
            await #expect(throws: SkillError("cannot undo notes.delete: its output has no list of deleted notes")) {
                try await skill.compensate(CompletedCall(parameters: ValueObject(), output: [:]), context: harness.context)
            }
            let output: Value = ["deleted": 1, "notes": [["id": "x", "title": "t"]]]
            await #expect(
                throws: SkillError(
                    "cannot undo notes.delete: deleted note 0 in its output is incomplete "
                        + "(it needs id, title, body, tags, created and position)")
            ) {
                try await skill.compensate(CompletedCall(parameters: ValueObject(), output: output), context: harness.context)
            }
        }
    }
}
