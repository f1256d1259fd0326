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
        case .compensationStarted: "compensation.started"
        case .compensationSucceeded: "compensation.succeeded"
        case .compensationFailed: "compensation.failed"
        case .runFinished: "run.finished"
        }
    }
}

/// Receives run events; called in order from the engine.
public typealias RunEventHandler = @Sendable (RunEvent) -> Void
