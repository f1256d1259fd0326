import Foundation
import SkillbookCore
import SkillbookRuntime
import SkillbookSQLite
import SkillbookTesting
import Testing

/// `count` notes as a playbook input value.
func noteDrafts(_ count: Int, prefix: String = "note") -> Value {
    .array((1...count).map { ["title": .string("\(prefix) \($0)"), "tags": ["bulk"]] })
}

let bulkPlaybook = """
    name: bulk
    inputs:
      notes: { type: array }
    steps:
      - id: save
        skill: notes.create_many
        with: { notes: "${{ inputs.notes }}" }
      - id: boom
        skill: debug.fail
        with: { message: "after the batches" }
    """

@Suite struct BatchingTests {
    @Test func aLongListIsSplitIntoBatchesOfTheSkillsMaxItems() async throws {
        let fixture = try EngineFixture()
        let result = try await fixture.run(
            """
            name: bulk
            inputs:
              notes: { type: array }
            steps:
              - id: save
                skill: notes.create_many
                with: { notes: "${{ inputs.notes }}" }
            outputs:
              ids: "${{ steps.save.output.ids }}"
              batches: "${{ length(steps.save.output.batches) }}"
            """, inputs: ["notes": noteDrafts(1234)])
        #expect(result.status == .succeeded)
        #expect(result.outputs["batches"] == 25)
        #expect(result.outputs["ids"]?.arrayValue?.count == 1234)
        let notes = try fixture.snapshot()
        #expect(notes.count == 1234)
        #expect(notes.map(\.title) == (1...1234).map { "note \($0)" }, "batches keep the list order")
        let progress = fixture.events.events.compactMap { event -> Int? in
            if case .stepProgress(_, let done, 25, _) = event { return done }
            return nil
        }
        #expect(progress == Array(0...25), "0 of 25 as the step starts, then one per batch")
    }

    /// The checker refuses batching that does not fit the skill; a playbook checked against
    /// another version of the skill fails that step, rather than calling it unbatched.
    @Test func batchingThatNoLongerFitsTheSkillFailsTheStepInsteadOfRunningUnbatched() async throws {
        let fixture = try EngineFixture()
        let playbook = try fixture.load(
            """
            name: bulk
            inputs:
              notes: { type: array }
            steps:
              - id: save
                skill: notes.create_many
                with: { notes: "${{ inputs.notes }}" }
                batch: { over: notes }
            """)
        let calls = Recorder<Int>()
        // The skill as it is now: its list has no limit, so there is nothing to batch by.
        fixture.registry = try SkillRegistry([
            ClosureSkill.action("notes.create_many") { parameters, _ in
                calls.append(parameters["notes"]?.arrayValue?.count ?? 0)
                return [:]
            }
        ])
        let inputs = try InputResolver(now: Date(timeIntervalSince1970: 1_796_033_700), timeZone: TimeZone(identifier: "UTC")!)
            .resolve(playbook, values: ["notes": noteDrafts(300)])
        let result = await fixture.engine.run(playbook, inputs: inputs, dryRun: false, onEvent: fixture.events.handler)
        #expect(calls.values.isEmpty, "the skill was called unbatched")
        #expect(result.status != .succeeded)
        #expect(result.step("save")?.status == .failed)
        #expect(result.step("save")?.error?.contains("cannot batch over 'notes'") == true, "\(String(describing: result.step("save")))")
    }

    @Test func aFailureAfterTwentyFiveBatchesUndoesEveryOne() async throws {
        let fixture = try EngineFixture()
        let before = try fixture.snapshot()
        let result = try await fixture.run(bulkPlaybook, inputs: ["notes": noteDrafts(1234)])
        #expect(result.status == .rolledBack)
        #expect(result.step("save")?.status == .compensated)
        #expect(try fixture.snapshot() == before)
        let undone = fixture.events.types.filter { $0 == "compensation.succeeded" }.count
        #expect(undone == 25, "each batch is compensated separately")
    }

