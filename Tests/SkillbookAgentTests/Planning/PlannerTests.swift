import SkillbookAgent
import SkillbookCore
import Testing

@Suite struct PlannerTests {
    @Test func theFirstSampleThatPassesIsTakenWithoutARepair() async {
        let bad = ModelPlanningTests.unknownSkill
        let model = ScriptedModel(contents: [bad, bad, ModelPlanningTests.good, bad])
        let planner = Planner(client: model, checker: shippedChecker, prompt: berlinPrompt, budget: PlanningBudget(samples: 3))
        let report = await planner.plan("summarize https://example.com and save it", offers: offers("web.summary", "notes.create"))
        guard case .plan(let checked) = report.outcome else {
            Issue.record("not a plan: \(report.outcome)")
            return
        }
        #expect(checked.plan.steps.map(\.id) == ["page", "save"])
        #expect(model.requests.map(\.temperature) == [0, 0.8, 0.8])
        #expect(model.requests.allSatisfy { $0.messages.count == 2 })
        #expect(report.tokens == 300)
        // Two clauses: at most three steps, in the schema every request carries.
        let schema = model.requests.first?.responseFormat?["json_schema"]?["schema"]
        #expect(schema?["anyOf"]?.arrayValue?[0]["properties"]?["steps"]?["maxItems"] == 3)
        #expect(model.requests.allSatisfy { $0.maxTokens == 300 })
    }

    @Test func aTransportFailureEndsPlanningAtOnce() async {
        let model = ScriptedModel([.failure(ChatError(.transport, "cannot reach the model server at http://127.0.0.1:9/v1/chat/completions: refused"))])
        let planner = Planner(client: model, checker: shippedChecker, prompt: berlinPrompt)
        let report = await planner.plan("x", offers: offers("notes.list"))
        guard case .failed(let message) = report.outcome else {
            Issue.record("not failed: \(report.outcome)")
            return
        }
        #expect(message == "the model could not be asked: cannot reach the model server at http://127.0.0.1:9/v1/chat/completions: refused")
        #expect(model.requests.count == 1)
    }
}
