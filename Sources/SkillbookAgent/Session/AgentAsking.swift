public import SkillbookCore

/// The person's side of the agent flow: the moments it needs an answer (a missing input, the
/// confirmation of a route that changes something, the approval of a model's plan), and the steps
/// it reports as it goes. `ask` answers on a terminal, `chat` and the console through an
/// `AgentSession`.
///
/// A conformer answers each question, or says nobody can answer it here (`.unavailable`: no
/// terminal, `--json`, `--explain`) or that answering ended (`.ended`: end of input, a new request
/// replaced this one). The flow then reports what it needed and runs nothing; it never asks the same
/// question twice unless the answer was refused (then `AgentInputQuestion.problem` says why).
public protocol AgentAsking: Sendable {
    /// The text of a required input the request did not give.
    func input(_ question: AgentInputQuestion) async -> AgentReply<String>
    /// Whether to run a playbook or skill that changes something (layers 1 and 2).
    func confirm(_ run: PendingRun, actions: [Plan.Step]) async -> AgentReply<Bool>
    /// Whether to run a model's plan that changes something (layer 3).
    func approve(_ run: PendingRun, actions: [Plan.Step]) async -> AgentReply<Bool>
    /// A step of the flow, for showing; it may throw to stop the flow (`respond` rethrows it).
    func note(_ step: AgentStep) async throws
}

extension AgentAsking {
    public func note(_ step: AgentStep) async throws {}
}

/// An answer, or why there is none.
public enum AgentReply<Answer: Sendable>: Sendable {
    case answer(Answer)
    /// Nobody can be asked here: the flow reports what it needed.
    case unavailable
    /// Answering ended (end of input, the request was replaced).
    case ended
}

/// A required input the flow asks for.
public struct AgentInputQuestion: Sendable {
    /// The input's name.
    public var name: String
    /// The question as the person reads it: `What should 'title' be (the note's title)?`
    public var question: String
    /// The input's schema, when the target declares it.
    public var schema: Schema?
    /// Why the last answer was refused (`'y' is not an integer`); `nil` the first time.
    public var problem: String?
    /// The inputs still missing, this one first.
    public var missing: [String]
    /// The decision so far, its inputs those given until now.
    public var decision: RouteDecision
    /// The run being completed.
    public var run: PendingRun
}

/// What the flow has done, as it goes.
public enum AgentStep: Sendable {
    /// A playbook or skill route with every required input, checked (layers 1 and 2).
    case understood(RouteDecision)
    /// The matcher is unsure; the model is asked which of these candidates does the request
    /// (`SecondOpinion`).
    case consulting([String])
    /// The model is asked to plan the request.
    case planning
    /// The model's plan passed the checker; `actions` are the ids of its steps that change something.
    case planned(PlanChecker.Checked, actions: Set<String>)
    /// Decided and checked; what runs next (after a confirmation when it changes something).
    case ready(PendingRun, RouteDecision)
    /// The run starts; `confirmed` when the person was asked.
    case running(PendingRun, confirmed: Bool)
    /// Steps completed of the run's total.
    case progress(completed: Int, total: Int)
}
