import Foundation
import SkillbookCore
import SkillbookRuntime
import SkillbookSQLite
import SkillbookTesting
import Testing

@Suite struct RollbackTests {
    @Test func theEngineSaysARollbackStartsAfterTheFailureAndBeforeTheFirstUndo() async throws {
        let fixture = try EngineFixture()
        let result = try await fixture.run(
            """
            name: undone
            steps:
              - { id: save, skill: notes.create, with: { title: doomed } }
              - { id: boom, skill: debug.fail, with: { message: broke } }
            """)
        #expect(result.status == .rolledBack)
        #expect(
            fixture.events.types == [
                "run.started", "step.started", "step.succeeded", "step.started", "step.failed", "rollback.started",
                "compensation.started", "compensation.succeeded", "run.finished",
            ])
    }

    @Test func noRollbackStartsWhenThePolicyIsStop() async throws {
        let fixture = try EngineFixture()
        let result = try await fixture.run(
            """
            name: kept
            on_failure: stop
            steps:
              - { id: save, skill: notes.create, with: { title: kept } }
              - { id: boom, skill: debug.fail, with: { message: broke } }
            """)
        #expect(result.status == .failed)
        #expect(!fixture.events.types.contains("rollback.started"))
    }

    @Test func rollbackStepsReplaceTheSkillsCompensationAndSeeThisInputAndOutput() async throws {
        let sent = Recorder<String>()
        let send = ClosureSkill.action(
            "test.send", parameters: .object(["to": .string()], required: ["to"]), output: .object(["message": .string()])
        ) { parameters, _ in
            sent.append("sent to \(parameters["to"]!.stringValue!)")
            return ["message": "m-1"]
        }
        let fixture = try EngineFixture(extra: [send])
        let result = try await fixture.run(
            """
            name: apology
            steps:
              - id: send
                skill: test.send
                with: { to: ada }
                rollback:
                  - skill: notes.create
                    with: { title: "Apologise to ${{ this.input.to }} for ${{ this.output.message }}" }
              - { id: boom, skill: debug.fail, with: { message: broke } }
            """)
        #expect(result.status == .rolledBack)
        #expect(result.step("send")?.status == .compensated)
        #expect(try fixture.snapshot().map(\.title) == ["Apologise to ada for m-1"])
    }

    @Test func everyPositionOfAFailureLeavesTheStoreAsItWas() async throws {
        for position in 0...6 {
            let fixture = try EngineFixture()
            let kept = try fixture.notes.create(title: "kept", body: "from before", tags: ["old"])
            let doomed = try fixture.notes.create(title: "deleted then restored", body: "", tags: [])
            let before = try fixture.snapshot()
            var steps = [
                "  - { id: one, skill: notes.create, with: { title: one, tags: [a] } }",
                "  - { id: many, skill: notes.create_many, with: { notes: \"${{ inputs.notes }}\" } }",
                "  - { id: gone, skill: notes.delete, confirm: false, with: { ids: [\"\(doomed.id)\"] } }",
                "  - { id: two, skill: notes.create, with: { title: two, body: \"${{ steps.one.output.id }}\" } }",
                "  - { id: more, skill: notes.create_many, with: { notes: \"${{ inputs.more }}\" } }",
                "  - { id: undo_one, skill: notes.delete, confirm: false, with: { ids: [\"${{ steps.one.output.id }}\"] } }",
            ]
            steps.insert("  - { id: boom, skill: debug.fail, with: { message: \"fault at \(position)\" } }", at: position)
            let result = try await fixture.run(
                "name: six\ninputs:\n  notes: { type: array }\n  more: { type: array }\nsteps:\n" + steps.joined(separator: "\n"),
                inputs: ["notes": noteDrafts(120), "more": noteDrafts(60, prefix: "more")])
            #expect(result.status == .rolledBack, "fault at \(position)")
            #expect(try fixture.snapshot() == before, "fault at \(position)")
            #expect(try fixture.notes.get(id: kept.id) == kept)
        }
    }

    @Test func everyBatchBoundaryOfAFailureLeavesTheStoreAsItWas() async throws {
        for failing in 1...5 {
            let fixture = try EngineFixture(replacing: { skill in
                skill.descriptor.id == "notes.create_many" ? FailingCall(skill, failingCalls: [failing]) : nil
            })
            let before = try fixture.snapshot()
            let result = try await fixture.run(
                """
                name: boundaries
                inputs:
                  notes: { type: array }
                steps:
                  - { id: one, skill: notes.create, with: { title: one } }
                  - { id: many, skill: notes.create_many, with: { notes: "${{ inputs.notes }}" } }
                  - { id: two, skill: notes.create, with: { title: two } }
                """, inputs: ["notes": noteDrafts(230)])
            #expect(result.status == .rolledBack, "failing batch \(failing)")
            #expect(result.step("many")?.error == "batch \(failing) of 5: injected failure in call \(failing)")
            #expect(try fixture.snapshot() == before, "failing batch \(failing)")
        }
    }

    @Test func subPlaybookNotesAreUndoneByTheParentsRollback() async throws {
        let fixture = try EngineFixture()
        fixture.library["child"] = """
            name: child
            inputs:
              title: { type: string }
            steps:
              - { id: a, skill: notes.create, with: { title: "${{ inputs.title }} A" } }
              - { id: b, skill: notes.create, with: { title: "${{ inputs.title }} B" } }
            outputs:
              a: "${{ steps.a.output.id }}"
            """
        let result = try await fixture.run(
            """
            name: parent
            steps:
              - { id: kid, playbook: child, with: { title: from parent } }
              - { id: echo, skill: debug.echo, with: { value: "${{ steps.kid.output.a }}" } }
              - { id: boom, skill: debug.fail, with: { message: parent broke } }
            """)
        #expect(result.status == .rolledBack)
        #expect(result.step("kid")?.status == .compensated)
        #expect(try fixture.snapshot().isEmpty)
        #expect(fixture.events.types.filter { $0 == "compensation.succeeded" }.count == 2)
        let started = fixture.events.events.compactMap { event -> StepPath? in
            if case .stepStarted(let step, _, _, _) = event { return step }
            return nil
        }
        #expect(started == ["kid", "kid/a", "kid/b", "echo", "boom"])
    }

    @Test func subPlaybookCyclesAndDeepNestingAreLoadErrors() throws {
        let fixture = try EngineFixture()
        fixture.library["loop_a"] = "name: loop_a\nsteps:\n  - { id: next, playbook: loop_b }\n"
        fixture.library["loop_b"] = "name: loop_b\nsteps:\n  - { id: next, playbook: loop_a }\n"
        for level in 1...6 {
            let next = level < 6 ? "  - { id: deeper, playbook: level\(level + 1) }\n" : ""
            fixture.library["level\(level)"] =
                "name: level\(level)\nsteps:\n  - { id: echo, skill: debug.echo, with: { value: \(level) } }\n" + next
        }
        let sources = fixture.library
        let library = PlaybookLibrary(source: { name in sources[name].map { ($0, "\(name).yaml") } }, names: { Array(sources.keys) })
        let loader = PlaybookLoader(registry: fixture.registry, library: library)
        let cycle = loader.load(fixture.library["loop_a"]!, file: "loop_a.yaml")
        #expect(cycle.diagnostics.map(\.description) == [
            "loop_a.yaml:3:27: error: step 'next' makes a playbook cycle: loop_a → loop_b → loop_a"
        ])
        let deep = loader.load(fixture.library["level1"]!, file: "level1.yaml")
        #expect(deep.diagnostics.map(\.description) == [
            "level1.yaml:4:29: error: step 'deeper' nests playbooks deeper than 5 levels: level1 → level2 → level3 → level4 → level5 → level6"
        ])
        let five = loader.load(fixture.library["level2"]!, file: "level2.yaml")
        #expect(five.playbook != nil, "five levels are allowed: \(five.diagnostics)")
        let unknown = loader.load("name: lost\nsteps:\n  - { id: go, playbook: levle1 }\n", file: "lost.yaml")
        #expect(unknown.diagnostics.map(\.description) == [
            "lost.yaml:3:25: error: step 'go' runs unknown playbook 'levle1'; did you mean 'level1'?"
        ])
    }

    @Test func anIrreversibleActionBeforeFailingStepsIsAWarning() throws {
        let oneWay = ClosureSkill.action("test.oneway") { _, _ in [:] }
        let fixture = try EngineFixture(extra: [oneWay])
        let result = PlaybookLoader(registry: fixture.registry).load(
            """
            name: order
            steps:
              - { id: mail, skill: test.oneway }
              - { id: save, skill: notes.create, with: { title: x } }
            """, file: "order.yaml")
        #expect(result.playbook != nil)
        #expect(result.diagnostics.map(\.description) == [
            "order.yaml:3:5: warning: step 'mail' (test.oneway) cannot be undone, but later steps ('save') can still fail; move it last or give it a 'rollback'"
        ])
    }
}
