import SkillbookAgent
import SkillbookCore
import Synchronization
import Testing

/// Answers the flow's questions from a script and records what it was asked and told.
final class ScriptedPerson: AgentAsking {
    let inputs: Mutex<[AgentReply<String>]>
    let confirmation: AgentReply<Bool>
    let asked = Mutex<[String]>([])

    init(inputs: [AgentReply<String>] = [], confirmation: AgentReply<Bool> = .unavailable) {
        self.inputs = Mutex(inputs)
        self.confirmation = confirmation
    }

    func input(_ question: AgentInputQuestion) async -> AgentReply<String> {
        asked.withLock { $0.append("input \(question.name)" + (question.problem.map { ": \($0)" } ?? "")) }
        return inputs.withLock { $0.isEmpty ? .ended : $0.removeFirst() }
    }

    func confirm(_ run: PendingRun, actions: [Plan.Step]) async -> AgentReply<Bool> {
        asked.withLock { $0.append("confirm \(actions.map(\.target).joined(separator: ","))") }
        return confirmation
    }

    func approve(_ run: PendingRun, actions: [Plan.Step]) async -> AgentReply<Bool> {
        asked.withLock { $0.append("approve \(actions.map(\.target).joined(separator: ","))") }
        return confirmation
    }
}

@Suite struct AgentFlowTests {
    func respond(
        _ request: String, _ person: ScriptedPerson, runner: RecordingRunner = RecordingRunner(.succeeded(.null)),
        planner: Planner? = nil, options: AgentFlow.Options = AgentFlow.Options()
    ) async throws -> AgentFlow.Result {
        try await shippedFlow(runner, planner: planner).respond(to: request, clock: berlinClock, options: options, asking: person)
    }

    @Test func aQueryRunsUnconfirmedAndAnActionNobodyCanConfirmRunsNothing() async throws {
        let runner = RecordingRunner(.succeeded(.null))
        let person = ScriptedPerson()
        let query = try await respond("list my notes", person, runner: runner)
        guard case .ran(.succeeded) = query.outcome else { Issue.record("\(query.outcome)"); return }
        let action = try await respond("remind me tomorrow at 9 to call Anna", person, runner: runner)
        guard case .needsConfirmation(let steps) = action.outcome else { Issue.record("\(action.outcome)"); return }
        #expect(steps.map(\.target) == ["reminders.create"])
        #expect(person.asked.withLock { $0 } == ["confirm reminders.create"])
        #expect(runner.runs.withLock { $0.map(\.target) } == ["notes.list"])
        // The skill route was checked before it was offered: a one-step plan.
        #expect(action.run?.plan?.plan.steps.map(\.id) == ["reminders_create"])
    }

    @Test func decidingOnlyAsksNothingAndRunsNothing() async throws {
        let runner = RecordingRunner(.succeeded(.null))
        let person = ScriptedPerson(inputs: [.answer("milk")], confirmation: .answer(true))
        let missing = try await respond("add a reminder", person, runner: runner, options: AgentFlow.Options(decideOnly: true))
        guard case .missingInputs(let names, let question) = missing.outcome else { Issue.record("\(missing.outcome)"); return }
        #expect(names == ["title"])
        #expect(question.hasPrefix("What should 'title' be"))
        let given = AgentFlow.Options(inputTexts: [AgentFlow.InputText(key: "title", text: "milk")], decideOnly: true)
        let decided = try await respond("add a reminder", person, runner: runner, options: given)
        guard case .decided = decided.outcome else { Issue.record("\(decided.outcome)"); return }
        #expect(decided.decision.inputs == ["title": "milk"])
        #expect(decided.decision.missing.isEmpty && decided.decision.question == nil)
        #expect(person.asked.withLock { $0 }.isEmpty)
        #expect(runner.runs.withLock { $0 }.isEmpty)
    }

    @Test func anInputTextForNoInputIsRefusedWithTheClosestName() async throws {
        let options = AgentFlow.Options(inputTexts: [AgentFlow.InputText(key: "titel", text: "x")])
        let result = try await respond("add a reminder", ScriptedPerson(), options: options)
        guard case .unknownInput(let name, let suggestion) = result.outcome else { Issue.record("\(result.outcome)"); return }
        #expect(name == "titel")
        #expect(suggestion == "title")
    }

    @Test func anAnswerIsCheckedAgainstItsSchemaAndEndOfInputRunsNothing() async throws {
        let runner = RecordingRunner(.succeeded(.null))
        let person = ScriptedPerson(inputs: [.answer("y"), .answer("  ")])
        let result = try await respond("pause for a minute", person, runner: runner)
        guard case .noAnswer = result.outcome else { Issue.record("\(result.outcome)"); return }
        #expect(
            person.asked.withLock { $0 } == [
                "input seconds", "input seconds: 'y' does not fit: expects number, got string", "input seconds",
            ])
        #expect(runner.runs.withLock { $0 }.isEmpty)
    }

    @Test func theEmptyRequestIsNotMatched() async throws {
        let result = try await respond(" \t", ScriptedPerson())
        guard case .emptyRequest = result.outcome else { Issue.record("\(result.outcome)"); return }
        #expect(result.run == nil)
    }

    /// With a model: a request nothing covers is not planned, nor is one given `-i` values; both
    /// before the model is called.
    @Test func theModelIsNotAskedForWhatNothingCoversNorWithInputTexts() async throws {
        let model = ScriptedModel(contents: [ModelPlanningTests.good])
        let planner = Planner(client: model, checker: shippedChecker, prompt: berlinPrompt)
        let uncovered = try await respond("book a flight to Paris", ScriptedPerson(), planner: planner)
        guard case .outOfScope = uncovered.outcome else { Issue.record("\(uncovered.outcome)"); return }
        let options = AgentFlow.Options(inputTexts: [AgentFlow.InputText(key: "title", text: "x")])
        let withInputs = try await respond("summarize https://example.com and save it as a note", ScriptedPerson(), planner: planner, options: options)
        guard case .inputsForPlan = withInputs.outcome else { Issue.record("\(withInputs.outcome)"); return }
        #expect(model.requests.isEmpty)
    }

    @Test func aModelPlanWithActionsIsApprovedThenRun() async throws {
        let model = ScriptedModel(contents: [ModelPlanningTests.good])
        let planner = Planner(client: model, checker: shippedChecker, prompt: berlinPrompt)
        let runner = RecordingRunner(.succeeded(["id": "n1"]))
        let person = ScriptedPerson(confirmation: .answer(true))
        let result = try await respond("summarize https://example.com and save it as a note", person, runner: runner, planner: planner)
        guard case .ran(.succeeded) = result.outcome else { Issue.record("\(result.outcome)"); return }
        #expect(person.asked.withLock { $0 } == ["approve notes.create"])
        #expect(result.decision.layer == .plan)
        #expect(result.decision.plan?.count == 2)
        #expect(runner.runs.withLock { $0.map(\.layer) } == [.plan])
    }
}
