import SkillbookCore

/// A step failure: its message, and whether retrying could help.
struct StepFailure: Error {
    var message: String
    var retryable = true
}

/// Some foreach iterations failed under `on_failure: continue`: the step's output has null in their places.
struct PartialFailure: Error {
    var output: Value
    var message: String
}

/// A call ran out of time: its step's (or skill's) timeout, or what was left of the playbook's.
struct StepTimedOut: Error {
    var seconds: Double
    /// The playbook's timeout ran out, which ends the whole run.
    var wholeRun: Bool
}
