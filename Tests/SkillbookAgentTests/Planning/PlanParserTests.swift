import SkillbookAgent
import SkillbookCore
import Testing

@Suite struct PlanParserTests {
    let summaryPlan = Plan(steps: [Plan.Step(id: "page", target: "web.summary", with: ["url": "https://example.com"])])

    func parse(_ content: String) throws -> ModelAnswer {
        try PlanParser.parse(ChatResponse(content: content))
    }

    @Test func readsAPlainJSONPlan() throws {
        #expect(try parse(#"{"steps":[{"id":"page","skill":"web.summary","with":{"url":"https://example.com"}}]}"#) == .plan(summaryPlan))
    }

    @Test func readsAFencedPlanWithProseAroundIt() throws {
        let content = """
            Sure! Here is the plan:
            ```json
            {"steps": [{"id": "page", "skill": "web.summary", "with": {"url": "https://example.com"}}]}
            ```
            Let me know if you need anything else.
            """
        #expect(try parse(content) == .plan(summaryPlan))
    }

    @Test func readsJSONInProseWithTrailingCommas() throws {
        let content = #"The plan is {"steps": [{"id": "page", "skill": "web.summary", "with": {"url": "https://example.com",},},],} — done."#
        #expect(try parse(content) == .plan(summaryPlan))
    }

    /// Found by the `plan-output` fuzz harness (issue 28): `[]` (here, the first JSON in the
    /// text) was a plan of no steps, written as `steps:` with nothing after it, which reads back
    /// as null. It is refused as what it is; an empty plan's text still holds a list.
    @Test func anEmptyListOfStepsIsRefusedAndAnEmptyPlanIsWrittenAsAList() throws {
        #expect(throws: PlanParser.Failure(message: "the model's answer is an empty list of steps")) { try parse("[]") }
        #expect(throws: PlanParser.Failure(message: "the model's answer is an empty list of steps")) { try parse("Nothing to do: [] — sorry.") }
        let text = PlanChecker.playbookText(Plan(steps: []), name: "empty", description: "")
        #expect(text == "name: empty\nsteps: []\n")
        let node = try YAMLLoader().load(text, file: "empty.yaml")
        #expect(node?.value["steps"] == .array([]))
    }

    @Test func readsAQuestion() throws {
        #expect(try parse(#"{"question": "Which folder should I tidy?"}"#) == .question("Which folder should I tidy?"))
    }

    @Test func readsToolCallsAsStepsInOrder() throws {
        let response = ChatResponse(
            content: nil,
            toolCalls: [
                .init(name: "web.summary", arguments: #"{"url":"https://example.com"}"#),
                .init(name: "notes.create", arguments: #"{"title":"${{ steps.s1.output.title }}"}"#),
            ])
        let answer = try PlanParser.parse(response)
        #expect(
            answer
                == .plan(
                    Plan(steps: [
                        Plan.Step(id: "s1", target: "web.summary", with: ["url": "https://example.com"]),
                        Plan.Step(id: "s2", target: "notes.create", with: ["title": "${{ steps.s1.output.title }}"]),
                    ])))
    }

    @Test func readsAWholePlanInOneToolCall() throws {
        let response = ChatResponse(
            content: nil,
            toolCalls: [.init(name: "plan", arguments: #"{"steps":[{"id":"page","skill":"web.summary","with":{"url":"https://example.com"}}]}"#)])
        #expect(try PlanParser.parse(response) == .plan(summaryPlan))
    }

    @Test func refusesAnAnswerWithoutJSON() {
        #expect(throws: PlanParser.Failure(message: "the model's answer holds no JSON object: 'I would summarize the page and then save it.'")) {
            try parse("I would summarize the page and then save it.")
        }
        #expect(throws: PlanParser.Failure(message: "the model's answer is empty")) { try parse("  ") }
        #expect(throws: PlanParser.Failure(message: "step 1 of the plan names no skill")) {
            try parse(#"{"steps":[{"id":"a","with":{}}]}"#)
        }
    }
}
