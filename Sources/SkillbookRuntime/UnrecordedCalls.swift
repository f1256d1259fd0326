public import SkillbookCore

/// Calls of an earlier run that started and never recorded a result (their process stopped during
/// them): nothing says what they did, so a rollback cannot undo them. Their steps end `uncertain`
/// and the rollback `rollback_incomplete`, with `message` as the run's error.
public struct UnrecordedCalls: Sendable {
    public var keys: [CallKey]
    /// Names every call and what to do (the run's error).
    public var message: String

    public init(keys: [CallKey], message: String) {
        self.keys = keys
        self.message = message
    }

    /// Why one of them stays done, as its step reports it.
    public static let reason =
        "its result was never recorded (its process stopped during the call), so it cannot be undone; check by hand whether it took effect"
}
