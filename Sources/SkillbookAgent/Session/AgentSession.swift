public import Observation
import SkillbookCore

/// The state of one conversation with the agent, for a SwiftUI chat, the console and the terminal
/// `chat` loop: each request goes through the one `AgentFlow`, and the flow's questions (a missing
/// input, a confirmation, a plan's approval) become phases the front end answers with `provide`,
/// `confirm` or `dismiss`.
///
/// `send`, `provide`, `confirm` and `dismiss` return once the flow waits for the next answer or has
/// ended. Dismissing a confirmation (back to `idle`) keeps the pending run, and `confirm()` still
/// runs it. A read-only query is not confirmed: it runs as soon as it is understood.
@MainActor @Observable
public final class AgentSession {
    public enum Phase: Sendable, Equatable {
        case idle
        case understanding
        /// Required inputs the request did not give, the one asked for first.
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

    /// What was said, every secret the conversation knows masked (`AgentFlow.secrets`): an answer
    /// to a secret input, and the same value anywhere earlier or later, shows as `***`.
    public var messages: [Message] {
        let redactor = flow.secrets.redactor
        guard !redactor.isEmpty else { return transcript }
        return transcript.map { Message(role: $0.role, text: redactor.redact($0.text)) }
    }
    /// What was said, as said.
    private var transcript: [Message] = []
    public private(set) var phase: Phase = .idle
    public private(set) var pending: PendingRun?
    public private(set) var lastDecision: RouteDecision?

    private let flow: AgentFlow
    private let clock: @Sendable () -> Matcher.ReferenceTime
    @ObservationIgnored private var turn: Task<Void, Never>?
    @ObservationIgnored private var inputWaiter: CheckedContinuation<AgentReply<String>, Never>?
    @ObservationIgnored private var confirmWaiter: CheckedContinuation<AgentReply<Bool>, Never>?
    @ObservationIgnored private var settledWaiters: [CheckedContinuation<Void, Never>] = []
    /// Set while a turn is ended for a new request: its outcome is not shown.
    @ObservationIgnored private var superseded = false

    public init(flow: AgentFlow, clock: @escaping @Sendable () -> Matcher.ReferenceTime) {
        self.flow = flow
        self.clock = clock
    }

    /// Takes a request through the flow, until it asks something or ends. A question still open is
    /// dropped for it.
    public func send(_ request: String) async {
        await supersede()
        transcript.append(Message(role: .user, text: request))
        phase = .understanding
        pending = nil
        let now = clock()
        let flow = flow
        let asking = SessionAsking(session: self)
        start {
            let options = AgentFlow.Options(planName: "plan")
            guard let result = try? await flow.respond(to: request, clock: now, options: options, asking: asking) else {
                return (.noAnswer, nil)
            }
            return (result.outcome, result.decision)
        }
        await settledOrCancelled()
    }

    /// Answers the input asked for; an answer that does not fit its schema is asked for again.
    public func provide(_ text: String) async {
        guard let waiter = inputWaiter else { return }
        inputWaiter = nil
        transcript.append(Message(role: .user, text: text))
        phase = .understanding
        waiter.resume(returning: .answer(text))
        await settledOrCancelled()
    }

    /// Runs the pending run: the one waiting for confirmation, or one kept after `dismiss()`.
    /// Progress moves the phase through `running(k, n)`; cancelling the calling task cancels the
    /// run, which rolls back what it completed.
    public func confirm() async {
        if let waiter = confirmWaiter {
            confirmWaiter = nil
            waiter.resume(returning: .answer(true))
        } else if turn == nil, let run = pending {
            let flow = flow
            let asking = SessionAsking(session: self)
            start { ((try? await flow.run(run, confirmed: true, asking: asking)) ?? .noAnswer, nil) }
        } else {
            return
        }
        await settledOrCancelled()
    }

    /// Closes the question without an answer: a confirmation is declined and its run kept; a missing
    /// input drops the request.
    public func dismiss() async {
        if let waiter = confirmWaiter {
            confirmWaiter = nil
            waiter.resume(returning: .answer(false))
        } else if let waiter = inputWaiter {
            inputWaiter = nil
            waiter.resume(returning: .ended)
        }
        await settled()
    }

    // MARK: The flow's side

    fileprivate func ask(_ question: AgentInputQuestion) async -> AgentReply<String> {
        pending = question.run
        lastDecision = question.decision
        say(question.problem.map { "\($0). \(question.question)" } ?? question.question)
        phase = .awaitingInput(question.missing)
        return await withCheckedContinuation { continuation in
            inputWaiter = continuation
            settle()
        }
    }

    fileprivate func askToRun(_ run: PendingRun) async -> AgentReply<Bool> {
        pending = run
        say(run.layer == .plan ? "\(Self.describe(run)). Run it?" : "Run \(Self.describe(run))?")
        phase = .awaitingConfirmation
        return await withCheckedContinuation { continuation in
            confirmWaiter = continuation
            settle()
        }
    }

