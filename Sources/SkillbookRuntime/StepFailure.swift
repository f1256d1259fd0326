import SkillbookCore

/// A step failure: its message, its kind, and whether retrying could help.
struct StepFailure: Error {
    var message: String
    var kind: FailureKind
    var retryable = true

    init(message: String, kind: FailureKind, retryable: Bool = true) {
        self.message = message
        self.kind = kind
        self.retryable = retryable
    }
}

/// Some foreach iterations failed under `on_failure: continue`: the step's output has null in their places.
struct PartialFailure: Error {
    var output: Value
    var message: String
    /// The kind of the first failed iteration.
    var kind: FailureKind
}

/// A call ran out of time: its step's (or skill's) timeout, or what was left of the playbook's.
struct StepTimedOut: Error {
    var seconds: Double
    /// The playbook's timeout ran out, which ends the whole run.
    var wholeRun: Bool
}

/// A step's confirmation was answered `awaitApproval`: the run stops there and waits (no failure,
/// no rollback).
struct ApprovalPause: Error {
    var request: ApprovalRequest
}
