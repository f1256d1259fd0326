import Foundation
import SkillbookCore
import SkillbookRuntime
import SkillbookSQLite
import SkillbookTesting
import Testing

/// A skill that fails until `healed` is set: a fault that goes away before the resume.
final class Fault: Sendable {
    let healed = Recorder<Bool>()
    var isHealed: Bool { !healed.values.isEmpty }

    func skill(_ id: String = "test.flaky") -> ClosureSkill {
        ClosureSkill.action(id) { _, _ in
            if !self.isHealed { throw SkillError("not yet") }
            return ["ok": true]
        }
    }
}

@Suite struct ResumeTests {
    @Test func everyCallIsRecordedBeforeAndAfterItRuns() async throws {
        let fixture = try EngineFixture()
        let recorder = InMemoryRecorder()
        fixture.recorder = recorder
        let result = try await fixture.run(
            """
            name: recorded
            inputs:
              notes: { type: array }
            steps:
              - { id: one, skill: notes.create, with: { title: one } }
              - { id: many, skill: notes.create_many, with: { notes: "${{ inputs.notes }}" } }
            """, inputs: ["notes": noteDrafts(120)])
        #expect(result.status == .succeeded)
        let contents = recorder.contents
        #expect(contents.runs.map(\.playbook) == ["recorded"])
        #expect(contents.calls.map(\.key.description) == ["one", "many[batch 1]", "many[batch 2]", "many[batch 3]"])
        #expect(contents.calls.allSatisfy { $0.output != nil })
        #expect(contents.steps[result.runID]?.map(\.status) == [.succeeded, .succeeded])
        #expect(contents.results.map(\.status) == [.succeeded])
    }

    @Test func aJournalThatCannotWriteStopsTheCallBeforeItRuns() async throws {
        let fixture = try EngineFixture()
        let recorder = InMemoryRecorder()
        recorder.failCallStarted(after: 1)
        fixture.recorder = recorder
        let result = try await fixture.run(
            """
            name: full-disk
            steps:
              - { id: one, skill: notes.create, with: { title: one } }
              - { id: two, skill: notes.create, with: { title: two } }
            """)
        #expect(result.status == .rolledBack)
        #expect(result.step("two")?.error == "the journal could not record the call, so it was not made: disk full")
        #expect(try fixture.snapshot().isEmpty)
    }

    @Test func aResumedRunReusesCompletedStepsAndBatchesAndFinishesTheRest() async throws {
        let fault = Fault()
        let fixture = try EngineFixture(extra: [fault.skill()], replacing: { skill in
            skill.descriptor.id == "notes.create_many" ? FailingCall(skill, failingCalls: [3]) : nil
        })
        let recorder = InMemoryRecorder()
        fixture.recorder = recorder
        let yaml = """
            name: resumable
            on_failure: stop
            inputs:
              notes: { type: array }
            steps:
              - { id: one, skill: notes.create, with: { title: one } }
              - { id: many, skill: notes.create_many, with: { notes: "${{ inputs.notes }}" } }
              - { id: flaky, skill: test.flaky }
              - { id: last, skill: notes.create, with: { title: "after ${{ steps.one.output.id }}" } }
            """
        let inputs: ValueObject = ["notes": noteDrafts(230)]
        let first = try await fixture.run(yaml, inputs: inputs)
        #expect(first.status == .failed)
        #expect(first.step("many")?.error == "batch 3 of 5: injected failure in call 3")
        #expect(try fixture.snapshot().count == 1 + 100)

        let plan = recorder.resumePlan(first.runID)
        #expect(plan.completed.map(\.key.description) == ["one", "many[batch 1]", "many[batch 2]"])
        let playbook = try fixture.load(yaml)
        let resumed = await fixture.engine.run(
            playbook, inputs: inputs, options: .init(resume: (first.runID, plan)), onEvent: fixture.events.handler)
        #expect(resumed.status == .failed, "the flaky step still fails")
        #expect(resumed.runID == first.runID)
        let titles = try fixture.snapshot().map(\.title)
        #expect(titles.count == 1 + 230, "batches 1-2 were not made again; 3-5 were")
        #expect(Set(titles).count == titles.count, "every note exists exactly once")

        fault.healed.append(true)
        let again = await fixture.engine.run(
            playbook, inputs: inputs, options: .init(resume: (first.runID, recorder.resumePlan(first.runID))))
        #expect(again.status == .succeeded)
        let final = try fixture.snapshot()
        #expect(final.count == 1 + 230 + 1)
        let one = try #require(final.first { $0.title == "one" })
        #expect(final.last?.title == "after \(one.id)", "outputs of steps done before the resume flow on")
    }

