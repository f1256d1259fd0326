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

    @Test func stepsWithoutIdsAreNamedInOrderAndTheirReferencesResolve() async {
        // The answer schema has no `id`: the model writes none, and refers to steps as s1, s2….
        let answer = #"{"steps":[{"skill":"web.summary","with":{"url":"https://example.com"}},{"skill":"notes.create","with":{"title":"${{ steps.s1.output.title }}"}}]}"#
        let model = ScriptedModel(contents: [answer])
        let planner = Planner(client: model, checker: shippedChecker, prompt: berlinPrompt)
        let report = await planner.plan("summarize https://example.com and save it", offers: offers("web.summary", "notes.create"), minSteps: 2)
        guard case .plan(let checked) = report.outcome else {
            Issue.record("not a plan: \(report.outcome)")
            return
        }
        #expect(checked.plan.steps.map(\.id) == ["s1", "s2"])
        #expect(checked.playbook != nil)
        let steps = model.requests.first?.responseFormat?["json_schema"]?["schema"]?["anyOf"]?.arrayValue?[0]["properties"]?["steps"]
        #expect(steps?["minItems"] == 2)
        #expect(steps?["items"]?["anyOf"]?.arrayValue?.allSatisfy { $0["properties"]?["id"] == nil && $0["required"] == ["skill", "with"] } == true)
    }

    @Test func aPlanThatDropsAClauseTheMatcherIsSureOfIsSampledAgain() async {
        let request = "summarize https://example.com and save it as a note"
        let covering = PromptBuilder.sureTargets(for: request, matcher: shippedMatcher, clock: berlinClock)
        #expect(covering.map(\.clause) == ["summarize https://example.com", "save it as a note"])
        #expect(covering.map(\.target) == ["web.summary", "notes.create"])
        let dropped = #"{"steps":[{"skill":"web.summary","with":{"url":"https://example.com"}}]}"#
        let model = ScriptedModel(contents: [dropped, ModelPlanningTests.good])
        let planner = Planner(client: model, checker: shippedChecker, prompt: berlinPrompt, budget: PlanningBudget(samples: 1))
        let report = await planner.plan(request, offers: offers("web.summary", "notes.create"), covering: covering)
        guard case .plan(let checked) = report.outcome else {
            Issue.record("not a plan: \(report.outcome)")
            return
        }
        #expect(checked.plan.steps.map(\.target) == ["web.summary", "notes.create"])
        #expect(model.requests.map(\.temperature) == [0, 0.8])
        // Dropped twice: the repair is told which clause no step does.
        let twice = ScriptedModel(contents: [dropped, dropped, dropped])
        let refused = await Planner(client: twice, checker: shippedChecker, prompt: berlinPrompt, budget: PlanningBudget(samples: 1))
            .plan(request, offers: offers("web.summary", "notes.create"), covering: covering)
        guard case .refused(_, let diagnostics) = refused.outcome else {
            Issue.record("not refused: \(refused.outcome)")
            return
        }
        #expect(diagnostics.first == #"the request's 'save it as a note' is for notes.create, which no step uses; add a step with "skill": "notes.create""#)
        #expect(twice.requests.last?.messages.last?.content.contains("no step uses") == true)
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

    @Test func aRequestWithASkeletonIsAskedAlongItAndOneWithoutOverTheFreeSchema() async throws {
        let all = PlanSkeletonTests.all
        let answer = #"{"steps":[{"skill":"files.read","with":{"path":"/tmp/todo.txt"}},{"skill":"notes.create","with":{"title":"Todo","body":"${{ steps.s1.output.content }}"}}]}"#
        let model = ScriptedModel(contents: [answer])
        let planner = Planner(client: model, checker: shippedChecker, prompt: berlinPrompt)
        let report = await planner.plan(
            "read /tmp/todo.txt and save it as a note titled Todo", choosingFrom: all, matcher: shippedMatcher, clock: berlinClock)
        guard case .plan(let checked) = report.outcome else {
            Issue.record("not a plan: \(report.outcome)")
            return
        }
        #expect(checked.plan.steps.map(\.target) == ["files.read", "notes.create"])
        let asked = try #require(model.requests.first)
        let sequence = asked.responseFormat?["json_schema"]?["schema"]?["anyOf"]?.arrayValue?[0]["properties"]?["steps"]
        #expect(sequence?["prefixItems"]?.arrayValue?.count == 2)
        #expect(asked.messages[1].content.contains("Steps in order: s1 files.read ('read /tmp/todo.txt'), s2 notes.create"))
        // One clause: no skeleton; the free schema (an anyOf of the offers as `items`) and no order line.
        let single = ScriptedModel(contents: [#"{"question":"Which file?"}"#])
        let free = await Planner(client: single, checker: shippedChecker, prompt: berlinPrompt)
            .plan("tidy up my things somehow", choosingFrom: all, matcher: shippedMatcher, clock: berlinClock)
        guard case .question(let question) = free.outcome else {
            Issue.record("not a question: \(free.outcome)")
            return
        }
        #expect(question == "Which file?")
        let steps = single.requests.first?.responseFormat?["json_schema"]?["schema"]?["anyOf"]?.arrayValue?[0]["properties"]?["steps"]
        #expect(steps?["items"]?["anyOf"] != nil)
        #expect(steps?["prefixItems"] == nil)
        #expect(single.requests.first?.messages[1].content.contains("Steps in order") == false)
    }

    @Test func aDateTheRequestFixesIsFilledInNotWrittenByTheModel() async throws {
        let answer = #"{"steps":[{"skill":"web.summary","with":{"url":"https://example.com/blog"}},{"skill":"reminders.create","with":{"title":"read it"}}]}"#
        let model = ScriptedModel(contents: [answer])
        let planner = Planner(client: model, checker: shippedChecker, prompt: berlinPrompt)
        let report = await planner.plan(
            "summarize https://example.com/blog and remind me tomorrow at 9am to read it", choosingFrom: PlanSkeletonTests.all,
            matcher: shippedMatcher, clock: berlinClock)
        guard case .plan(let checked) = report.outcome else {
            Issue.record("not a plan: \(report.outcome)")
            return
        }
        #expect(checked.plan.steps[1].with["due"] == "2026-12-02T09:00:00+01:00")
        #expect(report.calls == 1)
        let asked = try #require(model.requests.first)
        #expect(asked.messages[1].content.contains("due = 2026-12-02T09:00:00+01:00 (filled in)"))
        #expect(!JSONText.encode(asked.responseFormat ?? .null).contains("2026-12-02T09:00"))
    }
}
