public import SkillbookCore

/// The one agent flow `ask`, `chat` and the console render: decide (with a model, the model
/// chooses where the matcher is unsure: `SecondOpinion`) → complete the inputs (ask for the
/// missing ones, or report them) → route (layers 1 and 2) or plan with the model (layer 3) →
/// check → confirm what changes something (never a read-only query) → run → result.
///
/// The person is asked through an `AgentAsking` port; the host provides the runner and the
/// checker. The flow says nothing itself: its `Outcome` is what a front end words.
public struct AgentFlow: Sendable {
    public let matcher: Matcher
    /// The checker of routes and plans, resolving date phrases against a clock.
    public let checker: @Sendable (Matcher.ReferenceTime) -> PlanChecker
    /// The model planner at a clock; `nil` when no model is configured.
    public let planner: (@Sendable (Matcher.ReferenceTime) -> Planner)?
    /// Every skill and playbook as the model would see them.
    public let offers: [PlanOffer]
    public let runner: any PlanRunning
    /// The secrets of the conversation: each answer to (or value given for) a secret input is added
    /// here, so the planner's requests and the messages shown mask it from then on.
    public let secrets: SecretBook

    public init(
        matcher: Matcher, checker: @escaping @Sendable (Matcher.ReferenceTime) -> PlanChecker,
        planner: (@Sendable (Matcher.ReferenceTime) -> Planner)? = nil, offers: [PlanOffer] = [], runner: any PlanRunning,
        secrets: SecretBook = SecretBook()
    ) {
        self.matcher = matcher
        self.checker = checker
        self.planner = planner
        self.offers = offers
        self.runner = runner
        self.secrets = secrets
    }

    /// How a request is to be taken.
    public struct Options: Sendable {
        /// Inputs given as text (`-i key=value`), over the captured ones, coerced to their schemas.
        public var inputTexts: [InputText]
        /// Stop once decided and checked (`--explain`): nobody is asked, nothing runs.
        public var decideOnly: Bool
        /// The name of a model's plan as a playbook (and in the journal).
        public var planName: String

        public init(inputTexts: [InputText] = [], decideOnly: Bool = false, planName: String = "ask-plan") {
            self.inputTexts = inputTexts
            self.decideOnly = decideOnly
            self.planName = planName
        }
    }

    public struct InputText: Sendable {
        public var key: String
        public var text: String
        public init(key: String, text: String) {
            self.key = key
            self.text = text
        }
    }

    /// How the flow ended. Every case but `ran` means nothing ran.
    public enum Outcome: Sendable {
        /// The request is empty (or only spaces).
        case emptyRequest
        /// An input text names no input of the target; `suggestion` is the closest name.
        case unknownInput(String, suggestion: String?)
        /// Input texts were given for a request the model plans.
        case inputsForPlan
        /// Two candidates are too close to choose; the question asks which.
        case ambiguous(String)
        /// Nothing matched, and no model is configured (`RouteDecision.nothingMatchedMessage`).
        case nothingMatched
        /// Plan-shaped, and no model is configured.
        case needsModel
        /// No part of the request is covered here: the model is not asked.
        case outOfScope
        /// Required inputs nobody could be asked for; the question for the first.
        case missingInputs([String], question: String)
        /// Answering ended before every input was given.
        case noAnswer
        /// The route or the model's plan does not check: the reason and each diagnostic.
        case refused(String, diagnostics: [String])
        /// The model asks a clarifying question instead of planning.
        case modelAsks(String)
        /// The model could not be used (unreachable, over budget).
        case modelFailed(String)
        /// These steps change something and nobody could confirm them.
        case needsConfirmation([Plan.Step])
        /// The person said no.
        case declined
        /// `decideOnly`: decided and checked, not run.
        case decided
        case ran(RunOutcome)
    }

    /// The outcome, the decision as it stands at the end (what `ask --explain --json` prints), and
    /// what runs or would run.
    public struct Result: Sendable {
        public var outcome: Outcome
        public var decision: RouteDecision
        public var run: PendingRun?
    }