    fileprivate func noted(_ step: AgentStep) {
        switch step {
        case .planning:
            phase = .planning
        case .ready(let run, let decision):
            pending = run
            lastDecision = decision
        case .running(let run, let confirmed):
            pending = run
            if !confirmed { say(run.layer == .plan ? "Running the plan: \(Self.steps(of: run))." : "Running \(Self.describe(run)).") }
            phase = .running(completed: 0, total: max(1, run.steps.count))
        case .progress(let completed, let total):
            if case .running = phase { phase = .running(completed: completed, total: total) }
        case .understood, .planned, .consulting:
            break
        }
    }

    // MARK: Turns

    private func start(_ work: @escaping @Sendable () async -> (AgentFlow.Outcome, RouteDecision?)) {
        turn = Task { [weak self] in
            let (outcome, decision) = await work()
            self?.finish(outcome, decision: decision)
        }
    }

    private func finish(_ outcome: AgentFlow.Outcome, decision: RouteDecision?) {
        turn = nil
        defer { settle() }
        if superseded { return }
        if let decision { lastDecision = decision }
        switch outcome {
        case .emptyRequest:
            say("The request is empty: say what you want, e.g. \"list my notes\".")
            phase = .idle
        case .unknownInput(let name, _):
            say("There is no input '\(name)'.")
            phase = .idle
        case .inputsForPlan, .needsConfirmation, .decided:
            phase = .idle
        case .ambiguous(let question), .modelAsks(let question):
            say(question)
            phase = .idle
        case .nothingMatched:
            say(lastDecision?.nothingMatchedMessage ?? "Nothing matched this request.")
            phase = .idle
        case .needsModel:
            say("This request needs several skills in a row, and no model is configured to plan it.")
            phase = .idle
        case .outOfScope:
            say(lastDecision?.outOfScopeMessage ?? "Nothing here can do any part of this request.")
            phase = .idle
        case .missingInputs(_, let question):
            say(question)
            phase = .idle
        case .noAnswer:
            pending = nil
            phase = .idle
        case .refused(let reason, let diagnostics):
            pending = nil
            say(([reason] + diagnostics).joined(separator: "\n"))
            phase = .failed(reason)
        case .modelFailed(let message):
            pending = nil
            say(message)
            phase = .failed(message)
        case .declined:
            say("Not run. Say y to run it after all, or ask for something else.")
            phase = .idle
        case .ran(.succeeded(let output)):
            pending = nil
            say("Done: \(JSONText.encode(output))")
            phase = .finished
        case .ran(.failed(let message)):
            pending = nil
            say("Failed: \(message)")
            phase = .failed(message)
        case .ran(.rolledBack(let message)):
            pending = nil
            say("Rolled back: \(message)")
            phase = .rolledBack(message)
        }
    }

    /// Ends a turn that waits for an answer, without showing its outcome; a turn that runs is
    /// waited for (its outcome is shown).
    private func supersede() async {
        guard let current = turn else { return }
        if let waiter = inputWaiter {
            superseded = true
            inputWaiter = nil
            waiter.resume(returning: .ended)
        } else if let waiter = confirmWaiter {
            superseded = true
            confirmWaiter = nil
            waiter.resume(returning: .ended)
        }
        await current.value
        superseded = false
    }

    /// Whether the flow waits for an answer or has ended.
    private var isSettled: Bool { turn == nil || inputWaiter != nil || confirmWaiter != nil }

    private func settled() async {
        while !isSettled {
            await withCheckedContinuation { continuation in settledWaiters.append(continuation) }
        }
    }

    /// Waits until settled; cancelling the calling task cancels the turn (a run rolls back).
    private func settledOrCancelled() async {
        let current = turn
        await withTaskCancellationHandler {
            await settled()
        } onCancel: {
            current?.cancel()
        }
    }

    private func settle() {
        let waiters = settledWaiters
        settledWaiters = []
        for waiter in waiters { waiter.resume() }
    }

    private func say(_ text: String) {
        transcript.append(Message(role: .agent, text: text))
    }

    /// `skill notes.create with {"title":"Milk"}`, or a model's `Plan: page (web.summary) → save (notes.create)`.
    static func describe(_ run: PendingRun) -> String {
        if run.layer == .plan { return "Plan: " + steps(of: run) }
        return "\(run.layer.rawValue) \(run.target ?? "plan") with \(JSONText.encode(.object(run.inputs)))"
    }

    /// `page (web.summary) → save (notes.create)`
    static func steps(of run: PendingRun) -> String {
        run.steps.map { "\($0.id) (\($0.target))" }.joined(separator: " → ")
    }
}

/// The flow's questions, answered by the session's phases.
private struct SessionAsking: AgentAsking {
    let session: AgentSession

    func input(_ question: AgentInputQuestion) async -> AgentReply<String> { await session.ask(question) }
    func confirm(_ run: PendingRun, actions: [Plan.Step]) async -> AgentReply<Bool> { await session.askToRun(run) }
    func approve(_ run: PendingRun, actions: [Plan.Step]) async -> AgentReply<Bool> { await session.askToRun(run) }
    func note(_ step: AgentStep) async throws { await session.noted(step) }
}
