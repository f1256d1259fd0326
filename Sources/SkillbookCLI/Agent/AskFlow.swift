import Foundation
import SkillbookAgent
import SkillbookCore
import SkillbookHost

/// One `ask`: the agent flow rendered on a terminal (or not): questions on stderr, the decision as
/// JSON on stdout with `--json`/`--explain`, the run through `RunPresenter`, an exit code at the end.
struct AskFlow {
    var host: PlaybookHost
    var invocation: Invocation
    var request: String
    var clock: Matcher.ReferenceTime
    var inputTexts: [(key: String, text: String)]
    var explain: Bool
    var json: Bool
    var yes: Bool
    var save: String?

    var console: Console { invocation.console }
    static let command = "ask"

    func run() async throws -> ExitCode {
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
        if (explain || json) && !terminal.printedDecision { console.out(JSONText.encode(workspace.secrets.redact(decision.json))) }
        switch result.outcome {
        case .unknownInput, .inputsForPlan, .decided:
            return .success
        case .emptyRequest:
            console.err("skillbook: the request is empty: say what you want, e.g. skillbook ask \"list my notes\"")
            return .usage
        case .ambiguous(let question):
            console.err("skillbook: \(question) Say it more precisely, or run one with 'skillbook run'.")
            return .usage
        case .nothingMatched:
            console.err("skillbook: " + decision.nothingMatchedMessage)
            return .usage
        case .needsModel:
            let steps = decision.candidates.map { "\($0.layer.rawValue) \($0.target)" }.joined(separator: ", then ")
            console.err(
                "skillbook: this request needs several steps (\(steps)), and no model is configured to plan them.\n"
                    + decision.nothingMatchedMessage.split(separator: "\n").suffix(1).joined())
            return .usage
        case .outOfScope:
            console.err("skillbook: " + decision.outOfScopeMessage)
            return .usage
        case .missingInputs(let missing, let question):
            throw CommandFailure(
                "\(decision.layer.rawValue) '\(decision.target ?? "")' needs \(missing.map { "'\($0)'" }.joined(separator: ", ")): \(question)",
                exitCode: .usage, hint: "Give it with \(missing.map { "-i \($0)=VALUE" }.joined(separator: " ")); nothing ran.")
        case .noAnswer:
            console.err("skillbook: no answer; nothing ran")
            return .usage
        case .refused(let reason, let diagnostics):
            throw CommandFailure(
                "\(reason); nothing ran", exitCode: .usage,
                hint: diagnostics.isEmpty ? nil : diagnostics.map { "  - \($0)" }.joined(separator: "\n"))
        case .modelAsks(let question):
            console.err("skillbook: the model asks: \(question)")
            return .usage
        case .modelFailed(let message):
            throw CommandFailure("\(message); nothing ran", exitCode: .failure)
        case .needsConfirmation(let actions):
            throw CommandFailure(
                "\(actions.map { "'\($0.target)'" }.joined(separator: ", ")) "
                    + "change\(actions.count == 1 ? "s" : "") something and need\(actions.count == 1 ? "s" : "") confirmation; "
                    + "no terminal to ask on: pass --yes. Nothing ran.", exitCode: .usage)
        case .declined:
            console.err("Declined; nothing ran.")
            return .failure
        case .ran:
            return try runner.end.exitCode()
        }
    }

    /// Writes the route as a playbook named after the file; refuses an existing file.
    func write(_ route: AgentRoute, to path: String, workspace: AgentWorkspace) throws {
        let url = host.file(path)
        let name = PlaybookHost.playbookName(url.deletingPathExtension().lastPathComponent)
        let text = route.savedText(
            name: name, description: request, workspace: workspace, file: url, workspaceRoot: host.configuration.workspaceRoot)
        do {
            try Data(text.utf8).write(to: url, options: .withoutOverwriting)
        } catch {
            throw UsageError(message: "--save: cannot write \(path): \(error.localizedDescription)", command: Self.command)
        }
        if !json { console.err("Saved as playbook '\(name)' in \(path) (skillbook run \(path)).") }
    }
}
