import SkillbookTesting
import Foundation
import SkillbookCore
import SkillbookSkills
import SkillbookSQLite
import Testing

@Suite struct RemindersCreateSkillTests {
    /// Monday 2026-11-30 10:15 UTC.
    static let now = Date(timeIntervalSince1970: 1_796_033_700)

    @Test func descriptorIsAnUndoableActionOnReminders() async throws {
        try await withHarness { (harness) async throws in
            let descriptor = try harness.skill("reminders.create").descriptor
            #expect(descriptor.kind == .action && descriptor.reversible && !descriptor.confirm)
            #expect(descriptor.resources == ["reminders"])
            #expect(descriptor.parameters.required == ["title"])
            #expect(descriptor.parameters.property("due")?.format == "date-time")
            let schema = descriptor.parameters
            #expect(!SchemaValidator.validate(["title": ""], against: schema).isEmpty)
            #expect(!SchemaValidator.validate(["title": .string(String(repeating: "x", count: 201))], against: schema).isEmpty)
            #expect(!SchemaValidator.validate(["title": "t", "due": "soonish"], against: schema).isEmpty)
            #expect(SchemaValidator.validate(["title": "t", "due": "2026-12-01T09:00:00+01:00"], against: schema).isEmpty)
        }
    }

    @Test func createsAReminderWithItsDueTimeInUTC() async throws {
        try await withHarness(clock: FixedClock(Self.now), ids: .sequential()) { (harness) async throws in
            let output = try await harness.run(
                "reminders.create", ["title": "Call Anna", "due": "2026-12-01T09:00:00+01:00", "notes": "about Friday"])
            #expect(
                output == ["id": "00000000-0000-0000-0000-000000000001", "title": "Call Anna", "due": "2026-12-01T08:00:00Z"])
            let stored = try #require(try harness.environment.sqliteReminders().get(id: "00000000-0000-0000-0000-000000000001"))
            #expect(stored.due == (try instant("2026-12-01T08:00:00Z")))
            #expect(stored.notes == "about Friday")
            #expect(!stored.done)
            #expect(stored.created == Self.now)
        }
    }

    @Test func withoutADueTimeTheOutputHasNone() async throws {
        try await withHarness(ids: .sequential()) { (harness) async throws in
            let output = try await harness.run("reminders.create", ["title": "Buy milk"])
            #expect(output == ["id": "00000000-0000-0000-0000-000000000001", "title": "Buy milk"])
            #expect(try harness.environment.sqliteReminders().list().first?.due == nil)
        }
    }

    @Test func aDueTimeWithoutAnOffsetIsLocalTimeOfTheRun() async throws {
        try await withHarness(clock: FixedClock(Self.now)) { (harness) async throws in
            // RFC 3339 needs the offset: a value without one is refused as written, and a value from
            // the command line or a model gets the run's local offset from the shared coercion.
            let due = try #require(try harness.skill("reminders.create").descriptor.parameters.property("due"))
            #expect(SchemaValidator.validate("2026-12-01T09:00:00", against: due).map(\.description) == [
                "value must be a date-time like 2026-11-30T09:00:00Z, got '2026-12-01T09:00:00'"
            ])
            let output = try await harness.runCoerced(
                "reminders.create", ["title": "t", "due": "2026-12-01T09:00:00"], now: Self.now, timeZone: try zone("Europe/Berlin"))
            #expect(output["due"] == "2026-12-01T08:00:00Z")
            let other = try await harness.runCoerced(
                "reminders.create", ["title": "t", "due": "2026-12-01 09:00"], now: Self.now, timeZone: try zone("Asia/Tokyo"))
            #expect(other["due"] == "2026-12-01T00:00:00Z")
        }
    }

    @Test func relativeWordsAreCoercedByTheSharedCoercionBeforeTheSkillRuns() async throws {
        try await withHarness(clock: FixedClock(Self.now)) { (harness) async throws in
            let berlin = try zone("Europe/Berlin")
            let skill = try harness.skill("reminders.create")
            let coercion = Coercion(dates: DateParser(now: Self.now, timeZone: berlin))
            let due = coercion.coerce("tomorrow 9am", to: try #require(skill.descriptor.parameters.property("due")))
            #expect(due == "2026-12-01T09:00:00+01:00")

            let output = try await harness.runCoerced(
                "reminders.create", ["title": "Call Anna", "due": "tomorrow 9am"], now: Self.now, timeZone: berlin)
            #expect(output["due"] == "2026-12-01T08:00:00Z")
            let chinese = try await harness.runCoerced(
                "reminders.create", ["title": "开会", "due": "明天早上9点"], now: Self.now, timeZone: try zone("Asia/Shanghai"))
            #expect(chinese["due"] == "2026-12-01T01:00:00Z")
            let inTwoHours = try await harness.runCoerced(
                "reminders.create", ["title": "oven", "due": "in 2 hours"], now: Self.now, timeZone: berlin)
            #expect(inTwoHours["due"] == "2026-11-30T12:15:00Z")
        }
    }

    @Test func aDueTimeItCannotReadIsAClearError() async throws {
        try await withHarness { (harness) async throws in
            let skill = try harness.skill("reminders.create")
            // The engine's validation stops this first; a direct caller gets the skill's own message.
            await #expect(
                throws: SkillError(
                    "due 'whenever' is not a date and time; write it like 2026-11-30T09:00:00Z, 2026-11-30 09:00 or tomorrow 9am")
            ) {
                _ = try await skill.run(["title": "t", "due": "whenever"], context: harness.context)
            }
            #expect(try harness.environment.sqliteReminders().list().isEmpty)
        }
    }

    @Test func compensationDeletesTheReminderAndIsSafeToRetry() async throws {
        try await withHarness { (harness) async throws in
            let skill = try harness.skill("reminders.create")
            let keep = try await harness.run("reminders.create", ["title": "keep"])
            let parameters: Value = ["title": "undo me", "due": "2026-12-01T09:00:00Z"]
            let output = try await harness.run("reminders.create", parameters)
            let call = CompletedCall(parameters: params(parameters), output: output)
            let store = try harness.environment.sqliteReminders()

            try await skill.compensate(call, context: harness.context)
            #expect(try store.get(id: try #require(output["id"]?.stringValue)) == nil)
            try await skill.compensate(call, context: harness.context)  // already gone: not an error
            #expect(try store.list().map { Value.string($0.id) } == [keep["id"]])

            await #expect(throws: SkillError("cannot undo reminders.create: its output has no reminder id")) {
                try await skill.compensate(CompletedCall(parameters: ValueObject(), output: [:]), context: harness.context)
            }
        }
    }
}
