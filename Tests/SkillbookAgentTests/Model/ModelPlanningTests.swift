import Foundation
import SkillbookAgent
import SkillbookCore
import SkillbookSkills
import SkillbookTesting
import Synchronization
import Testing
import SkillbookSystem

/// The planner and the real HTTP client against a chat-completions server on 127.0.0.1 that
/// answers from a script.
@Suite struct ModelPlanningTests {
    static let request = "summarize https://example.com and save it as a note"
    static let good = #"{"steps":[{"id":"page","skill":"web.summary","with":{"url":"https://example.com"}},{"id":"save","skill":"notes.create","with":{"title":"${{ steps.page.output.title }}","body":"${{ steps.page.output.first_paragraph }}"}}]}"#
    static let unknownSkill = #"{"steps":[{"id":"page","skill":"web.search","with":{"query":"example.com"}}]}"#
    static let wrongTypes = #"{"steps":[{"id":"ls","skill":"notes.list","with":{"limit":"many"}}]}"#

    /// Serves `answers` in order on `/v1/chat/completions` (the last one again when they run out).
    static func withModel<T>(
        _ answers: [LocalHTTPServer.Response], budget: PlanningBudget = PlanningBudget(samples: 1),
        _ body: (Planner, LocalHTTPServer) async throws -> T
    ) async throws -> T {
        let queue = Mutex(answers)
        return try await withLocalHTTPServer { server in
            server.route("/v1/chat/completions") { _ in
                queue.withLock { queue in queue.count > 1 ? queue.removeFirst() : queue[0] }
            }
            let client = OpenAIChatClient(http: SystemHTTPClient(), baseURL: URL(string: server.url("/v1"))!, model: "qwen", apiKey: "sk-test-123")
            let planner = Planner(client: client, checker: shippedChecker, prompt: berlinPrompt, budget: budget)
            return try await body(planner, server)
        }
    }

    static func content(_ text: String) -> LocalHTTPServer.Response {
        .text(completionBody(content: text), contentType: "application/json")
    }

    static func plan(_ planner: Planner) async -> Planner.Report {
        await planner.plan(request, offers: offers("web.summary", "notes.create", "notes.list", "files.list"))
    }

    func steps(_ report: Planner.Report) -> [String]? {
        guard case .plan(let checked) = report.outcome else { return nil }
        return checked.plan.steps.map(\.target)
    }

