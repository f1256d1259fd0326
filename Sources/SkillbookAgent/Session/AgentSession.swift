public import Observation
public import SkillbookCore

/// The state of one conversation with the agent, for a SwiftUI chat and the terminal `chat` loop.
///
/// The pending run is held apart from the phase: dismissing a confirmation (back to `idle`) keeps
/// it, and `confirm()` still runs it.
@MainActor @Observable
public final class AgentSession {
    public enum Phase: Sendable, Equatable {
        case idle
        case understanding
        /// Required inputs the request did not give.
        case awaitingInput([String])
        case awaitingConfirmation
        case planning
        case running(completed: Int, total: Int)
        case finished
        case failed(String)
        case rolledBack(String)
    }

    public struct Message: Sendable, Equatable {
        public enum Role: String, Sendable { case user, agent }
        public var role: Role
        public var text: String
    }

    public private(set) var messages: [Message] = []
    public private(set) var phase: Phase = .idle
    public private(set) var pending: PendingRun?
    public private(set) var lastDecision: RouteDecision?

    private let matcher: Matcher
    private let clock: @Sendable () -> Matcher.Clock
    private let runner: any PlanRunning
    private let planner: Planner?
    private let offers: [PlanOffer]

    public init(
        matcher: Matcher, clock: @escaping @Sendable () -> Matcher.Clock, runner: any PlanRunning, planner: Planner? = nil,
        offers: [PlanOffer] = []
    ) {
        self.matcher = matcher
        self.clock = clock
        self.runner = runner
        self.planner = planner
        self.offers = offers
    }

    /// Reads a request and moves to the question it raises or the confirmation of what it would run.
    public func send(_ request: String) async {
        messages.append(Message(role: .user, text: request))
        phase = .understanding
        let now = clock()
        let decision = matcher.decide(request, clock: now)
        lastDecision = decision
        switch decision.layer {
        case .playbook, .skill:
            pending = PendingRun(layer: decision.layer, target: decision.target, inputs: decision.inputs)
            askForInputsOrConfirmation(missing: decision.missing, question: decision.question)
        case .plan where planner != nil:
            await plan(request, clock: now)
        case .plan:
            say("This request needs several skills in a row, and no model is configured to plan it.")
            phase = .idle
        case .none:
            say(decision.question ?? decision.nothingMatchedMessage)
            phase = .idle
        }
    }

    private func plan(_ request: String, clock: Matcher.Clock) async {
        guard let planner else { return }
        phase = .planning
        let report = await planner.plan(
            request, choosingFrom: offers, matcher: matcher, clock: clock)
        switch report.outcome {
        case .plan(let checked):
            pending = PendingRun(layer: .plan, target: nil, plan: checked)
            say("Plan: " + checked.plan.steps.map { "\($0.id) (\($0.target))" }.joined(separator: " → ") + ". Run it?")
            phase = .awaitingConfirmation
        case .question(let question):
            say(question)
            phase = .idle
        case .refused(let reason, let diagnostics):
            say(([reason] + diagnostics).joined(separator: "\n"))
            phase = .failed(reason)
        case .failed(let message):
            say(message)
            phase = .failed(message)
        }
    }

    /// Gives a missing input of the pending run.
    public func provide(_ name: String, _ value: Value) {
        guard var run = pending, case .awaitingInput(var missing) = phase else { return }
        run.inputs[name] = value
        pending = run
        missing.removeAll { $0 == name }
        askForInputsOrConfirmation(missing: missing, question: nil)
    }

    /// Closes the confirmation without running; the pending run is kept.
    public func dismiss() {
        switch phase {
        case .awaitingConfirmation, .awaitingInput: phase = .idle
        default: break
        }
    }

    /// Runs the pending run; progress moves the phase through `running(k, n)`.
    public func confirm() async {
        guard let run = pending else { return }
        if case .awaitingInput = phase { return }
        phase = .running(completed: 0, total: run.plan?.plan.steps.count ?? 1)
        let outcome = await runner.run(run) { [weak self] completed, total in
            await MainActor.run { self?.phase = .running(completed: completed, total: total) }
        }
        pending = nil
        switch outcome {
        case .succeeded(let output):
            say("Done: \(JSONText.encode(output))")
            phase = .finished
        case .failed(let message):
            say("Failed: \(message)")
            phase = .failed(message)
        case .rolledBack(let message):
            say("Rolled back: \(message)")
            phase = .rolledBack(message)
        }
    }

    private func askForInputsOrConfirmation(missing: [String], question: String?) {
        if let first = missing.first {
            say(question ?? "What should '\(first)' be?")
            phase = .awaitingInput(missing)
        } else if let run = pending {
            say("Run \(run.layer.rawValue) \(run.target ?? "plan") with \(JSONText.encode(.object(run.inputs)))?")
            phase = .awaitingConfirmation
        }
    }

    private func say(_ text: String) {
        messages.append(Message(role: .agent, text: text))
    }
}
