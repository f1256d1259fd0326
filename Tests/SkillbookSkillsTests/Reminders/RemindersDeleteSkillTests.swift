import SkillbookTesting
import Foundation
import SkillbookCore
import SkillbookSkills
import SkillbookSQLite
import Testing

@Suite struct RemindersDeleteSkillTests {
    static let start = Date(timeIntervalSince1970: 1_796_033_700)  // 2026-11-30T10:15:00Z

    /// Eight reminders created in one second, some sharing a due time, one done, two without a time.
    func seed(_ harness: Harness) async throws -> [Reminder] {
        for n in 1...8 {
            var parameters: ValueObject = ["title": .string("r\(n)"), "notes": .string("line 1\nline 2 \(n)")]
            if n <= 6 { parameters["due"] = .string(n <= 3 ? "2026-12-01T09:00:00Z" : "2026-12-0\(n - 2)T18:30:00Z") }
            _ = try await harness.run("reminders.create", .object(parameters))
        }
        let store = try harness.environment.sqliteReminders()
        let all = try store.list(includeDone: true)
        _ = try store.complete(id: all[1].id)
        let reminders = try store.list(includeDone: true)
        #expect(reminders.count == 8)
        return reminders
    }

    @Test func descriptorAsksFirstAndLimitsABatchToAHundredIds() async throws {
        try await withHarness { (harness) async throws in
            let descriptor = try harness.skill("reminders.delete").descriptor
            #expect(descriptor.confirm && descriptor.kind == .action && descriptor.reversible)
            #expect(descriptor.resources == ["reminders"])
            let ids = try #require(descriptor.parameters.property("ids"))
            #expect(ids.maxItems == 100 && ids.minItems == 1 && ids.items?.type == .string)
            let schema = descriptor.parameters
            #expect(SchemaValidator.validate(["ids": .array((1...100).map { .string("id-\($0)") })], against: schema).isEmpty)
            #expect(!SchemaValidator.validate(["ids": .array((1...101).map { .string("id-\($0)") })], against: schema).isEmpty)
            #expect(!SchemaValidator.validate(["ids": []], against: schema).isEmpty)
        }
    }

    @Test func deletesTheRemindersAndReportsThemAsTheyWere() async throws {
        try await withHarness(clock: FixedClock(Self.start)) { (harness) async throws in
            let reminders = try await seed(harness)
            let output = try await harness.run(
                "reminders.delete", ["ids": [.string(reminders[6].id), .string(reminders[1].id), "no-such-reminder"]])
            #expect(output["deleted"] == 2)
            let reported = try #require(output["reminders"]?.arrayValue)
            #expect(reported.map { $0["id"] } == [.string(reminders[1].id), .string(reminders[6].id)])  // list order
            let done = reported[0]
            #expect(done["done"] == true && done["completed_at"] == "2026-11-30T10:15:00Z")
            #expect(done["due"] == "2026-12-01T09:00:00Z" && done["created"] == "2026-11-30T10:15:00Z")
            #expect(done["notes"] == .string(reminders[1].notes))
            #expect(reported[1]["due"] == nil && reported[1]["completed_at"] == nil)
            #expect(reported.allSatisfy { $0["position"]?.intValue != nil })
            #expect(try harness.environment.sqliteReminders().list(includeDone: true).count == 6)
        }
    }

    @Test func compensationRestoresTheRemindersExactlyInTheirPlaceAndIsSafeToRetry() async throws {
        try await withHarness(clock: FixedClock(Self.start)) { (harness) async throws in
            let original = try await seed(harness)
            let store = try harness.environment.sqliteReminders()
            let skill = try harness.skill("reminders.delete")
            let doomed = [0, 1, 2, 5, 7].map { original[$0].id }
            let parameters: Value = ["ids": .array(doomed.map(Value.string))]
            let output = try await harness.run("reminders.delete", parameters)
            #expect(output["deleted"] == 5)
            // Something else is created meanwhile, with the same due time as the deleted ones.
            let newcomer = try store.create(title: "new", due: original[0].due)

            let call = CompletedCall(parameters: params(parameters), output: output)
            try await skill.compensate(call, context: harness.context)
            let expected = original.filter { $0.due == original[0].due } + [newcomer] + original.filter { $0.due != original[0].due }
            #expect(try store.list(includeDone: true) == expected)
            for reminder in original { #expect(try store.get(id: reminder.id) == reminder) }
            try await skill.compensate(call, context: harness.context)
            #expect(try store.list(includeDone: true) == expected)
        }
    }

    @Test func compensationRefusesToOverwriteADifferentReminder() async throws {
        try await withHarness { (harness) async throws in
            let reminders = try await seed(harness)
            let store = try harness.environment.sqliteReminders()
            let parameters: Value = ["ids": [.string(reminders[3].id), .string(reminders[4].id)]]
            let output = try await harness.run("reminders.delete", parameters)
            var impostor = DeletedReminder(reminder: reminders[4], position: 999)
            impostor.reminder.title = "someone else"
            try store.restore([impostor])

            let error = await #expect(throws: SkillError.self) {
                try await harness.skill("reminders.delete").compensate(
                    CompletedCall(parameters: params(parameters), output: output), context: harness.context)
            }
            #expect(error?.message.contains("a different reminder with that id exists") == true)
            #expect(try store.get(id: reminders[3].id) == nil)  // all or nothing
        }
    }

    @Test func compensationWithAnIncompleteOutputFails() async throws {
        try await withHarness { (harness) async throws in
            let skill = try harness.skill("reminders.delete")
            await #expect(throws: SkillError("cannot undo reminders.delete: its output has no list of deleted reminders")) {
                try await skill.compensate(CompletedCall(parameters: ValueObject(), output: [:]), context: harness.context)
            }
            // done without a completion time cannot be put back as it was
            let output: Value = [
                "deleted": 1,
                "reminders": [
                    ["id": "x", "title": "t", "notes": "", "done": true, "created": "2026-11-30T10:15:00Z", "position": 1]
                ],
            ]
            await #expect(
                throws: SkillError(
                    "cannot undo reminders.delete: deleted reminder 0 in its output is incomplete "
                        + "(it needs id, title, notes, done, created and position, and completed_at when done)")
            ) {
                try await skill.compensate(CompletedCall(parameters: ValueObject(), output: output), context: harness.context)
            }
        }
    }
}