    @Test func aStructuredPlanIsCheckedAndKept() async throws {
        try await Self.withModel([Self.content(Self.good)]) { planner, server in
            let report = await Self.plan(planner)
            #expect(steps(report) == ["web.summary", "notes.create"])
            #expect(report.calls == 1)
            #expect(report.tokens == 120)
            let sent = try JSONText.decode(try #require(server.requests.first).text)
            #expect(sent["model"] == "qwen")
            #expect(sent["temperature"]?.doubleValue == 0)
            #expect(sent["response_format"]?["type"] == "json_schema")
            #expect(sent["response_format"]?["json_schema"]?["name"] == "plan")
            #expect(sent["response_format"]?["json_schema"]?["strict"] == true)
            #expect(sent["response_format"]?["schema"] == nil)
            #expect(server.requests.first?.header("Authorization") == "Bearer sk-test-123")
            #expect(server.requests.first?.path == "/v1/chat/completions")
        }
    }

    @Test func toolCallsAreAcceptedAsAPlan() async throws {
        let body = toolCallBody([
            ("web.summary", #"{"url":"https://example.com"}"#),
            ("notes.create", #"{"title":"${{ steps.s1.output.title }}"}"#),
        ])
        try await Self.withModel([.text(body, contentType: "application/json")]) { planner, _ in
            let report = await Self.plan(planner)
            #expect(steps(report) == ["web.summary", "notes.create"])
        }
    }

    @Test func fencedJSONWithProseAndTrueStringsIsAccepted() async throws {
        let text = "Here you go:\n```json\n{\"steps\":[{\"id\":\"ls\",\"skill\":\"files.list\",\"with\":{\"root\":\".\",\"recursive\":\"true\",}}]}\n```\nDone."
        try await Self.withModel([Self.content(text)]) { planner, _ in
            let report = await Self.plan(planner)
            guard case .plan(let checked) = report.outcome else {
                Issue.record("not a plan: \(report.outcome)")
                return
            }
            #expect(checked.plan.steps[0].with["recursive"] == true)
        }
    }

    @Test func malformedJSONIsSampledAgainAtAHigherTemperature() async throws {
        try await Self.withModel([Self.content(#"{"steps": [{"id": "page", "skill": "#), Self.content(Self.good)]) { planner, server in
            let report = await Self.plan(planner)
            #expect(steps(report) == ["web.summary", "notes.create"])
            #expect(report.calls == 2)
            let temperatures = try server.requests.map { try JSONText.decode($0.text)["temperature"]?.doubleValue }
            #expect(temperatures == [0.0, 0.8])
        }
    }

    @Test func anUnknownSkillIsRepairedWithTheDiagnostics() async throws {
        try await Self.withModel([Self.content(Self.unknownSkill), Self.content(Self.unknownSkill), Self.content(Self.good)]) {
            planner, server in
            let report = await Self.plan(planner)
            #expect(steps(report) == ["web.summary", "notes.create"])
            #expect(report.calls == 3)
            let repair = try JSONText.decode(try #require(server.requests.last).text)
            let messages = try #require(repair["messages"]?.arrayValue)
            try #require(messages.count == 4, "the repair is the question, the answer and the problems")
            #expect(messages[2]["role"] == "assistant")
            #expect(messages[2]["content"] == .string(Self.unknownSkill))
            #expect(
                messages[3]["content"]
                    == "That plan has these problems:\n- step 'page' uses unknown skill 'web.search'; did you mean 'web.fetch'?\nAnswer with the corrected plan, as JSON only.")
        }
    }

    @Test func wrongParameterTypesThatStayWrongAreRefused() async throws {
        try await Self.withModel([Self.content(Self.wrongTypes)]) { planner, _ in
            let report = await Self.plan(planner)
            guard case .refused(let reason, let diagnostics) = report.outcome else {
                Issue.record("not refused: \(report.outcome)")
                return
            }
            #expect(reason == "the model's plan did not pass the checker after a repair")
            #expect(diagnostics.first == "step 'ls' parameter 'limit' expects integer, got string")
            // Then what was tried, and what the person can do instead.
            #expect(diagnostics.count == 3)
            #expect(diagnostics[1].hasPrefix("tried 3 model calls in "))
            #expect(
                diagnostics[1].hasSuffix(
                    "temperature 0, full schema: a plan that failed the checks; temperature 0.8, full schema: a plan that failed the checks; "
                        + "repair at temperature 0, full schema: a plan that failed the checks"))
            #expect(diagnostics[2] == Planner.refusalHint)
            #expect(report.calls == 3)
        }
    }

    /// Issue 26: an answer that cannot be read is asked again with the simpler schema, not repaired
    /// (there is no plan to repair); still unreadable, it is refused, saying what was tried.
    @Test func anAnswerThatCannotBeReadIsAskedWithTheSimpleSchemaThenRefused() async throws {
        try await Self.withModel([Self.content("I cannot do that.")], budget: PlanningBudget(samples: 0)) { planner, server in
            let report = await Self.plan(planner)
            guard case .refused(let reason, let diagnostics) = report.outcome else {
                Issue.record("not refused: \(report.outcome)")
                return
            }
            #expect(reason == "the model's answers could not be read as a plan")
            #expect(diagnostics.first == "the model's answer holds no JSON object: 'I cannot do that.'")
            #expect(diagnostics[1].hasPrefix("tried 2 model calls in "))
            #expect(
                diagnostics[1].hasSuffix(
                    "temperature 0, full schema: the model's answer holds no JSON object: 'I cannot do that.'; "
                        + "temperature 0, simple schema: the model's answer holds no JSON object: 'I cannot do that.'"))
            #expect(report.calls == 2)
            #expect(report.attempts.map(\.schema) == [.full, .simple])
            let kinds = try server.requests.map { try Self.schemaKind($0) }
            #expect(kinds == ["full", "simple"])
        }
    }

    /// The answer schema a request was sent with: `simple` (`skill` an enum of ids), `full`
    /// (`skill` a const per offer), `skeleton` (`prefixItems`), or `sequence` (ids only).
    static func schemaKind(_ request: LocalHTTPServer.Request) throws -> String {
        let schema = try JSONText.decode(request.text)["response_format"]?["json_schema"]?["schema"]
        let steps = schema?["anyOf"]?.arrayValue?.first?["properties"]?["steps"]
        if steps?["prefixItems"] != nil { return "skeleton" }
        if steps?["items"]?["enum"] != nil { return "sequence" }
        if steps?["items"]?["properties"]?["skill"]?["enum"] != nil { return "simple" }
        if steps?["items"]?["anyOf"]?.arrayValue?.first?["properties"]?["skill"]?["const"] != nil { return "full" }
        return "unknown"
    }

    /// Issue 26, class 11: llama.cpp's HTTP 500 when it cannot fit the model's output to the schema,
    /// then an answer of code fences, then a plan: sampled after the 500, the simpler schema after
    /// the garbage, and the plan is kept.
    @Test func aServerErrorThenGarbageThenAPlanIsRetriedWithSamplingThenTheSimpleSchema() async throws {
        let mismatch = LocalHTTPServer.Response.text(
            #"{"error":{"code":500,"message":"the model produced output that does not match the expected JSON format","type":"server_error"}}"#,
            status: 500, contentType: "application/json")
        let fences = Self.content(String(repeating: "```\n", count: 40))
        try await Self.withModel([mismatch, fences, Self.content(Self.good)]) { planner, server in
            let report = await Self.plan(planner)
            #expect(steps(report) == ["web.summary", "notes.create"])
            #expect(report.calls == 3)
            let sent = try server.requests.map { try JSONText.decode($0.text) }
            #expect(sent.map { $0["temperature"]?.doubleValue } == [0, 0.8, 0])
            let kinds = try server.requests.map { try Self.schemaKind($0) }
            #expect(kinds == ["full", "full", "simple"])
            #expect(report.attempts.map(\.schema) == [.full, .full, .simple])
            #expect(report.attempts.map(\.temperature) == [0, 0.8, 0])
            guard report.attempts.count == 3, case .serverError(let why) = report.attempts[0].result else {
                Issue.record("not a server error first: \(report.attempts)")
                return
            }
            #expect(why.hasPrefix("HTTP 500: "))
            #expect(why.contains("does not match the expected JSON format"))
            guard case .unreadable = report.attempts[1].result else {
                Issue.record("not unreadable second: \(report.attempts[1])")
                return
            }
            #expect(report.attempts[2].result == .plan)
            // The simpler schema: free steps, `skill` one of the offered ids, `with` any object.
            let simple = try #require(sent[2]["response_format"]?["json_schema"]?["schema"]?["anyOf"]?.arrayValue?.first)
            let item = simple["properties"]?["steps"]?["items"]
            #expect(item?["properties"]?["skill"]?["enum"] == ["web.summary", "notes.create", "notes.list", "files.list"])
            #expect(item?["properties"]?["with"] == ["type": "object"])
            #expect(simple["properties"]?["steps"]?["maxItems"] == 3)
        }
    }

    /// A request the time left cannot hold is not sent: after a call of about 3 s, 2 s of a 5 s
    /// budget are left, so the plan that failed is refused after one call, not after a sample
    /// cut off by the budget.
    @Test func aCallTheTimeLeftCannotHoldIsNotStarted() async throws {
        try await Self.withModel([Self.content(Self.unknownSkill).delayed(by: 3)], budget: PlanningBudget(maxSeconds: 5, samples: 2)) {
            planner, server in
            let report = await Self.plan(planner)
            guard case .refused(let reason, let diagnostics) = report.outcome else {
                Issue.record("not refused: \(report.outcome)")
                return
            }
            #expect(reason.hasPrefix("the model's plan did not pass the checker; planning stopped: "))
            #expect(server.requests.count == 1)
            #expect(report.calls == 1)
            #expect(diagnostics.first == "step 'page' uses unknown skill 'web.search'; did you mean 'web.fetch'?")
        }
    }

    @Test func aClarifyingQuestionIsPassedOn() async throws {
        try await Self.withModel([Self.content(#"{"question": "Which page should I summarize?"}"#)]) { planner, _ in
            let report = await Self.plan(planner)
            guard case .question(let question) = report.outcome else {
                Issue.record("not a question: \(report.outcome)")
                return
            }
            #expect(question == "Which page should I summarize?")
        }
    }

    @Test func aSlowModelTimesOutWithinTheBudget() async throws {
        try await Self.withModel([Self.content(Self.good).delayed(by: 120)], budget: PlanningBudget(maxSeconds: 1, samples: 1)) {
            planner, _ in
            let started = ContinuousClock.now
            let report = await Self.plan(planner)
            guard case .failed(let message) = report.outcome else {
                Issue.record("not failed: \(report.outcome)")
                return
            }
            #expect(message == "the model did not answer within the planning budget of 1s")
            // A two-minute answer against a one-second budget; 60 s leaves room for a starved machine.
            #expect(ContinuousClock.now - started < .seconds(60))
            #expect(report.calls == 1)
        }
    }

    @Test func anHTTPErrorIsReported() async throws {
        try await Self.withModel([.status(429, "slow down")]) { planner, server in
            let report = await Self.plan(planner)
            guard case .failed(let message) = report.outcome else {
                Issue.record("not failed: \(report.outcome)")
                return
            }
            #expect(message == "the model could not be asked: \(server.url("/v1/chat/completions")) answered HTTP 429: slow down")
            #expect(!message.contains("sk-test-123"))
            #expect(server.requests.count == 1)
        }
    }

    /// A 500 on every try (the first, the sample, the simpler schema) fails, naming each.
    @Test func anHTTP500OnEveryTryFailsAfterTheSimpleSchema() async throws {
        try await Self.withModel([.status(500, "slow down")]) { planner, server in
            let report = await Self.plan(planner)
            guard case .failed(let message) = report.outcome else {
                Issue.record("not failed: \(report.outcome)")
                return
            }
            #expect(message.hasPrefix("the model could not be asked: \(server.url("/v1/chat/completions")) answered HTTP 500: slow down; tried 3 model calls in "))
            #expect(
                message.hasSuffix(
                    "temperature 0, full schema: HTTP 500: slow down; temperature 0.8, full schema: HTTP 500: slow down; "
                        + "temperature 0, simple schema: HTTP 500: slow down"))
            #expect(!message.contains("sk-test-123"))
            let kinds = try server.requests.map { try Self.schemaKind($0) }
            #expect(kinds == ["full", "full", "simple"])
        }
    }

    @Test func anOversizedAnswerIsNotRead() async throws {
        let huge = LocalHTTPServer.Response(
            headers: [("Content-Type", "application/json")], body: .repeating(Array("x".utf8), count: 3 << 20))
        try await Self.withModel([huge]) { planner, _ in
            let report = await Self.plan(planner)
            guard case .failed(let message) = report.outcome else {
                Issue.record("not failed: \(report.outcome)")
                return
            }
            #expect(message == "the model could not be asked: the model's answer is larger than 1048576 bytes; it was not read")
        }
    }

    @Test func budgetsOfCallsAndTokensAreEnforced() async throws {
        try await Self.withModel([Self.content(Self.unknownSkill)], budget: PlanningBudget(maxCalls: 1, samples: 2)) { planner, server in
            let report = await Self.plan(planner)
            guard case .refused(let reason, _) = report.outcome else {
                Issue.record("not refused: \(report.outcome)")
                return
            }
            #expect(reason == "the model's plan did not pass the checker; planning stopped: the budget of 1 model call is spent")
            #expect(server.requests.count == 1)
        }
        try await Self.withModel([Self.content(Self.unknownSkill)], budget: PlanningBudget(maxTokens: 200, samples: 2)) { planner, server in
            let report = await Self.plan(planner)
            guard case .refused(let reason, _) = report.outcome else {
                Issue.record("not refused: \(report.outcome)")
                return
            }
            #expect(reason == "the model's plan did not pass the checker; planning stopped: the budget of 200 tokens is spent (240 used)")
            #expect(server.requests.count == 2)
        }
    }
}