    /// Takes `request` through the flow. Throws only what `asking.note` throws.
    public func respond(
        to request: String, clock: Matcher.ReferenceTime, options: Options = Options(), asking: any AgentAsking
    ) async throws -> Result {
        var decision = matcher.decide(request, clock: clock)
        func end(_ outcome: Outcome, _ run: PendingRun? = nil) -> Result { Result(outcome: outcome, decision: decision, run: run) }
        if request.trimmingWhiteSpace().isEmpty { return end(.emptyRequest) }
        // Unsure (under the threshold or a near tie), with a model: it chooses among the candidates.
        if let planner, SecondOpinion.applies(to: decision, request: request) {
            let candidates = SecondOpinion.offers(for: decision, from: offers)
            if !candidates.isEmpty {
                try await asking.note(.consulting(candidates.map(\.name)))
                let verdict = await SecondOpinion(planner: planner(clock)).choose(request, offers: candidates)
                if case .chose(let name, let inputs) = verdict, let routed = matcher.routed(decision, to: name, inputs: inputs) {
                    decision = routed
                }
            }
        }
        switch decision.layer {
        case .playbook, .skill:
            guard let target = decision.target, let routeTarget = matcher.targets.first(where: { $0.name == target }) else {
                return end(.nothingMatched)
            }
            let coercion = Coercion(dates: DateParser(now: clock.now, timeZone: clock.timeZone))
            var inputs = decision.inputs
            for given in options.inputTexts {
                guard let schema = routeTarget.schema(of: given.key) else {
                    return end(.unknownInput(given.key, suggestion: Suggestion.closest(to: given.key, in: routeTarget.inputs.map(\.name))))
                }
                if schema.containsSecret { secrets.add([given.text]) }
                inputs[given.key] = coercion.coerce(coercion.coerceCommandLine(given.text, to: schema), to: schema)
            }
            remember(inputs, of: routeTarget)
            var missing = decision.missing.filter { inputs[$0] == nil }
            decision.inputs = inputs
            decision.missing = missing
            if missing.isEmpty { decision.question = nil }
            var run = PendingRun(layer: decision.layer, target: target, inputs: inputs)
            while let name = missing.first {
                let schema = routeTarget.schema(of: name)
                var problem: String?
                var value: Value?
                while value == nil {
                    let about = schema?.description.map { " (\($0))" } ?? ""
                    let question = AgentInputQuestion(
                        name: name, question: "What should '\(name)' be\(about)?", schema: schema, problem: problem, missing: missing,
                        decision: decision, run: run)
                    var reply = AgentReply<String>.unavailable
                    if !options.decideOnly { reply = await asking.input(question) }
                    switch reply {
                    case .unavailable:
                        return end(.missingInputs(missing, question: decision.question ?? question.question), run)
                    case .ended:
                        return end(.noAnswer, run)
                    case .answer(let text):
                        let text = text.trimmingWhiteSpace()
                        guard !text.isEmpty else {
                            problem = nil
                            continue
                        }
                        // Even an answer that does not fit (a mistyped password) stays secret.
                        if schema?.containsSecret == true { secrets.add([text]) }
                        (value, problem) = Self.accept(text, schema: schema, coercion: coercion)
                    }
                }
                inputs[name] = value
                remember(inputs, of: routeTarget)
                missing.removeFirst()
                run.inputs = inputs
                decision.inputs = inputs
                decision.missing = missing
                decision.question = nil
            }
            if run.layer == .skill {
                let checked = checker(clock).check(Plan.oneStep(skill: target, inputs: inputs), name: Plan.playbookName(target))
                guard checked.passes else {
                    return end(.refused("the \(target) call does not check", diagnostics: checked.diagnostics.map(\.message)), run)
                }
                run.plan = checked
            }
            try await asking.note(.understood(decision))
            return try await finish(run, decision: decision, clock: clock, options: options, asking: asking)
        case .plan, .none:
            guard let planner, decision.question == nil || decision.layer == .plan else {
                if let question = decision.question { return end(.ambiguous(question)) }
                return end(decision.layer == .plan ? .needsModel : .nothingMatched)
            }
            if decision.layer == .none, !decision.coversSomePart { return end(.outOfScope) }
            if !options.inputTexts.isEmpty { return end(.inputsForPlan) }
            try await asking.note(.planning)
            let report = await planner(clock).plan(request, choosingFrom: offers, matcher: matcher, clock: clock, name: options.planName)
            decision.layer = .plan
            decision.target = nil
            decision.inputs = [:]
            decision.missing = []
            switch report.outcome {
            case .plan(let checked):
                decision.plan = checked.plan.json
                decision.question = nil
                let run = PendingRun(layer: .plan, target: nil, plan: checked)
                try await asking.note(.planned(checked, actions: Set(actions(of: run, clock: clock).map(\.id))))
                return try await finish(run, decision: decision, clock: clock, options: options, asking: asking)
            case .question(let question):
                decision.plan = nil
                decision.question = question
                return end(.modelAsks(question))
            case .refused(let reason, let diagnostics):
                return end(.refused(reason, diagnostics: diagnostics))
            case .failed(let message):
                return end(.modelFailed(message))
            }
        }
    }

