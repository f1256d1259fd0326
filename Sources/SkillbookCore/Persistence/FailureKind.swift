/// Why a step (or a run) failed, as a fact a front end can act on: the CLI maps it to a remedy
/// ("pass --yes") and an exit code, a user interface to what it shows.
///
/// The raw value is what events (`kind`) and the journal (`failure_kind`) store.
public enum FailureKind: String, Sendable, Hashable, CaseIterable {
    /// A value broke a schema, an expression could not be evaluated, a reference is unknown.
    case validation
    /// A step's, a skill's or the playbook's time ran out.
    case timeout
    /// Someone was asked to confirm the step and did not approve it.
    case declined
    /// The step needs confirmation and nobody could be asked.
    case refused
    /// The skill itself failed.
    case skill
    /// The journal could not record what an action did.
    case journal
    /// The run was interrupted (Ctrl-C, SIGTERM, cancellation).
    case interrupted
    /// The skill is not available here (a missing binary, permission or model), or unknown.
    case unavailable
    /// A file skill was given a path outside the folders it may reach.
    case disallowedPath
}
