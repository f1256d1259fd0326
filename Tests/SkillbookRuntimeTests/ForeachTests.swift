import Foundation
import SkillbookCore
import SkillbookRuntime
import SkillbookSQLite
import SkillbookTesting
import Testing

/// A foreach of 20 with concurrency 4 where item 7 fails.
func foreachPlaybook(_ policy: String) -> String {
    """
    name: each
    inputs:
      titles: { type: array, items: { type: string } }
    steps:
      - id: save
        skill: test.maybe
        foreach: "${{ inputs.titles }}"
        concurrency: 4
        on_failure: \(policy)
        with: { title: "${{ item }}", position: "${{ index }}" }
    outputs:
      saved: "${{ steps.save.output }}"
    """
}

@Suite struct ForeachTests {
    /// `notes.create` that refuses the title "bad", with a tracker of how many run at once.
    func fixture() throws -> (EngineFixture, Recorder<Int>) {
        let active = Recorder<Int>()
        let counter = ActiveCounter()
        let create = Recorder<any Skill>()
        let fixture = try EngineFixture(
            extra: [
                ClosureSkill(
                    SkillDescriptor(
                        id: "test.maybe", summary: "Creates a note unless the title is bad.", kind: .action,
                        parameters: .object(["title": .string(), "position": .integer()], required: ["title"]),
                        output: .object(["id": .string(), "title": .string()]), resources: []),
                    run: { parameters, context in
                        active.append(counter.enter())
                        defer { counter.leave() }
                        try await Task.sleep(nanoseconds: 2_000_000)
                        if parameters["title"] == "bad" { throw SkillError("bad title at \(parameters["position"]!.interpolatedText)") }
                        return try await create.values[0].run(["title": parameters["title"]!], context: context)
                    },
                    compensate: { call in
                        try await create.values[0].compensate(call, context: SkillContext(runID: "r", stepID: "s"))
                    })
            ])
        create.append(fixture.registry["notes.create"]!)
        return (fixture, active)
    }

    var titles: Value { .array((0..<20).map { $0 == 7 ? "bad" : .string("t\($0)") }) }

    @Test func continueKeepsTheOtherIterationsAndNullsTheFailedOne() async throws {
        let (fixture, active) = try fixture()
        let result = try await fixture.run(foreachPlaybook("continue"), inputs: ["titles": titles])
        #expect(result.status == .succeededWithErrors)
        #expect(result.step("save")?.error == "item 8 of 20: bad title at 7")
        let saved = try #require(result.outputs["saved"]?.arrayValue)
        #expect(saved.count == 20)
        #expect(saved[7] == .null)
        #expect(saved[8]["title"] == "t8", "outputs keep the list order")
        #expect(try fixture.snapshot().count == 19)
        #expect((active.values.max() ?? 0) <= 4)
        #expect((active.values.max() ?? 0) > 1, "iterations overlap")
    }

    @Test func rollbackUndoesEveryCompletedIteration() async throws {
        let (fixture, _) = try fixture()
        let result = try await fixture.run(foreachPlaybook("rollback"), inputs: ["titles": titles])
        #expect(result.status == .rolledBack)
        #expect(result.step("save")?.status == .compensated)
        #expect(try fixture.snapshot().isEmpty)
        #expect(fixture.events.types.contains("compensation.succeeded"))
    }

    @Test func foreachOutputIsAListAndItemIsTyped() throws {
        let fixture = try EngineFixture()
        let result = PlaybookLoader(registry: fixture.registry).load(
            """
            name: typed
            steps:
              - id: save
                skill: notes.create
                foreach: [1, 2]
                with: { title: "${{ item }}" }
            """, file: "typed.yaml")
        #expect(result.diagnostics.map(\.description) == [
            "typed.yaml:6:20: error: step 'save' parameter 'title' expects string, got integer"
        ])
        let outside = PlaybookLoader(registry: fixture.registry).load(
            """
            name: outside
            steps:
              - { id: save, skill: notes.create, with: { title: "${{ item }}" } }
            """, file: "outside.yaml")
        #expect(outside.diagnostics.map(\.description) == [
            "outside.yaml:3:58: error: item is only available inside foreach"
        ])
    }
}

@Suite struct ForeachWhenTests {
    @Test func aWhenThatUsesTheItemIsDecidedPerItem() async throws {
        let fixture = try EngineFixture()
        let result = try await fixture.run(
            """
            name: odd
            inputs:
              n: { type: array, items: { type: integer }, default: [1, 2, 3, 4, 5] }
            steps:
              - id: save
                skill: notes.create
                foreach: "${{ inputs.n }}"
                concurrency: 2
                when: "${{ item % 2 == 1 }}"
                with: { title: "note ${{ item }}" }
              - id: count
                skill: debug.echo
                with: { value: "${{ length(steps.save.output) }} ${{ steps.save.output[1].skipped }}" }
            """)
        #expect(result.status == .succeeded)
        #expect(try fixture.snapshot().map(\.title).sorted() == ["note 1", "note 3", "note 5"])
        let output = try #require(result.step("save")?.output?.arrayValue)
        #expect(output.map { $0["skipped"] ?? false } == [false, true, false, true, false])
        #expect(output.map { $0["title"] } == ["note 1", nil, "note 3", nil, "note 5"])
        #expect(result.step("count")?.output?["value"] == "5 true")
    }

    @Test func aWhenThatIsNotABooleanAtRunTimeFailsTheStep() async throws {
        let fixture = try EngineFixture()
        let result = try await fixture.run(
            """
            name: typed
            steps:
              - { id: a, skill: debug.echo, with: { value: "yes" } }
              - { id: b, skill: debug.echo, when: "${{ steps.a.output.value }}", with: { value: 1 } }
            """)
        #expect(result.status == .rolledBack)
        #expect(result.step("b")?.error == "'when' must be a boolean, got string")
    }
}
