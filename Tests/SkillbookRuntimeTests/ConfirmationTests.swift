import Foundation
import SkillbookCore
import SkillbookRuntime
import SkillbookSQLite
import SkillbookTesting
import Testing

/// Records confirmation requests and answers as told.
struct ScriptedConfirmer: Confirmer {
    let approve: Bool
    let requests = Recorder<ConfirmationRequest>()

    func confirm(_ request: ConfirmationRequest) async -> ConfirmationAnswer {
        requests.append(request)
        return approve ? .approved : .declined(reason: "declined")
    }
}

@Suite struct ConfirmationTests {
    func deletePlaybook(confirm: String = "") -> String {
        """
        name: cleanup
        inputs:
          ids: { type: array, items: { type: string } }
        steps:
          - id: remove
            skill: notes.delete\(confirm)
            with: { ids: "${{ inputs.ids }}" }
        """
    }

    @Test func withoutATerminalAConfirmStepIsRefusedAndNothingIsDeleted() async throws {
        let fixture = try EngineFixture()
        let note = try fixture.notes.create(title: "keep me", body: "", tags: [])
        let result = try await fixture.run(deletePlaybook(), inputs: ["ids": [.string(note.id)]])
        #expect(result.status == .rolledBack)
        #expect(
            result.step("remove")?.error
                == "step needs confirmation (notes.delete has confirm): no terminal to ask on")
        #expect(try fixture.snapshot() == [note])
        #expect(fixture.events.types.contains("confirmation.requested"))
    }

    @Test func anApprovedConfirmationRunsTheStepAndSeesTheParameters() async throws {
        let fixture = try EngineFixture()
        let confirmer = ScriptedConfirmer(approve: true)
        fixture.confirmer = confirmer
        let note = try fixture.notes.create(title: "delete me", body: "", tags: [])
        let result = try await fixture.run(deletePlaybook(), inputs: ["ids": [.string(note.id)]])
        #expect(result.status == .succeeded)
        #expect(try fixture.snapshot().isEmpty)
        #expect(confirmer.requests.values.map(\.skill) == ["notes.delete"])
        #expect(confirmer.requests.values.first?.parameters["ids"] == [.string(note.id)])
    }

    @Test func confirmFalseOnTheStepRunsWithoutAsking() async throws {
        let fixture = try EngineFixture()
        let confirmer = ScriptedConfirmer(approve: false)
        fixture.confirmer = confirmer
        let note = try fixture.notes.create(title: "delete me", body: "", tags: [])
        let result = try await fixture.run(deletePlaybook(confirm: "\n    confirm: false"), inputs: ["ids": [.string(note.id)]])
        #expect(result.status == .succeeded)
        #expect(confirmer.requests.values.isEmpty)
    }

    @Test func secretsAreMaskedInTheConfirmationRequest() async throws {
        let send = ClosureSkill(
            SkillDescriptor(
                id: "test.post", summary: "Posts.", kind: .action, confirm: true,
                parameters: .object(["token": .string(secret: true), "text": .string()]), output: .freeObject()),
            run: { _, _ in [:] })
        let fixture = try EngineFixture(extra: [send])
        let confirmer = ScriptedConfirmer(approve: true)
        fixture.confirmer = confirmer
        _ = try await fixture.run(
            """
            name: post
            inputs:
              token: { type: string }
            steps:
              - { id: post, skill: test.post, with: { token: "${{ inputs.token }}", text: "with ${{ inputs.token }}" } }
            """, inputs: ["token": "s3cr3t-token"])
        let parameters = try #require(confirmer.requests.values.first?.parameters)
        #expect(parameters["token"] == "***")
        #expect(parameters["text"] == "with ***")
    }
}

@Suite struct ResourceTests {
    @Test func stepsWritingTheSameResourceNeverOverlapAcrossRuns() async throws {
        let active = Recorder<Int>()
        let counter = ActiveCounter()
        func skill(_ id: String, kind: SkillDescriptor.Kind) -> ClosureSkill {
            ClosureSkill(
                SkillDescriptor(
                    id: id, summary: "Busy.", kind: kind, parameters: .freeObject(), output: .freeObject(),
                    resources: ["ledger"]),
                run: { _, _ in
                    active.append(counter.enter())
                    defer { counter.leave() }
                    try await Task.sleep(nanoseconds: 20_000_000)
                    return [:]
                })
        }
        let fixture = try EngineFixture(extra: [skill("test.write", kind: .action), skill("test.read", kind: .query)])
        let writer = try fixture.load("name: writer\nsteps:\n  - { id: w, skill: test.write }\n")
        let engine = fixture.engine
        async let first = engine.run(writer, inputs: [:])
        async let second = engine.run(writer, inputs: [:])
        async let third = engine.run(writer, inputs: [:])
        let statuses = await [first.status, second.status, third.status]
        #expect(statuses == [.succeeded, .succeeded, .succeeded])
        #expect(active.values.max() == 1, "writes of one resource are serialised")

        let readers = Recorder<Int>()
        let readCounter = ActiveCounter()
        let reader = try EngineFixture(extra: [
            ClosureSkill(
                SkillDescriptor(id: "test.look", summary: "Reads.", kind: .query, parameters: .freeObject(), output: .freeObject(), resources: ["ledger"]),
                run: { _, _ in
                    readers.append(readCounter.enter())
                    defer { readCounter.leave() }
                    try await Task.sleep(nanoseconds: 50_000_000)
                    return [:]
                })
        ])
        let look = try reader.load("name: look\nsteps:\n  - { id: r, skill: test.look }\n")
        let readEngine = reader.engine
        async let a = readEngine.run(look, inputs: [:])
        async let b = readEngine.run(look, inputs: [:])
        _ = await (a, b)
        #expect(readers.values.max() == 2, "queries take no lock")
    }
}

@Suite struct DryRunTests {
    @Test func dryRunRunsQueriesPlansActionsAndChangesNothing() async throws {
        let fixture = try EngineFixture()
        _ = try fixture.notes.create(title: "existing", body: "", tags: ["x"])
        let before = try fixture.snapshot()
        let result = try await fixture.run(
            """
            name: plan
            inputs:
              notes: { type: array }
            steps:
              - { id: look, skill: notes.list, with: { tag: x } }
              - { id: save, skill: notes.create, with: { title: "${{ steps.look.output.count }} found" } }
              - { id: bulk, skill: notes.create_many, with: { notes: "${{ inputs.notes }}" } }
              - { id: after, skill: debug.echo, with: { value: "${{ steps.save.output.id }}" } }
              - { id: wipe, skill: notes.delete, with: { ids: "${{ steps.bulk.output.ids }}" } }
            """, inputs: ["notes": noteDrafts(120)], dryRun: true)
        #expect(result.status == .succeeded)
        #expect(try fixture.snapshot() == before)
        let plans = fixture.events.events.compactMap { event -> StepPlan? in
            if case .stepPlanned(let plan) = event { return plan }
            return nil
        }
        #expect(plans.map(\.step) == ["look", "save", "bulk", "after", "wipe"])
        #expect(plans[0].ran)
        #expect(!plans[1].ran && plans[1].parameters?["title"] == "1 found")
        #expect(plans[2].batches == 3)
        #expect(plans[3].unknownFrom == ["save"])
        #expect(plans[4].confirm)
        #expect(plans[4].unknownFrom == ["bulk"])
        #expect(plans.allSatisfy { $0.kind == .query || $0.reversible })
    }
}
