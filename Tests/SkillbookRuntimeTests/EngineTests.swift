import Foundation
import SkillbookCore
import SkillbookRuntime
import SkillbookSQLite
import SkillbookTesting
import Testing

@Suite struct EngineTests {
    @Test func outputsFlowThroughMappingsIntoANoteThatNotesListShows() async throws {
        let fixture = try EngineFixture()
        let result = try await fixture.run(
            """
            name: flow
            inputs:
              who: { type: string }
            steps:
              - id: a
                skill: debug.echo
                with: { value: "${{ inputs.who }}" }
              - id: greet
                skill: text.template
                with:
                  template: "Hello, {{name}}"
                  values: { name: "${{ steps.a.output.value }}" }
              - id: save
                skill: notes.create
                with:
                  title: "${{ steps.a.output.value }}"
                  body: "${{ steps.greet.output.text }}"
                  tags: [flow, "${{ inputs.who }}"]
              - id: shown
                skill: notes.list
                with: { tag: flow }
            outputs:
              id: "${{ steps.save.output.id }}"
              titles: "${{ steps.shown.output.items.*.title }}"
              count: "${{ steps.shown.output.count }}"
            """, inputs: ["who": "Ada"])
        #expect(result.status == .succeeded)
        #expect(result.exitCode == 0)
        #expect(result.outputs["titles"] == ["Ada"])
        #expect(result.outputs["count"] == 1)
        let notes = try fixture.notes.list(tag: "flow", limit: 10)
        #expect(notes.map(\.title) == ["Ada"])
        #expect(notes.first?.body == "Hello, Ada")
        #expect(notes.first?.tags == ["flow", "Ada"])
        #expect(result.outputs["id"] == .string(notes[0].id))
        #expect(result.steps.map(\.status) == [.succeeded, .succeeded, .succeeded, .succeeded])
        #expect(fixture.events.types.first == "run.started")
        #expect(fixture.events.types.last == "run.finished")
    }

    @Test func aFalseWhenSkipsTheStep() async throws {
        let fixture = try EngineFixture()
        let result = try await fixture.run(
            """
            name: skip
            inputs:
              save: { type: boolean, default: false }
            steps:
              - id: save
                skill: notes.create
                when: "${{ inputs.save }}"
                with: { title: never }
              - id: after
                skill: debug.echo
                with: { value: "${{ default(steps.save.output.id, 'none') }}" }
            outputs:
              after: "${{ steps.after.output.value }}"
            """)
        #expect(result.status == .succeeded)
        #expect(result.step("save")?.status == .skipped)
        #expect(result.outputs["after"] == "none")
        #expect(try fixture.notes.list(tag: nil, limit: 10).isEmpty)
    }

    @Test func retriesWithExponentialBackoffUntilTheSkillSucceeds() async throws {
        let calls = Recorder<Int>()
        let flaky = ClosureSkill.action("test.flaky") { _, context in
            calls.append(context.attempt)
            if context.attempt < 3 { throw SkillError("not yet (attempt \(context.attempt))") }
            return ["ok": true]
        }
        let fixture = try EngineFixture(extra: [flaky])
        let result = try await fixture.run(
            """
            name: retry
            steps:
              - id: flaky
                skill: test.flaky
                retry: { attempts: 4, backoff: exponential, delay: 2s }
            """)
        #expect(result.status == .succeeded)
        #expect(calls.values == [1, 2, 3])
        #expect(result.step("flaky")?.attempts == 3)
        #expect(fixture.sleeps.values == [2, 4])
        #expect(fixture.events.types.filter { $0 == "step.retrying" }.count == 2)
    }

    @Test func aStepThatOutlivesItsTimeoutFails() async throws {
        let fixture = try EngineFixture()
        let result = try await fixture.run(
            """
            name: slow
            on_failure: stop
            steps:
              - id: nap
                skill: debug.sleep
                timeout: 0.1
                with: { seconds: 30 }
            """)
        #expect(result.status == .failed)
        #expect(result.exitCode == 1)
        #expect(result.step("nap")?.error == "timed out after 0.1s")
        #expect(result.error == "step 'nap' failed: timed out after 0.1s")
    }