    @Test func aResumeDoesNotPauseBeforeTheBatchesItReuses() async throws {
        let fixture = try EngineFixture(replacing: { skill in
            skill.descriptor.id == "notes.create_many" ? FailingCall(skill, failingCalls: [3]) : nil
        })
        let recorder = InMemoryRecorder()
        fixture.recorder = recorder
        let yaml = """
            name: paced
            on_failure: stop
            inputs:
              notes: { type: array }
            steps:
              - id: many
                skill: notes.create_many
                batch: { pause: 1s }
                with: { notes: "${{ inputs.notes }}" }
            """
        let inputs: ValueObject = ["notes": noteDrafts(230)]
        let first = try await fixture.run(yaml, inputs: inputs)
        #expect(first.status == .failed)
        #expect(fixture.sleeps.values == [1, 1], "before batches 2 and 3")

        let resumed = await fixture.engine.run(
            try fixture.load(yaml), inputs: inputs, options: .init(resume: (first.runID, recorder.resumePlan(first.runID))))
        #expect(resumed.status == .succeeded)
        #expect(try fixture.snapshot().count == 230)
        #expect(fixture.sleeps.values == [1, 1, 1, 1], "batches 1-2 are reused without waiting; 3-5 are paced")
    }

    @Test func anUncertainCallIsRerunOrSkippedAsDecided() throws {
        let calls = [
            JournaledCall(key: CallKey(step: "a"), skill: "notes.create", attempt: 1, parameters: [:], output: ["id": "x"], error: nil, order: 1, compensated: false),
            JournaledCall(key: CallKey(step: "b"), skill: "notes.create", attempt: 1, parameters: [:], output: nil, error: "boom", order: 2, compensated: false),
            JournaledCall(key: CallKey(step: "b"), skill: "notes.create", attempt: 2, parameters: [:], output: nil, error: nil, order: 3, compensated: false),
            JournaledCall(key: CallKey(step: "c"), skill: "notes.create", attempt: 1, parameters: [:], output: ["id": "y"], error: nil, order: 4, compensated: true),
        ]
        let plan = ResumePlan.from(calls: calls, steps: [JournaledStep(step: "a", status: .succeeded, output: ["id": "x"])]) { call in
            call.key.step == "b" ? .skip : .rerun
        }
        #expect(plan.completed.map(\.key) == [CallKey(step: "a")])
        #expect(plan.uncertain == [CallKey(step: "b"): .skip])
        #expect(plan.finishedSteps["a"]?.status == .succeeded)
    }

    @Test func aMaskedOutputIsWorkedOutAgainWhenThatIsHarmlessAndReusedOtherwise() throws {
        let calls = [
            JournaledCall(
                key: CallKey(step: "header"), skill: "text.template", attempt: 1, parameters: [:], output: ["text": "Bearer ***"],
                error: nil, order: 1, compensated: false, outputMasked: true),
            JournaledCall(
                key: CallKey(step: "save"), skill: "notes.create", attempt: 1, parameters: [:], output: ["title": "Bearer ***"],
                error: nil, order: 2, compensated: false, outputMasked: true),
            JournaledCall(
                key: CallKey(step: "plain"), skill: "notes.create", attempt: 1, parameters: [:], output: ["id": "n2"], error: nil,
                order: 3, compensated: false),
        ]
        let steps = [
            JournaledStep(step: "header", status: .succeeded, output: ["text": "Bearer ***"], outputMasked: true),
            JournaledStep(step: "plain", status: .succeeded, output: ["id": "n2"]),
        ]
        let plan = ResumePlan.from(calls: calls, steps: steps, isReadOnly: { $0 == "text.template" }) { _ in .rerun }
        #expect(plan.completed.map(\.key.step) == ["save", "plain"], "the template runs again; the note is not made twice")
        #expect(plan.maskedOutputs == [CallKey(step: "save")])
        #expect(plan.finishedSteps["header"] == nil, "a masked step's end is worked out again")
        #expect(plan.finishedSteps["plain"]?.output == ["id": "n2"])
        #expect(plan.uncertain.isEmpty)
    }

