import SkillbookTesting
import Foundation
import SkillbookCore
import SkillbookSkills
import SkillbookSQLite
import Testing

@Suite struct RemindersCompleteSkillTests {
    static let start = Date(timeIntervalSince1970: 1_796_033_700)  // 2026-11-30T10:15:00Z

    @Test func descriptorIsAnUndoableIdempotentAction() async throws {
        try await withHarness { (harness) async throws in
            let descriptor = try harness.skill("reminders.complete").descriptor
            #expect(descriptor.kind == .action && descriptor.reversible && descriptor.idempotent && !descriptor.confirm)
            #expect(descriptor.resources == ["reminders"])
            #expect(descriptor.parameters.required == ["id"])
        }
    }

    @Test func marksTheReminderDone() async throws {
        try await withHarness(clock: SteppingClock(from: Self.start, by: 60)) { (harness) async throws in
            let id = try #require(try await harness.run("reminders.create", ["title": "Call Anna"])["id"]?.stringValue)
            let output = try await harness.run("reminders.complete", ["id": .string(id)])
            #expect(
                output
                    == [
                        "id": .string(id), "title": "Call Anna", "done": true, "completed_at": "2026-11-30T10:16:00Z",
                        "was_done": false,
                    ])
            let stored = try #require(try harness.environment.sqliteReminders().get(id: id))
            #expect(stored.done && stored.completedAt == Self.start.addingTimeInterval(60))
        }
    }

    @Test func completingTwiceChangesNothingTheSecondTime() async throws {
        try await withHarness(clock: SteppingClock(from: Self.start, by: 60)) { (harness) async throws in
            let id = try #require(try await harness.run("reminders.create", ["title": "t"])["id"]?.stringValue)
            let first = try await harness.run("reminders.complete", ["id": .string(id)])
            let second = try await harness.run("reminders.complete", ["id": .string(id)])
            #expect(second["was_done"] == true)
            #expect(second["completed_at"] == first["completed_at"])
        }
    }

    @Test func anUnknownIdIsAClearError() async throws {
        try await withHarness { (harness) async throws in
            _ = await #expect(
                throws: SkillError("there is no reminder with id 'nope'; reminders.list shows the reminders and their ids")
            ) {
                _ = try await harness.run("reminders.complete", ["id": "nope"])
            }
        }
    }

    @Test func compensationReopensTheReminderExactlyAsItWas() async throws {
        try await withHarness(clock: SteppingClock(from: Self.start, by: 60)) { (harness) async throws in
            let store = try harness.environment.sqliteReminders()
            let id = try #require(
                try await harness.run("reminders.create", ["title": "t", "due": "2026-12-01T09:00:00Z", "notes": "n"])["id"]?.stringValue)
            let before = try #require(try store.get(id: id))
            let skill = try harness.skill("reminders.complete")
            let parameters: Value = ["id": .string(id)]
            let output = try await harness.run("reminders.complete", parameters)
            let call = CompletedCall(parameters: params(parameters), output: output)
            try await skill.compensate(call, context: harness.context)
            #expect(try store.get(id: before.id) == before)
            try await skill.compensate(call, context: harness.context)  // safe to retry
            #expect(try store.get(id: before.id) == before)
        }
    }

    @Test func compensationOfACallThatFoundItDoneLeavesItDone() async throws {
        try await withHarness(clock: SteppingClock(from: Self.start, by: 60)) { (harness) async throws in
            let store = try harness.environment.sqliteReminders()
            let id = try #require(try await harness.run("reminders.create", ["title": "t"])["id"]?.stringValue)
            _ = try await harness.run("reminders.complete", ["id": .string(id)])
            let done = try #require(try store.get(id: id))
            let parameters: Value = ["id": .string(id)]
            let again = try await harness.run("reminders.complete", parameters)
            try await harness.skill("reminders.complete").compensate(
                CompletedCall(parameters: params(parameters), output: again), context: harness.context)
            #expect(try store.get(id: done.id) == done)
        }
    }

    @Test func compensationLeavesALaterCompletionAlone() async throws {
        try await withHarness(clock: SteppingClock(from: Self.start, by: 60)) { (harness) async throws in
            let store = try harness.environment.sqliteReminders()
            let id = try #require(try await harness.run("reminders.create", ["title": "t"])["id"]?.stringValue)
            let parameters: Value = ["id": .string(id)]
            let output = try await harness.run("reminders.complete", parameters)
            // Reopened and completed again by someone else since.
            _ = try store.reopen(id: id, completedAt: Self.start.addingTimeInterval(60))
            let later = try #require(try store.complete(id: id)).reminder
            try await harness.skill("reminders.complete").compensate(
                CompletedCall(parameters: params(parameters), output: output), context: harness.context)
            #expect(try store.get(id: later.id) == later)
        }
    }

    @Test func compensationWithAnIncompleteOutputFails() async throws {
        try await withHarness { (harness) async throws in
            _ = await #expect(throws: SkillError("cannot undo reminders.complete: its output needs id, was_done and completed_at")) {
                try await harness.skill("reminders.complete").compensate(
                    CompletedCall(parameters: ValueObject(), output: ["id": "x"]), context: harness.context)
            }
        }
    }
}
