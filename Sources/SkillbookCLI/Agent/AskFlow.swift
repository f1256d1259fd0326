import Foundation
import SkillbookAgent
import SkillbookCore
import SkillbookHost
import SkillbookRuntime
import Synchronization

/// One `ask`: the agent flow rendered on a terminal (or not): questions on stderr, the decision as
/// JSON on stdout with `--json`/`--explain`, the run through `RunPresenter`, an exit code at the end.
struct AskFlow {
    var host: PlaybookHost
    var invocation: Invocation
    var request: String
    var clock: Matcher.Clock
    var inputTexts: [(key: String, text: String)]
    var explain: Bool
    var json: Bool
    var yes: Bool
    var save: String?

    var console: Console { invocation.console }
    static let command = "ask"

    func run() async throws -> Int32 {
        let workspace = try await host.agentWorkspace(onNotice: invocation.notices())
        let runner = AskRunner(host: host, invocation: invocation, workspace: workspace, request: request, json: json)
        let terminal = AskTerminal(flow: self, workspace: workspace)
        let options = AgentFlow.Options(inputTexts: inputTexts.map { .init(key: $0.key, text: $0.text) }, decideOnly: explain)
        let result = try await host.agentFlow(workspace, runner: runner).respond(
            to: request, clock: clock, options: options, asking: terminal)
        let decision = result.decision
        switch result.outcome {
        case .unknownInput(let key, let suggestion):
            let about = suggestion.map { "; did you mean '\($0)'?" } ?? ""
            throw UsageError(message: "\(decision.layer.rawValue) '\(decision.target ?? "")' has no input '\(key)'\(about)", command: Self.command)
        case .inputsForPlan:
            throw UsageError(message: "-i is for a request that routes to a playbook or skill; this one is planned by the model", command: Self.command)
        default:
            break
        }
        if (explain || json) && !terminal.printedDecision { console.out(JSONText.encode(decision.json)) }
        switch result.outcome {
        case .unknownInput, .inputsForPlan, .decided:
            return 0
        case .emptyRequest:
            console.err("skillbook: the request is empty: say what you want, e.g. skillbook ask \"list my notes\"")
            return 2
        case .ambiguous(let question):
            console.err("skillbook: \(question) Say it more precisely, or run one with 'skillbook run'.")
            return 2
        case .nothingMatched:
            console.err("skillbook: " + decision.nothingMatchedMessage)
            return 2
        case .needsModel:
            let steps = decision.candidates.map { "\($0.layer.rawValue) \($0.target)" }.joined(separator: ", then ")
            console.err(
                "skillbook: this request needs several steps (\(steps)), and no model is configured to plan them.\n"
                    + decision.nothingMatchedMessage.split(separator: "\n").suffix(1).joined())
            return 2
        case .outOfScope:
            console.err("skillbook: " + decision.outOfScopeMessage)
            return 2
        case .missingInputs(let missing, let question):
            console.err(
                "skillbook: \(console.style("error:", "1;31")) \(decision.layer.rawValue) '\(decision.target ?? "")' needs "
                    + "\(missing.map { "'\($0)'" }.joined(separator: ", ")): \(question)\n"
                    + "Give it with \(missing.map { "-i \($0)=VALUE" }.joined(separator: " ")); nothing ran.")
            return 2
        case .noAnswer:
            console.err("skillbook: no answer; nothing ran")
            return 2
        case .refused(let reason, let diagnostics):
            console.err("skillbook: \(console.style("error:", "1;31")) \(reason); nothing ran")
            for line in diagnostics { console.err("  - \(line)") }
            return 2
        case .modelAsks(let question):
            console.err("skillbook: the model asks: \(question)")
            return 2
        case .modelFailed(let message):
            console.err("skillbook: \(console.style("error:", "1;31")) \(message); nothing ran")
            return 1
        case .needsConfirmation(let actions):
            console.err(
                "skillbook: \(console.style("error:", "1;31")) \(actions.map { "'\($0.target)'" }.joined(separator: ", ")) "
                    + "change\(actions.count == 1 ? "s" : "") something and need\(actions.count == 1 ? "s" : "") confirmation; "
                    + "no terminal to ask on: pass --yes. Nothing ran.")
            return 2
        case .declined:
            console.err("Declined; nothing ran.")
            return 1
        case .ran:
            return try runner.end.exitCode()
        }
    }

    /// Writes the route as a playbook named after the file; refuses an existing file.
    func write(_ route: AgentRoute, to path: String, workspace: AgentWorkspace) throws {
        let url = host.file(path)
        let name = PlaybookHost.playbookName(url.deletingPathExtension().lastPathComponent)
        let text = route.playbookText(name: name, description: request, workspace: workspace)
        do {
            try Data(text.utf8).write(to: url, options: .withoutOverwriting)
        } catch {
            throw UsageError(message: "--save: cannot write \(path): \(error.localizedDescription)", command: Self.command)
        }
        if !json { console.err("Saved as playbook '\(name)' in \(path) (skillbook run \(path)).") }
    }
}

