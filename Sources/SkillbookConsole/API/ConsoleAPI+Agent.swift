import Foundation
import SkillbookAgent
import SkillbookCore
import SkillbookHost

/// `POST /api/v1/agent/explain` and `POST /api/v1/agent/ask`: one request through the agent flow
/// `skillbook ask` uses (`AgentFlow`: route by the playbooks' triggers and the skills' examples,
/// else plan with the configured model; check), without a conversation. `explain` decides only:
/// nothing runs, nothing is journaled (`ask --explain --json`). `ask` runs what was decided as a
/// console run (trigger `console`, events at `/api/v1/events?run=ID`, interrupted when the console
/// stops), once confirmed: a run with an action (anything but a read-only query) needs
/// `"approve": true` in the body, as `ask` needs `--yes` without a terminal.
///
/// Body: `{"request": "…", "inputs": {"name": "text"}, "approve": false, "now": "ISO 8601",
/// "timezone": "Europe/Berlin"}`; only `request` is required. Inputs are given as text, as
/// `ask -i name=text` gives them, and coerced to their types. Secret inputs are masked in every answer.
extension ConsoleAPI {
    func agentRoute(_ request: ServerRequest, _ route: [String]) async -> ServerResponse? {
        guard request.method == "POST" else { return nil }
        switch route {
        case ["agent", "explain"]: return await agent(request, running: false)
        case ["agent", "ask"]: return await agent(request, running: true)
        default: return nil
        }
    }

    static let agentRoutes = [["agent", "explain"], ["agent", "ask"]]

    /// What the body asks for.
    private struct AgentQuery {
        var request: String
        var inputs: [AgentFlow.InputText]
        var approve: Bool
        var clock: Matcher.ReferenceTime
    }

    private func agentQuery(_ request: ServerRequest) -> Result<AgentQuery, ResponseError> {
        let body: ValueObject
        switch Self.jsonObject(request) {
        case .success(let object): body = object
        case .failure(let failure): return .failure(failure)
        }
        func refuse(_ message: String, _ status: Int = 400) -> Result<AgentQuery, ResponseError> {
            .failure(ResponseError(json(status, ConsoleJSON.error(message))))
        }
        guard case .string(let text)? = body["request"] else { return refuse("the body needs \"request\": what you want, as text") }
        guard text.count <= ChatLimits.messageLength else {
            return refuse("\"request\" has \(text.count) characters; at most \(ChatLimits.messageLength) are taken", 413)
        }
        var inputs: [AgentFlow.InputText] = []
        switch body["inputs"] {
        case nil, .null?: break
        case .object(let given)?:
            for (key, value) in given.sorted(by: { $0.key < $1.key }) {
                guard case .string(let text) = value else {
                    return refuse("\"inputs\".\(key) must be text (as 'skillbook ask -i \(key)=TEXT' gives it); it is coerced to the input's type")
                }
                inputs.append(AgentFlow.InputText(key: key, text: text))
            }
        default: return refuse("\"inputs\" must be an object of input names to text")
        }
        var approve = false
        switch body["approve"] {
        case nil, .null?: break
        case .bool(let value)?: approve = value
        default: return refuse("\"approve\" must be true or false")
        }
        var zone = host.configuration.timeZone
        switch body["timezone"] {
        case nil, .null?: break
        case .string(let name)?:
            guard let named = TimeZone(identifier: name) else { return refuse("\"timezone\": unknown time zone '\(name)' (an IANA name such as Europe/Berlin)") }
            zone = named
        default: return refuse("\"timezone\" must be text, an IANA name such as Europe/Berlin")
        }
        var now = Date()
        switch body["now"] {
        case nil, .null?: break
        case .string(let text)?:
            guard let parsed = try? Date.ISO8601FormatStyle(timeZone: zone).parse(text) else {
                return refuse("\"now\": '\(text)' is not an ISO 8601 time with its offset, such as 2026-12-01T09:15:00+01:00")
            }
            now = parsed
        default: return refuse("\"now\" must be text, an ISO 8601 time")
        }
        return .success(AgentQuery(request: text, inputs: inputs, approve: approve, clock: Matcher.ReferenceTime(now: now, timeZone: zone)))
    }