    @Test func continueRecordsTheFailureAndGoesOn() async throws {
        let fixture = try EngineFixture()
        let result = try await fixture.run(
            """
            name: goes-on
            steps:
              - id: boom
                skill: debug.fail
                on_failure: continue
                with: { message: "disk on fire" }
              - id: save
                skill: notes.create
                with: { title: still saved }
            """)
        #expect(result.status == .succeededWithErrors)
        #expect(result.exitCode == 0)
        #expect(result.step("boom")?.status == .failed)
        #expect(result.step("boom")?.error == "disk on fire")
        #expect(try fixture.notes.list(tag: nil, limit: 10).map(\.title) == ["still saved"])
    }

    @Test func stopKeepsWhatCompleted() async throws {
        let fixture = try EngineFixture()
        let result = try await fixture.run(
            """
            name: stops
            on_failure: stop
            steps:
              - { id: save, skill: notes.create, with: { title: kept } }
              - { id: boom, skill: debug.fail, with: { message: nope } }
              - { id: never, skill: notes.create, with: { title: never } }
            """)
        #expect(result.status == .failed)
        #expect(result.step("never")?.status == .notRun)
        #expect(try fixture.notes.list(tag: nil, limit: 10).map(\.title) == ["kept"])
    }

    @Test func aFailureRollsBackCompletedStepsInReverseOrder() async throws {
        let fixture = try EngineFixture()
        let result = try await fixture.run(
            """
            name: undoes
            steps:
              - { id: one, skill: notes.create, with: { title: one } }
              - { id: look, skill: notes.list }
              - { id: two, skill: notes.create, with: { title: two } }
              - { id: boom, skill: debug.fail, with: { message: "step three broke" } }
            """)
        #expect(result.status == .rolledBack)
        #expect(result.exitCode == 1)
        #expect(try fixture.notes.list(tag: nil, limit: 10).isEmpty)
        #expect(result.step("one")?.status == .compensated)
        #expect(result.step("two")?.status == .compensated)
        #expect(result.step("look")?.status == .succeeded, "queries have nothing to undo")
        let undone = fixture.events.events.compactMap { event -> StepPath? in
            if case .compensationSucceeded(let step) = event { return step }
            return nil
        }
        #expect(undone == ["two", "one"])
        #expect(result.error == "step 'boom' failed: step three broke")
    }

    @Test func aCompensationThatFailsLeavesTheRollbackIncompleteAndNamesIt() async throws {
        let stuck = ClosureSkill.action(
            "test.stuck", run: { _, _ in ["done": true] }, compensate: { _ in throw SkillError("the undo broke") })
        let oneWay = ClosureSkill.action("test.oneway") { _, _ in ["sent": true] }
        let fixture = try EngineFixture(extra: [stuck, oneWay])
        let result = try await fixture.run(
            """
            name: incomplete
            steps:
              - { id: mail, skill: test.oneway }
              - { id: stuck, skill: test.stuck }
              - { id: save, skill: notes.create, with: { title: undone } }
              - { id: boom, skill: debug.fail, with: { message: broke } }
            """)
        #expect(result.status == .rollbackIncomplete)
        #expect(result.exitCode == 3)
        #expect(result.step("save")?.status == .compensated)
        #expect(result.step("stuck")?.status == .notCompensated)
        #expect(result.step("stuck")?.compensationError == "the undo broke")
        #expect(result.step("mail")?.compensationError == "skill 'test.oneway' cannot be undone")
        #expect(try fixture.notes.list(tag: nil, limit: 10).isEmpty)
        #expect(fixture.sleeps.values == [0.2, 0.4], "each compensation is retried")
    }

