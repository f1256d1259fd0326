import SkillbookAgent
import SkillbookCore
import SkillbookHost
import Synchronization

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
        return .answer(["y", "yes"].contains(answer.trimmingWhiteSpace().lowercased()))
    }

    /// A model's plan is shown; the engine asks at each of its action steps (unless `--yes`).
    func approve(_ run: PendingRun, actions: [Plan.Step]) async -> AgentReply<Bool> {
        flow.yes || console.stdinIsTerminal ? .answer(true) : .unavailable
    }

    func note(_ step: AgentStep) async throws {
        switch step {
        case .understood(let decision):
            if !flow.json { console.writeErr(workspace.secrets.redact(RouteText.understood(decision, inputs: decision.inputs))) }
        case .consulting(let names):
            if !flow.json {
                console.err("Unsure between \(names.joined(separator: ", ")); asking the model (\(flow.host.configuration.model?.model ?? "default model"))…")
            }
        case .planning:
            if !flow.json { console.err("Planning with the model (\(flow.host.configuration.model?.model ?? "default model"))…") }
        case .planned(let checked, let actions):
            if !flow.json { console.writeErr(RouteText.plan(checked.plan, actions: actions)) }
        case .ready(let run, let decision):
            if flow.explain || flow.json {
                console.out(JSONText.encode(workspace.secrets.redact(decision.json)))
                state.withLock { $0.printedDecision = true }
            }
            if let save = flow.save, let route = AgentRoute(run) { try flow.write(route, to: save, workspace: workspace) }
        case .running, .progress:
            break
        }
    }
}
