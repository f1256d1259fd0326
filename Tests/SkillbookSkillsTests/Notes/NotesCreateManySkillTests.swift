import SkillbookTesting
import Foundation
import SkillbookCore
import SkillbookSkills
import SkillbookSQLite
import Testing

@Suite struct NotesCreateManySkillTests {
    static func notes(_ count: Int, prefix: String = "note") -> Value {
        .array(
            (1...count).map { n in
                ["title": .string("\(prefix) \(n)"), "body": .string("body \(n)"), "tags": ["batch", .string("n\(n)")]]
            })
    }

    @Test func descriptorLimitsABatchToFiftyNotes() async throws {
        try await withHarness { harness in
            let descriptor = try harness.skill("notes.create_many").descriptor
            let notes = try #require(descriptor.parameters.property("notes"))
            #expect(notes.maxItems == 50)
            #expect(notes.minItems == 1)
            #expect(descriptor.parameters.required == ["notes"])
            let item = try #require(notes.items)
            #expect(item.required == ["title"])
            #expect(item.additionalProperties == false)
            #expect(item.property("title")?.minLength == 1 && item.property("title")?.maxLength == 200)
            #expect(descriptor.kind == .action && descriptor.reversible && !descriptor.confirm)
            #expect(descriptor.resources == ["notes"])

            let schema = descriptor.parameters
            #expect(SchemaValidator.validate(["notes": Self.notes(50)], against: schema).isEmpty)
            #expect(!SchemaValidator.validate(["notes": Self.notes(51)], against: schema).isEmpty)
            #expect(!SchemaValidator.validate(["notes": []], against: schema).isEmpty)
            #expect(!SchemaValidator.validate([:], against: schema).isEmpty)
            #expect(!SchemaValidator.validate(["notes": [["title": ""]]], against: schema).isEmpty)
            #expect(!SchemaValidator.validate(["notes": [["body": "no title"]]], against: schema).isEmpty)
            #expect(!SchemaValidator.validate(["notes": [["title": "t", "colour": "red"]]], against: schema).isEmpty)
            #expect(!SchemaValidator.validate(["notes": [["title": "t", "tags": [1]]]], against: schema).isEmpty)
        }
    }

    @Test func fiftyNotesLandTogether() async throws {
        try await withHarness(clock: FixedClock(Date(timeIntervalSince1970: 1_780_000_000))) { harness in
            let output = try await harness.run("notes.create_many", ["notes": Self.notes(50)])
            let ids = try #require(output["ids"]?.arrayValue).compactMap(\.stringValue)
            #expect(output["count"] == 50)
            #expect(ids.count == 50 && Set(ids).count == 50)

            let listed = try harness.environment.sqliteNotes().list()
            #expect(listed.map(\.id) == ids)
            #expect(listed.map(\.title) == (1...50).map { "note \($0)" })
            #expect(listed[6].body == "body 7" && listed[6].tags == ["batch", "n7"])
        }
    }

    @Test func bodyAndTagsDefaultToEmpty() async throws {
        try await withHarness { harness in
            let output = try await harness.run("notes.create_many", ["notes": [["title": "bare"]]])
            let id = try #require(output["ids"]?.arrayValue?.first?.stringValue)
            let note = try #require(try harness.environment.sqliteNotes().get(id: id))
            #expect(note.title == "bare" && note.body == "" && note.tags == [])
        }
    }

    @Test func aFailureMidTransactionLeavesNothing() async throws {
        // The 31st id handed out repeats the first: note 30 of the batch hits the primary key.
        let calls = Shared(0)
        let ids = IDGenerator {
            let n = calls.withLock { count in
                count += 1
                return count
            }
            return n == 31 ? "id-1" : "id-\(n)"
        }
        try await withHarness(ids: ids) { harness in
            let existing = try await harness.run("notes.create", ["title": "existing"])
            #expect(existing["id"] == "id-1")
            let skill = try harness.skill("notes.create_many")
            let error = await #expect(throws: SkillError.self) {
                try await skill.run(params(["notes": Self.notes(50)]), context: harness.context)
            }
            #expect(error?.message.contains("conflicts with existing data") == true)
            let store = try harness.environment.sqliteNotes()
            #expect(try store.list().map(\.id) == ["id-1"])

            // The store is usable afterwards, and a retry succeeds with fresh ids.
            let retry = try await harness.run("notes.create_many", ["notes": Self.notes(50)])
            #expect(retry["count"] == 50)
            #expect(try store.list().count == 51)
        }
    }

    @Test func moreThanFiftyNotesAreRefusedEvenWithoutTheEngine() async throws {
        try await withHarness { harness in
            let skill = try harness.skill("notes.create_many")
            await #expect(throws: SkillError("notes.create_many takes 1 to 50 notes per call, got 51")) {
                try await skill.run(params(["notes": Self.notes(51)]), context: harness.context)
            }
            #expect(try harness.environment.sqliteNotes().list().isEmpty)
        }
    }

    @Test func compensationDeletesExactlyThoseNotesAndIsSafeToRetry() async throws {
        try await withHarness { harness in
            let skill = try harness.skill("notes.create_many")
            let store = try harness.environment.sqliteNotes()
            let before = try await harness.run("notes.create_many", ["notes": Self.notes(3, prefix: "before")])
            let parameters: Value = ["notes": Self.notes(50)]
            let output = try await harness.run("notes.create_many", parameters)
            let after = try await harness.run("notes.create", ["title": "after"])
            let kept = try store.list()
                .filter { !(output["ids"]?.arrayValue ?? []).contains(.string($0.id)) }
            #expect(kept.map(\.id) == (before["ids"]!.arrayValue! + [after["id"]!]).compactMap(\.stringValue))

            let call = CompletedCall(parameters: params(parameters), output: output)
            try await skill.compensate(call, context: harness.context)
            #expect(try store.list() == kept)
            try await skill.compensate(call, context: harness.context)  // already gone: not an error
            #expect(try store.list() == kept)
        }
    }

    @Test func compensationWithoutIdsFails() async throws {
        try await withHarness { harness in
            let skill = try harness.skill("notes.create_many")
            await #expect(throws: SkillError("cannot undo notes.create_many: its output has no list of note ids")) {
                try await skill.compensate(CompletedCall(parameters: ValueObject(), output: [:]), context: harness.context)
            }
        }
    }
}
