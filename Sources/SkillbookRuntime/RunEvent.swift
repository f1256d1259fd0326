public import SkillbookCore

/// What the engine reports while it runs. Values in events are already redacted.
public enum RunEvent: Sendable {
    case runStarted(runID: String, playbook: String, inputs: ValueObject)
    case stepStarted(step: String, skill: String, attempt: Int, parameters: ValueObject)
    case stepProgress(step: String, completed: Int, total: Int)
    case stepSkipped(step: String, reason: String)
    case stepRetrying(step: String, attempt: Int, error: String, delay: Double)
    case stepSucceeded(step: String, output: Value, duration: Double)
    case stepFailed(step: String, error: String, willContinue: Bool)
    /// The step waits for resources another run holds (in this process or another).
    case stepWaiting(step: String, wait: ResourceWait)
    case confirmationRequested(ConfirmationRequest)
    case confirmationAnswered(step: String, approved: Bool)
    /// Dry-run: what the step would do.
    case stepPlanned(StepPlan)
    case compensationStarted(step: String)
    case compensationSucceeded(step: String)
    case compensationFailed(step: String, error: String)
    case runFinished(RunResult)

    /// The `type` field of the event's JSON form.
    public var type: String {
        switch self {
        case .runStarted: "run.started"
        case .stepStarted: "step.started"
        case .stepProgress: "step.progress"
        case .stepSkipped: "step.skipped"
        case .stepRetrying: "step.retrying"
        case .stepSucceeded: "step.succeeded"
        case .stepFailed: "step.failed"
        case .stepWaiting: "step.waiting"
        case .confirmationRequested: "confirmation.requested"
        case .confirmationAnswered: "confirmation.answered"
        case .stepPlanned: "step.planned"
        case .compensationStarted: "compensation.started"
        case .compensationSucceeded: "compensation.succeeded"
        case .compensationFailed: "compensation.failed"
        case .runFinished: "run.finished"
        }
    }
}

/// Receives run events; called in order from the engine.
public typealias RunEventHandler = @Sendable (RunEvent) -> Void

/// A dry-run's account of one step.
public struct StepPlan: Sendable, Hashable {
    public var step: String
    public var skill: String
    public var kind: SkillDescriptor.Kind
    /// A query that ran for real.
    public var ran: Bool
    /// Resolved parameters (secrets masked); `nil` when they depend on outputs a dry-run cannot know.
    public var parameters: ValueObject?
    /// Earlier steps whose unknown outputs this step reads.
    public var unknownFrom: [String]
    public var iterations: Int?
    public var batches: Int?
    public var confirm: Bool
    public var reversible: Bool

    public init(
        step: String, skill: String, kind: SkillDescriptor.Kind, ran: Bool, parameters: ValueObject?,
        unknownFrom: [String] = [], iterations: Int? = nil, batches: Int? = nil, confirm: Bool = false, reversible: Bool
    ) {
        self.step = step
        self.skill = skill
        self.kind = kind
        self.ran = ran
        self.parameters = parameters
        self.unknownFrom = unknownFrom
        self.iterations = iterations
        self.batches = batches
        self.confirm = confirm
        self.reversible = reversible
    }
}