/// The person's side of `ask`: questions on a terminal (none with `--json`, none without a
/// terminal), `--yes` for every confirmation, what was understood and planned on stderr.
final class AskTerminal: AgentAsking {
    let flow: AskFlow
    let workspace: AgentWorkspace
    private let state = Mutex((printedDecision: false, askedInput: false))

    init(flow: AskFlow, workspace: AgentWorkspace) {
        self.flow = flow
        self.workspace = workspace
    }

    var console: Console { flow.console }
    var printedDecision: Bool { state.withLock { $0.printedDecision } }
    var canAsk: Bool { !flow.json && console.stdinIsTerminal }

    func input(_ question: AgentInputQuestion) async -> AgentReply<String> {
        guard canAsk else { return .unavailable }
        if !state.withLock({ $0.askedInput }) {
            state.withLock { $0.askedInput = true }
            console.writeErr(RouteText.understood(question.decision, inputs: question.decision.inputs))
        }
        if let problem = question.problem { console.err("\(problem).") }
        let about = question.schema?.description.map { " (\($0))" } ?? ""
        console.writeErr("\(question.name)\(about): ")
        guard let line = await console.readLine() else { return .ended }
        return .answer(line)
    }

    /// Layers 1 and 2 ask once for the route shown.
    func confirm(_ run: PendingRun, actions: [Plan.Step]) async -> AgentReply<Bool> {
        if flow.yes { return .answer(true) }
        guard console.stdinIsTerminal else { return .unavailable }
        console.writeErr("Run it? [y/N] ")
        guard let answer = await console.readLine() else { return .ended }
        return .answer(["y", "yes"].contains(answer.trimmingCharacters(in: .whitespaces).lowercased()))
    }

    /// A model's plan is shown; the engine asks at each of its action steps (unless `--yes`).
    func approve(_ run: PendingRun, actions: [Plan.Step]) async -> AgentReply<Bool> {
        flow.yes || console.stdinIsTerminal ? .answer(true) : .unavailable
    }

    func note(_ step: AgentStep) async throws {
        switch step {
        case .understood(let decision):
            if !flow.json { console.writeErr(RouteText.understood(decision, inputs: decision.inputs)) }
        case .planning:
            if !flow.json { console.err("Planning with the model (\(flow.host.configuration.model?.model ?? "default model"))…") }
        case .planned(let checked, let actions):
            if !flow.json { console.writeErr(RouteText.plan(checked.plan, actions: actions)) }
        case .ready(let run, let decision):
            if flow.explain || flow.json {
                console.out(JSONText.encode(decision.json))
                state.withLock { $0.printedDecision = true }
            }
            if let save = flow.save, let route = AgentRoute(run) { try flow.write(route, to: save, workspace: workspace) }
        case .running, .progress:
            break
        }
    }
}

/// Runs what `ask` decided through `RunPresenter` (live steps or event lines), keeping its exit code:
/// a playbook or skill the person confirmed with its confirmations approved, a model's plan asking
/// at each action (as the host is configured: on the terminal, or approved by `--yes`).
struct AskRunner: PlanRunning {
    var host: PlaybookHost
    var invocation: Invocation
    var workspace: AgentWorkspace
    var request: String
    var json: Bool
    let end = RunEnd()

    func run(_ run: PendingRun, progress: @escaping @Sendable (Int, Int) async -> Void) async -> RunOutcome {
        guard let route = AgentRoute(run) else { return .failed("nothing to run") }
        var host = host
        if !route.isModelPlan {
            var configuration = host.configuration
            configuration.confirmation = .approveAll
            host = PlaybookHost(configuration)
        }
        let prepared: PreparedRun
        do {
            prepared = try await host.prepareAgentRun(
                route, request: request, workspace: workspace, inputTexts: [], trigger: "ask", onNotice: invocation.notices())
        } catch {
            end.set(.failure(error))
            return .failed("\(error)")
        }
        let presenter = RunPresenter(host: host, invocation: invocation, json: json)
        let result = await presenter.perform(prepared)
        if !json, result.outputs.isEmpty, result.status == .succeeded || result.status == .succeededWithErrors,
            let last = result.steps.last(where: { $0.output != nil }), let output = last.output
        {
            invocation.console.out(JSONText.encode(output, pretty: true))
        }
        end.set(.success(presenter.finish(result)))
        return HostPlanRunner.outcome(of: result)
    }

    /// The exit code of the run, or the error that stopped it before it started.
    final class RunEnd: Sendable {
        private let value = Mutex<Result<Int32, HostError>?>(nil)
        func set(_ result: Result<Int32, HostError>) { value.withLock { $0 = result } }
        func exitCode() throws(HostError) -> Int32 { try value.withLock { $0 }?.get() ?? 1 }
    }
}
