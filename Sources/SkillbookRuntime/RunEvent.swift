public import SkillbookCore

/// What the engine reports while it runs. Values in events are already redacted.
public enum RunEvent: Sendable {
    case runStarted(runID: String, playbook: String, inputs: ValueObject)
    case stepStarted(step: StepPath, target: StepTarget, attempt: Int, parameters: ValueObject)
    /// `completed` of `total`: of the step's calls, or of the skill's own count inside a call (`unit`).
    case stepProgress(step: StepPath, completed: Int, total: Int, unit: ProgressUnit)
    case stepSkipped(step: StepPath, reason: String)
    case stepRetrying(step: StepPath, attempt: Int, error: String, delay: Double)
    case stepSucceeded(step: StepPath, output: Value, duration: Double)
    case stepFailed(step: StepPath, error: String, kind: FailureKind, willContinue: Bool)
    /// The step waits for resources another run holds (in this process or another).
    case stepWaiting(step: StepPath, wait: ResourceWait)
    case confirmationRequested(ConfirmationRequest)
    case confirmationAnswered(step: StepPath, answer: ConfirmationAnswer)
    /// Dry-run: what the step would do.
    case stepPlanned(StepPlan)
    /// A failure or an interrupt ends the run: completed calls are undone next (in reverse order).
    case rollbackStarted
    case compensationStarted(step: StepPath)
    case compensationSucceeded(step: StepPath)
    case compensationFailed(step: StepPath, error: String)
    /// Something went wrong that does not fail the run (a journal write of a read-only record).
    case warning(RunWarning)
    /// The run stopped at a call that needs an approval nobody could give now; `runFinished`
    /// (status `waiting`) follows.
    case runWaiting(ApprovalRequest)
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
        case .rollbackStarted: "rollback.started"
        case .compensationStarted: "compensation.started"
        case .compensationSucceeded: "compensation.succeeded"
        case .compensationFailed: "compensation.failed"
        case .warning: "run.warning"
        case .runWaiting: "run.waiting"
        case .runFinished: "run.finished"
        }
    }
}

/// A problem the run goes on after: what happened, and the step it concerns, if any.
public struct RunWarning: Sendable, Hashable {
    public var step: StepPath?
    public var message: String

    public init(step: StepPath?, message: String) {
        self.step = step
        self.message = message
    }
}

/// Receives run events; called in order from the engine.
public typealias RunEventHandler = @Sendable (RunEvent) -> Void

/// A dry-run's account of one step.
public struct StepPlan: Sendable, Hashable {
    public var step: StepPath
    public var skill: String
    public var kind: SkillDescriptor.Kind
    /// A query that ran for real.
    public var ran: Bool
    /// Resolved parameters (secrets masked); `nil` when they depend on outputs a dry-run cannot know.
    public var parameters: ValueObject?
    /// Earlier steps whose unknown outputs this step reads.
    public var unknownFrom: [String]
    /// A query that failed in a dry-run after actions it was planned behind (which may create what
    /// it reads): those actions, and `error` its failure. Not checkable until they run.
    public var uncheckableUntil: [String] = []
    public var error: String?
    public var iterations: Int?
    public var batches: Int?
    public var confirm: Bool
    public var reversible: Bool

    public init(
        step: StepPath, skill: String, kind: SkillDescriptor.Kind, ran: Bool, parameters: ValueObject?,
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