    /// Decided and checked: stop there (`decideOnly`), or confirm what needs it and run.
    private func finish(
        _ run: PendingRun, decision: RouteDecision, clock: Matcher.ReferenceTime, options: Options, asking: any AgentAsking
    ) async throws -> Result {
        try await asking.note(.ready(run, decision))
        if options.decideOnly { return Result(outcome: .decided, decision: decision, run: run) }
        let outcome = try await confirmAndRun(run, clock: clock, asking: asking)
        return Result(outcome: outcome, decision: decision, run: run)
    }

    /// Confirms `run` when it changes something (a read-only query is never confirmed), then runs it.
    public func confirmAndRun(_ run: PendingRun, clock: Matcher.ReferenceTime, asking: any AgentAsking) async throws -> Outcome {
        let actions = actions(of: run, clock: clock)
        var confirmed = false
        if !actions.isEmpty {
            let reply: AgentReply<Bool>
            if run.layer == .plan {
                reply = await asking.approve(run, actions: actions)
            } else {
                reply = await asking.confirm(run, actions: actions)
            }
            switch reply {
            case .answer(true): confirmed = true
            case .answer(false), .ended: return .declined
            case .unavailable: return .needsConfirmation(actions)
            }
        }
        return try await self.run(run, confirmed: confirmed, asking: asking)
    }

    /// Runs `run` on the runner, reporting its progress; cancelling the calling task rolls it back.
    public func run(_ run: PendingRun, confirmed: Bool, asking: any AgentAsking) async throws -> Outcome {
        try await asking.note(.running(run, confirmed: confirmed))
        let outcome = await runner.run(run) { completed, total in
            try? await asking.note(.progress(completed: completed, total: total))
        }
        return .ran(outcome)
    }

    /// The steps of `run` that change something: anything not a read-only query (a playbook counts
    /// as one; so does a skill that is not registered).
    public func actions(of run: PendingRun, clock: Matcher.ReferenceTime) -> [Plan.Step] {
        let registry = checker(clock).registry
        return run.steps.filter { step in
            step.isPlaybook || registry[step.target].map { $0.descriptor.kind != .query } ?? true
        }
    }

    /// Adds the values of `target`'s secret inputs among `inputs` (given, captured from the
    /// request or answered) to `secrets`.
    private func remember(_ inputs: ValueObject, of target: RouteTarget) {
        for (name, value) in inputs {
            if let schema = target.schema(of: name) { secrets.addSecrets(in: value, schema: schema) }
        }
    }

    /// An answer coerced to the input's schema, or why it does not fit (a secret one not echoed).
    static func accept(_ text: String, schema: Schema?, coercion: Coercion) -> (Value?, String?) {
        guard let schema else { return (.string(text), nil) }
        let value = coercion.coerce(coercion.coerceCommandLine(text, to: schema), to: schema)
        let violations = SchemaValidator.validate(value, against: schema)
        guard let first = violations.first else { return (value, nil) }
        return (nil, "'\(schema.containsSecret ? Redactor.mask : text)' does not fit: \(first.predicate)")
    }
}