    @Test func theEngineJournalsOutputsWithSecretsMasked() async throws {
        let fixture = try EngineFixture()
        let recorder = InMemoryRecorder()
        fixture.recorder = recorder
        let result = try await fixture.run(
            """
            name: masked
            inputs:
              token: { type: string, secret: true }
            steps:
              - { id: header, skill: text.template, with: { template: "Bearer {{t}}", values: { t: "${{ inputs.token }}" } } }
              - { id: plain, skill: text.template, with: { template: "no secret" } }
            """, inputs: ["token": "hunter2"])
        #expect(result.status == .succeeded)
        let calls = recorder.contents.calls
        #expect(calls.map(\.output) == [["text": "Bearer ***"], ["text": "no secret"]])
        #expect(calls.map(\.outputMasked) == [true, false])
        let steps = recorder.contents.steps[result.runID] ?? []
        #expect(steps.map(\.output) == [["text": "Bearer ***"], ["text": "no secret"]])
        #expect(steps.map(\.outputMasked) == [true, false])
    }

    @Test func aValueTheOutputSchemaMarksSecretIsMaskedFromThenOn() async throws {
        let vault = ClosureSkill.action(
            "test.vault", output: .object(["token": .string("A token.", secret: true)], required: ["token"])
        ) { _, _ in ["token": "tok-9f8e7d"] }
        let fixture = try EngineFixture(extra: [vault])
        let recorder = InMemoryRecorder()
        fixture.recorder = recorder
        let result = try await fixture.run(
            """
            name: vaulted
            steps:
              - { id: login, skill: test.vault }
              - { id: use, skill: text.template, with: { template: "key {{k}}", values: { k: "${{ steps.login.output.token }}" } } }
            outputs:
              used: "${{ steps.use.output.text }}"
            """)
        #expect(result.status == .succeeded)
        #expect(result.outputs["used"] == "key ***")
        #expect(recorder.contents.calls.map(\.output) == [["token": "***"], ["text": "key ***"]])
        #expect(recorder.contents.calls.map(\.parameters["values"]) == [nil, ["k": "***"]])
        #expect(!String(describing: fixture.events.events).contains("tok-9f8e7d"), "events are masked too")
    }

    @Test func rollingBackAnEndedRunUndoesItsRecordedCalls() async throws {
        let fixture = try EngineFixture()
        let recorder = InMemoryRecorder()
        fixture.recorder = recorder
        let yaml = """
            name: undo-later
            on_failure: stop
            steps:
              - { id: one, skill: notes.create, with: { title: one } }
              - { id: two, skill: notes.create, with: { title: two } }
              - { id: boom, skill: debug.fail, with: { message: stop here } }
            """
        let first = try await fixture.run(yaml)
        #expect(first.status == .failed)
        #expect(try fixture.snapshot().count == 2)
        let plan = recorder.resumePlan(first.runID)
        let undone = await fixture.engine.rollBack(try fixture.load(yaml), runID: first.runID, completed: plan.completed)
        #expect(undone.status == .rolledBack)
        #expect(undone.step("one")?.status == .compensated)
        #expect(try fixture.snapshot().isEmpty)
        #expect(recorder.contents.compensations.map(\.key.step) == ["two", "one"])
    }
}