    private func agent(_ request: ServerRequest, running: Bool) async -> ServerResponse {
        let query: AgentQuery
        switch agentQuery(request) {
        case .success(let found): query = found
        case .failure(let refusal): return refusal.response
        }
        let workspace: AgentWorkspace
        do {
            workspace = try await host.agentWorkspace()
        } catch {
            return failure(error)
        }
        var configuration = host.configuration
        configuration.timeZone = query.clock.timeZone
        let host = PlaybookHost(configuration, mcpServers: self.host.mcpServers)
        // Decided only: the runner is never called (`ask` below launches the run as a console run).
        let runner = HostPlanRunner(host: host, workspace: workspace, clock: query.clock, trigger: .console, request: { query.request })
        let flow = host.agentFlow(workspace, runner: runner)
        let result: AgentFlow.Result
        do {
            result = try await flow.respond(
                to: query.request, clock: query.clock, options: AgentFlow.Options(inputTexts: query.inputs, decideOnly: true),
                asking: NobodyToAsk())
        } catch {
            return failure(error)
        }
        let masked = AgentMasking(workspace: workspace)
        var answer: ValueObject = ["decision": masked.decision(result.decision)]
        let actions = result.run.map { flow.actions(of: $0, clock: query.clock) } ?? []
        if result.run != nil { answer["actions"] = .array(actions.map { ["step": .string($0.id), "target": .string($0.target)] }) }
        let (name, status, message) = Self.describe(result)
        answer["outcome"] = .string(name)
        if let message { answer["message"] = .string(message) }
        if case .missingInputs(let missing, let question) = result.outcome {
            answer["missing"] = .array(missing.map(Value.string))
            answer["question"] = .string(question)
        }
        if case .refused(_, let diagnostics) = result.outcome, !diagnostics.isEmpty { answer["diagnostics"] = .array(diagnostics.map(Value.string)) }
        guard running, case .decided = result.outcome, let run = result.run else {
            return json(running ? status : (status == 400 ? 400 : 200), .object(answer))
        }
        guard actions.isEmpty || query.approve else {
            answer["outcome"] = "needs_confirmation"
            answer["message"] = .string(
                "\(actions.map { "'\($0.target)'" }.joined(separator: ", ")) change\(actions.count == 1 ? "s" : "") something: "
                    + "send the request again with \"approve\": true to run it. Nothing ran.")
            return json(409, .object(answer))
        }
        guard let route = runner.route(run) else { return json(409, ConsoleJSON.error("what the agent decided cannot be run")) }
        var confirmed = host.configuration
        // The approval given here is the confirmation of every action the run asks for.
        if query.approve { confirmed.confirmation = .approveAll }
        let runHost = PlaybookHost(confirmed, mcpServers: host.mcpServers)
        do {
            let prepared = try await runHost.prepareAgentRun(route, request: query.request, workspace: workspace, trigger: .console)
            let launched = await launch(prepared, on: runHost)
            guard launched.status == 202 else { return launched }
            answer["outcome"] = "started"
            answer["run"] = .string(prepared.runID)
            answer["url"] = .string("/runs/\(prepared.runID)")
            return json(202, .object(answer))
        } catch {
            return failure(error)
        }
    }

    /// The outcome's name in answers, the status `ask` answers with, and a message for a person.
    private static func describe(_ result: AgentFlow.Result) -> (String, Int, String?) {
        let decision = result.decision
        switch result.outcome {
        case .emptyRequest: return ("empty_request", 400, "the request is empty: say what you want, e.g. \"list my notes\"")
        case .unknownInput(let key, let suggestion):
            let about = suggestion.map { "; did you mean '\($0)'?" } ?? ""
            return ("unknown_input", 400, "\(decision.layer.rawValue) '\(decision.target ?? "")' has no input '\(key)'\(about)")
        case .inputsForPlan: return ("inputs_for_plan", 400, "\"inputs\" are for a request that routes to a playbook or skill; this one is planned by the model")
        case .ambiguous(let question): return ("ambiguous", 422, question)
        case .nothingMatched: return ("nothing_matched", 422, decision.nothingMatchedMessage)
        case .needsModel: return ("needs_model", 422, "this request needs several steps, and no model is configured to plan them")
        case .outOfScope: return ("out_of_scope", 422, decision.outOfScopeMessage)
        case .missingInputs(let missing, _):
            return ("missing_inputs", 422, "\(decision.layer.rawValue) '\(decision.target ?? "")' needs \(missing.map { "'\($0)'" }.joined(separator: ", "))")
        case .refused(let reason, _): return ("refused", 422, "\(reason); nothing ran")
        case .modelAsks(let question): return ("model_asks", 422, question)
        case .modelFailed(let message): return ("model_failed", 502, "\(message); nothing ran")
        case .decided: return ("decided", 200, nil)
        // Not reached when deciding only: nobody is asked, nothing runs.
        case .noAnswer: return ("no_answer", 422, nil)
        case .needsConfirmation: return ("needs_confirmation", 409, nil)
        case .declined: return ("declined", 409, nil)
        case .ran: return ("ran", 200, nil)
        }
    }
}

/// Nobody is asked through the API: every question is unavailable, so the flow reports it.
private struct NobodyToAsk: AgentAsking {
    func input(_ question: AgentInputQuestion) async -> AgentReply<String> { .unavailable }
    func confirm(_ run: PendingRun, actions: [Plan.Step]) async -> AgentReply<Bool> { .unavailable }
    func approve(_ run: PendingRun, actions: [Plan.Step]) async -> AgentReply<Bool> { .unavailable }
}

/// The decision as the API shows it: the values of secret inputs of its target masked.
private struct AgentMasking {
    var workspace: AgentWorkspace

    func decision(_ decision: RouteDecision) -> Value {
        guard case .object(var object) = decision.json, let target = decision.target,
            let routeTarget = workspace.matcher.targets.first(where: { $0.name == target })
        else { return decision.json }
        var inputs = decision.inputs
        for key in inputs.keys where routeTarget.schema(of: key)?.secret == true { inputs[key] = .string(Redactor.mask) }
        object["inputs"] = .object(inputs)
        return .object(object)
    }
}