    @Test func cancellingTheRunInterruptsTheStepAndRollsBack() async throws {
        let fixture = try EngineFixture()
        let playbook = try fixture.load(
            """
            name: interrupted
            steps:
              - { id: save, skill: notes.create, with: { title: undone on interrupt } }
              - { id: nap, skill: debug.sleep, with: { seconds: 600 } }
            """)
        let engine = fixture.engine
        let events = fixture.events
        let task = Task { await engine.run(playbook, inputs: ValueObject(), onEvent: events.handler) }
        while !events.types.contains("step.started") || events.types.filter({ $0 == "step.started" }).count < 2 {
            try await Task.sleep(nanoseconds: 1_000_000)
        }
        task.cancel()
        let result = await task.value
        #expect(result.interrupted)
        #expect(result.exitCode == 130)
        #expect(result.status == .rolledBack)
        #expect(result.step("save")?.status == .compensated)
        #expect(try fixture.notes.list(tag: nil, limit: 10).isEmpty)
    }

    @Test func aValueOfTheWrongTypeAtRunTimeFailsTheStepWithThePath() async throws {
        let fixture = try EngineFixture()
        let result = try await fixture.run(
            """
            name: runtime-check
            on_failure: stop
            steps:
              - { id: a, skill: debug.echo, with: { value: [1, 2] } }
              - { id: save, skill: notes.create, with: { title: "${{ steps.a.output.value }}" } }
            """)
        #expect(result.status == .failed)
        #expect(result.step("save")?.error == "parameter 'title' expects string, got array")
    }

    @Test func secretInputsAreRedactedFromEventsAndErrors() async throws {
        let fixture = try EngineFixture()
        let result = try await fixture.run(
            """
            name: secret
            on_failure: stop
            inputs:
              token: { type: string, secret: true }
            steps:
              - { id: echo, skill: debug.echo, with: { value: "Bearer ${{ inputs.token }}" } }
              - { id: boom, skill: debug.fail, with: { message: "rejected ${{ inputs.token }}" } }
            """, inputs: ["token": "hunter2-very-secret"])
        #expect(result.status == .failed)
        #expect(result.step("boom")?.error == "rejected ***")
        let text = fixture.events.events.map { "\($0)" }.joined()
        #expect(!text.contains("hunter2"))
        #expect(text.contains("Bearer ***"))
    }

    @Test func aPlaybookTimeoutStopsTheRun() async throws {
        let fixture = try EngineFixture()
        let result = try await fixture.run(
            """
            name: deadline
            timeout: 0.1
            steps:
              - { id: save, skill: notes.create, with: { title: undone } }
              - { id: nap, skill: debug.sleep, with: { seconds: 30 } }
            """)
        #expect(result.status == .rolledBack)
        #expect(result.step("nap")?.error == "the playbook timed out after 0.1s")
        #expect(try fixture.notes.list(tag: nil, limit: 10).isEmpty)
    }
}

@Suite struct RelativeDateTests {
    /// The run's clock is 2026-11-30T10:15:00Z (a Monday), zone UTC.
    @Test func relativeDefaultsAndParametersResolveAgainstTheRunsClock() async throws {
        let fixture = try EngineFixture()
        let result = try await fixture.run(
            """
            name: dates
            inputs:
              at: { type: string, format: date-time, default: tomorrow 9am }
              day: { type: string, format: date, default: 下周一 }
            steps:
              - { id: echo, skill: debug.echo, with: { value: ["${{ inputs.at }}", "${{ inputs.day }}"] } }
              - { id: due, skill: reminders.list, with: { due_on: 明天, due_before: next friday 5pm } }
            """)
        #expect(result.status == .succeeded)
        #expect(result.step("echo")?.output?["value"] == ["2026-12-01T09:00:00Z", "2026-12-07"])
        let parameters = fixture.events.events.compactMap { event -> ValueObject? in
            if case .stepStarted("due", _, _, let parameters) = event { return parameters }
            return nil
        }
        #expect(parameters.first?["due_on"] == "2026-12-01")
        #expect(parameters.first?["due_before"] == "2026-12-04T17:00:00Z")
    }
}