    @Test func aFailureInsideBatchThirteenUndoesTheTwelveBefore() async throws {
        let fixture = try EngineFixture(replacing: { skill in
            skill.descriptor.id == "notes.create_many" ? FailingCall(skill, failingCalls: [13]) : nil
        })
        let result = try await fixture.run(
            """
            name: bulk
            inputs:
              notes: { type: array }
            steps:
              - { id: first, skill: notes.create, with: { title: before the batches } }
              - id: save
                skill: notes.create_many
                with: { notes: "${{ inputs.notes }}" }
            """, inputs: ["notes": noteDrafts(1234)])
        #expect(result.status == .rolledBack)
        #expect(result.step("save")?.error == "batch 13 of 25: injected failure in call 13")
        #expect(result.step("save")?.status == .compensated)
        #expect(result.step("first")?.status == .compensated)
        #expect(try fixture.snapshot().isEmpty)
        #expect(fixture.events.types.filter { $0 == "compensation.succeeded" }.count == 13)
    }

    @Test func batchSizeConcurrencyAndPauseAreHonoured() async throws {
        let active = Recorder<Int>()
        let sizes = Recorder<Int>()
        let counter = ActiveCounter()
        let skill = ClosureSkill.action(
            "test.bulk", parameters: .object(["items": .array(.integer(), maxItems: 10)], required: ["items"]),
            output: .object(["seen": .array(.integer())])
        ) { parameters, _ in
            active.append(counter.enter())
            defer { counter.leave() }
            try await Task.sleep(nanoseconds: 5_000_000)
            let items = parameters["items"]?.arrayValue ?? []
            sizes.append(items.count)
            return ["seen": .array(items)]
        }
        let fixture = try EngineFixture(extra: [skill])
        let result = try await fixture.run(
            """
            name: tuned
            inputs:
              items: { type: array, items: { type: integer } }
            steps:
              - id: bulk
                skill: test.bulk
                batch: { size: 4, concurrency: 3, pause: 0.5s }
                with: { items: "${{ inputs.items }}" }
            outputs:
              seen: "${{ steps.bulk.output.seen }}"
            """, inputs: ["items": .array((1...22).map(Value.int))])
        #expect(result.status == .succeeded)
        #expect(result.outputs["seen"] == .array((1...22).map(Value.int)), "merged in batch order")
        #expect(sizes.values.sorted() == [2, 4, 4, 4, 4, 4])
        #expect((active.values.max() ?? 0) <= 3)
        #expect(fixture.sleeps.values == [0.5, 0.5, 0.5], "a pause before each batch after the first window")
    }

    @Test func twoListParametersNeedBatchOver() throws {
        let skill = ClosureSkill.action(
            "test.pairs",
            parameters: .object(["left": .array(.string(), maxItems: 5), "right": .array(.string(), maxItems: 5)])
        ) { _, _ in [:] }
        let fixture = try EngineFixture(extra: [skill])
        let yaml = """
            name: pairs
            inputs:
              a: { type: array, items: { type: string } }
            steps:
              - id: pair
                skill: test.pairs
                with: { left: "${{ inputs.a }}", right: "${{ inputs.a }}" }
            """
        let result = PlaybookLoader(registry: fixture.registry).load(yaml, file: "pairs.yaml")
        #expect(result.diagnostics.map(\.description) == [
            "pairs.yaml:7:5: error: step 'pair' could batch over 'left' and 'right'; name one with batch.over"
        ])
        let fixed = PlaybookLoader(registry: fixture.registry).load(
            yaml.replacingOccurrences(of: "    with:", with: "    batch: { over: left }\n    with:"), file: "pairs.yaml")
        #expect(fixed.playbook != nil, "\(fixed.diagnostics)")
    }

    @Test func aBatchedStepsOutputHasTheBatchedShapeForTheChecker() throws {
        let fixture = try EngineFixture()
        let result = PlaybookLoader(registry: fixture.registry).load(
            """
            name: shape
            inputs:
              notes: { type: array }
            steps:
              - { id: save, skill: notes.create_many, with: { notes: "${{ inputs.notes }}" } }
              - { id: show, skill: debug.echo, with: { value: "${{ steps.save.output.count }}" } }
            """, file: "shape.yaml")
        #expect(result.diagnostics.map(\.description) == [
            "shape.yaml:6:74: error: skill 'notes.create_many' has no output field 'count'; it has: batches, ids"
        ])
    }
}

/// Counts tasks inside a region at once.
final class ActiveCounter: Sendable {
    private let current = Recorder<Int>()

    func enter() -> Int {
        current.append(1)
        return current.values.reduce(0, +)
    }

    func leave() {
        current.append(-1)
    }
}
