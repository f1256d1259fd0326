import Foundation
import SkillbookCore
import SkillbookRuntime
import SkillbookSkills
import SkillbookSQLite
import SkillbookTesting
import Testing

/// Reminders through the engine: relative times coerced in the run's time zone, which the skills
/// also see, and rollback undoing every reminder step.
@Suite struct RemindersPlaybookTests {
    static let playbook = """
        name: remind
        inputs:
          call: { type: string, format: date-time }
          rent: { type: string, format: date-time }
          day: { type: string, format: date }
          fail: { type: boolean, default: false }
        steps:
          - id: call
            skill: reminders.create
            with: { title: Call Anna, due: "${{ inputs.call }}" }
          - id: rent
            skill: reminders.create
            with: { title: Pay rent, due: "${{ inputs.rent }}" }
          - id: paid
            skill: reminders.complete
            with: { id: "${{ steps.rent.output.id }}" }
          - id: due
            skill: reminders.list
            with: { due_on: "${{ inputs.day }}", include_done: true, order: oldest }
          - id: note
            skill: notes.create
            with: { title: Tomorrow, body: "${{ steps.due.output.text }}" }
          - id: boom
            skill: debug.fail
            when: "${{ inputs.fail }}"
            with: { message: injected }
        outputs:
          due: "${{ steps.call.output.due }}"
          count: "${{ steps.due.output.count }}"
        """

    func run(_ fixture: EngineFixture, fail: Bool) async throws -> RunResult {
        let berlin = try #require(TimeZone(identifier: "Europe/Berlin"))
        let playbook = try fixture.load(Self.playbook)
        let now = Date(timeIntervalSince1970: 1_796_033_700)  // 2026-11-30 10:15 UTC, 11:15 in Berlin
        var environment = EngineEnvironment.test(sleeps: fixture.sleeps)
        environment.timeZone = berlin
        // As typed after -i on the command line: coerced by the shared Coercion in the run's time zone.
        let values: ValueObject = [
            "call": "tomorrow 9am", "rent": "tomorrow 18:30", "day": "tomorrow", "fail": .bool(fail),
        ]
        let inputs = try InputResolver(now: now, timeZone: berlin).resolve(playbook, values: values)
        let engine = Engine(
            registry: fixture.registry, environment: environment, confirmer: fixture.confirmer,
            resources: fixture.resources, recorder: fixture.recorder)
        return await engine.run(playbook, inputs: inputs, dryRun: false, onEvent: fixture.events.handler)
    }

    @Test func relativeTimesAndLocalDaysFollowTheRunsTimeZone() async throws {
        let fixture = try EngineFixture()
        let result = try await run(fixture, fail: false)
        #expect(result.status == .succeeded)
        #expect(result.outputs["due"] == "2026-12-01T08:00:00Z")
        #expect(result.outputs["count"] == 2)
        let note = try #require(try fixture.notes.list(tag: nil, limit: 10).first)
        #expect(note.body == "2 reminders due:\n- 09:00 Call Anna\n- 18:30 Pay rent (done)")
    }

    @Test func rollbackUndoesEveryReminderStep() async throws {
        let fixture = try EngineFixture()
        let result = try await run(fixture, fail: true)
        #expect(result.status == .rolledBack)
        #expect(try fixture.environment.sqliteReminders().list(includeDone: true).isEmpty)
        #expect(try fixture.snapshot().isEmpty)
    }
}
