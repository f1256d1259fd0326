public import Foundation

/// How a run ended.
public enum RunStatus: String, Sendable, Hashable {
    case succeeded
    /// Some steps failed under `on_failure: continue`.
    case succeededWithErrors = "succeeded_with_errors"
    /// A step failed under `on_failure: stop`; completed steps were kept.
    case failed
    /// A step failed (or the run was interrupted) and every completed step was undone.
    case rolledBack = "rolled_back"
    /// Rolling back left something done: a step without compensation or a compensation that failed.
    case rollbackIncomplete = "rollback_incomplete"
    /// The run stopped at a call that needs confirmation nobody could give: it waits for an
    /// approval (`RunResult.approval`), nothing rolled back.
    case waiting

    /// The process exit code of DESIGN.md for a run that ended this way.
    public func exitCode(interrupted: Bool) -> Int32 {
        if interrupted { return 130 }
        switch self {
        case .succeeded, .succeededWithErrors: return 0
        case .failed, .rolledBack: return 1
        case .rollbackIncomplete: return 3
        case .waiting: return 4
        }
    }
}

/// What happened to one step.
public enum StepStatus: String, Sendable, Hashable {
    case notRun = "not_run"
    case skipped
    case succeeded
    case failed
    /// It completed and was then undone by a rollback.
    case compensated
    /// It completed, a rollback needed to undo it, and that was not possible.
    case notCompensated = "not_compensated"
    /// A call of it started and never recorded a result (its process stopped during the call): it
    /// may or may not have taken effect, so a rollback cannot undo it.
    case uncertain
    /// Dry-run: not run (an action, or a step reading outputs a dry run cannot know), only planned.
    case planned
}

public struct StepReport: Sendable {
    public var id: String
    public var skill: String
    public var status: StepStatus
    public var attempts: Int
    public var output: Value?
    public var error: String?
    /// What kind of failure `error` is.
    public var failureKind: FailureKind?
    /// Why a rollback could not undo it.
    public var compensationError: String?
    public var duration: Double

    public init(id: String, skill: String, status: StepStatus = .notRun) {
        self.id = id
        self.skill = skill
        self.status = status
        self.attempts = 0
        self.duration = 0
    }
}

public struct RunResult: Sendable {
    public var runID: String
    public var playbook: String
    public var status: RunStatus
    /// Ctrl-C, SIGTERM or cancellation stopped the run.
    public var interrupted: Bool
    public var outputs: ValueObject
    public var steps: [StepReport]
    /// The failure that ended the run, if any.
    public var error: String?
    /// What kind of failure `error` is (set with it).
    public var failureKind: FailureKind?
    public var started: Date
    public var finished: Date
    /// Dry-run: the outputs that read steps it only planned, so their values are unknown (they are
    /// not in `outputs`).
    public var unknownOutputs: [String] = []
    /// The request the run waits for, when its status is `waiting`.
    public var approval: ApprovalRequest?

    /// A dry run has no run id: nothing of it is recorded.
    public var isDryRun: Bool { runID.isEmpty }

    public init(
        runID: String, playbook: String, status: RunStatus, interrupted: Bool = false, outputs: ValueObject = ValueObject(),
        steps: [StepReport], error: String? = nil, started: Date, finished: Date
    ) {
        self.runID = runID
        self.playbook = playbook
        self.status = status
        self.interrupted = interrupted
        self.outputs = outputs
        self.steps = steps
        self.error = error
        self.started = started
        self.finished = finished
    }

    public var exitCode: Int32 { status.exitCode(interrupted: interrupted) }

    public func step(_ id: String) -> StepReport? {
        steps.first { $0.id == id }
    }
}
