import Foundation
import SkillbookAgent
import SkillbookCore
import SkillbookHost
import SkillbookRuntime

/// One `ask`: decide, complete the inputs, plan with the model when needed, save, confirm, run.
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

    func run() async throws -> ExitCode {
        let workspace = try await host.agentWorkspace(onNotice: invocation.notices())
        var decision = workspace.decide(request, clock: clock)
        let route: AgentRoute
        switch decision.layer {
        case .playbook, .skill:
            var inputs = try given(decision, workspace: workspace)
            var missing = decision.missing.filter { inputs[$0] == nil }
            decision.inputs = inputs
            decision.missing = missing
            if missing.isEmpty { decision.question = nil }
            if !missing.isEmpty && !explain && !json && console.stdinIsTerminal {
                if !json { console.writeErr(RouteText.understood(decision, inputs: inputs)) }
                guard let asked = await InputPrompt(console: console).ask(missing, of: decision, in: workspace, clock: clock) else {
                    console.err("skillbook: no answer; nothing ran")
                    return .usage
                }
                for (key, value) in asked { inputs[key] = value }
                decision.inputs = inputs
                decision.question = nil
                missing = []
            }
            if explain || json { console.out(JSONText.encode(decision.json)) }
            if let first = missing.first {
                if explain { return .success }
                let question = decision.question ?? "What should '\(first)' be?"
                throw CommandFailure(
                    "\(decision.layer.rawValue) '\(decision.target ?? "")' needs \(missing.map { "'\($0)'" }.joined(separator: ", ")): \(question)",
                    exitCode: .usage, hint: "Give it with \(missing.map { "-i \($0)=VALUE" }.joined(separator: " ")); nothing ran.")
            }
            guard let chosen = host.route(decision, inputs: inputs, workspace: workspace, clock: clock) else { return .usage }
            if case .plan(let checked, _) = chosen, !checked.passes {
                throw refusal("the \(decision.target ?? "") call does not check", checked.diagnostics.map(\.message))
            }
            if !json { console.writeErr(RouteText.understood(decision, inputs: inputs)) }
            route = chosen
        case .plan, .none:
            guard host.configuration.model != nil, decision.question == nil || decision.layer == .plan else {
                if explain || json { console.out(JSONText.encode(decision.json)) }
                if explain { return .success }
                console.err("skillbook: " + (decision.question.map { "\($0) Say it more precisely, or run one with 'skillbook run'." } ?? noRoute(decision)))
                return .usage
            }
            if decision.layer == .none, !decision.coversSomePart {
                if explain || json { console.out(JSONText.encode(decision.json)) }
                if explain { return .success }
                console.err("skillbook: " + outOfScope(decision))
                return .usage
            }
            if !inputTexts.isEmpty {
                throw UsageError(message: "-i is for a request that routes to a playbook or skill; this one is planned by the model", command: Self.command)
            }
            if !json { console.err("Planning with the model (\(host.configuration.model?.model ?? "default model"))…") }
            guard let report = await host.planWithModel(request, workspace: workspace, clock: clock) else { return .usage }
            switch report.outcome {
            case .plan(let checked):
                decision.layer = .plan
                decision.target = nil
                decision.inputs = [:]
                decision.plan = checked.plan.json
                decision.question = nil
                route = .plan(checked, fromModel: true)
                if explain || json { console.out(JSONText.encode(decision.json)) }
                if !json {
                    let actions = Set(route.actions(in: workspace).map(\.id))
                    console.writeErr(RouteText.plan(checked.plan, actions: actions))
                }
            case .question(let question):
                decision.layer = .plan
                decision.plan = nil
                decision.question = question
                if explain || json { console.out(JSONText.encode(decision.json)) }
                if explain { return .success }
                console.err("skillbook: the model asks: \(question)")
                return .usage
            case .refused(let reason, let diagnostics):
                if explain || json { console.out(JSONText.encode(decision.json)) }
                throw refusal(reason, diagnostics)
            case .failed(let message):
                if explain || json { console.out(JSONText.encode(decision.json)) }
                throw CommandFailure("\(message); nothing ran", exitCode: .failure)
            }
        }
        if let save { try write(route, to: save, workspace: workspace) }
        if explain { return .success }
        return try await perform(route, workspace: workspace)
    }

    /// The captured inputs with `-i` values over them, coerced to the target's schemas.
    func given(_ decision: RouteDecision, workspace: AgentWorkspace) throws -> ValueObject {
        var inputs = decision.inputs
        guard let target = workspace.matcher.targets.first(where: { $0.name == decision.target }) else { return inputs }
        let coercion = Coercion(dates: DateParser(now: clock.now, timeZone: clock.timeZone))
        for (key, text) in inputTexts {
            guard let schema = target.schema(of: key) else {
                let names = target.inputs.map(\.name)
                let suggestion = Suggestion.closest(to: key, in: names).map { "; did you mean '\($0)'?" } ?? ""
                throw UsageError(message: "\(decision.layer.rawValue) '\(target.name)' has no input '\(key)'\(suggestion)", command: Self.command)
            }
            inputs[key] = coercion.coerce(coercion.coerceCommandLine(text, to: schema), to: schema)
        }
        return inputs
    }

    func noRoute(_ decision: RouteDecision) -> String {
        if decision.layer == .plan {
            let steps = decision.candidates.map { "\($0.layer.rawValue) \($0.target)" }.joined(separator: ", then ")
            return "this request needs several steps (\(steps)), and no model is configured to plan them.\n"
                + decision.nothingMatchedMessage.split(separator: "\n").suffix(1).joined()
        }
        return decision.nothingMatchedMessage
    }

    /// No playbook or skill here can do any part of the request: said without asking the model.
    func outOfScope(_ decision: RouteDecision) -> String {
        var lines = ["nothing here can do any part of this request, so the model was not asked to plan it."]
        if !decision.candidates.isEmpty {
            lines.append("nearest: " + decision.candidates.prefix(3).map { "\($0.layer.rawValue) \($0.target)" }.joined(separator: ", "))
        }
        lines.append("'skillbook skills' and 'skillbook list' show what is here.")
        return lines.joined(separator: "\n")
    }

    func refusal(_ reason: String, _ diagnostics: [String]) -> CommandFailure {
        CommandFailure(
            "\(reason); nothing ran", exitCode: .usage,
            hint: diagnostics.isEmpty ? nil : diagnostics.map { "  - \($0)" }.joined(separator: "\n"))
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

    /// Confirms what needs it, then runs on the engine and prints the result.
    func perform(_ route: AgentRoute, workspace: AgentWorkspace) async throws -> ExitCode {
        let actions = route.actions(in: workspace)
        var host = host
        if !actions.isEmpty && !yes {
            guard console.stdinIsTerminal else {
                throw CommandFailure(
                    "\(actions.map { "'\($0.target)'" }.joined(separator: ", ")) "
                        + "change\(actions.count == 1 ? "s" : "") something and need\(actions.count == 1 ? "s" : "") confirmation; "
                        + "no terminal to ask on: pass --yes. Nothing ran.", exitCode: .usage)
            }
            // Layers 1 and 2 ask once for the route shown; a model plan asks at each action step.
            if !route.isModelPlan {
                guard await ask("Run it? [y/N] ") else {
                    console.err("Declined; nothing ran.")
                    return .failure
                }
                var configuration = host.configuration
                configuration.confirmation = .approveAll
                host = PlaybookHost(configuration)
            }
        }
        let prepared = try await host.prepareAgentRun(
            route, request: request, workspace: workspace, inputTexts: [], trigger: "ask", onNotice: invocation.notices())
        let presenter = RunPresenter(host: host, invocation: invocation, json: json)
        let result = await presenter.perform(prepared)
        if !json, result.outputs.isEmpty, result.status == .succeeded || result.status == .succeededWithErrors,
            let last = result.steps.last(where: { $0.output != nil }), let output = last.output
        {
            console.out(JSONText.encode(output, pretty: true))
        }
        return presenter.finish(result)
    }

    func ask(_ question: String) async -> Bool {
        console.writeErr(question)
        guard let answer = await console.readLine() else { return false }
        return ["y", "yes"].contains(answer.trimmingCharacters(in: .whitespaces).lowercased())
    }
}
