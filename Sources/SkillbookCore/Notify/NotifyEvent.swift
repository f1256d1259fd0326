/// What a notification is about: the end (or pause) of a run, or fires a schedule dropped.
public enum NotifyEvent: String, Sendable, Hashable, CaseIterable, Codable {
    /// The run ended `failed`, `rolled_back`, `succeeded_with_errors` or `interrupted`.
    case failure
    /// The run ended `rollback_incomplete` (falls back to `failure` when only that is mapped).
    case rollbackIncomplete = "rollback_incomplete"
    /// The run waits for an approval.
    case waiting
    /// Fires of the playbook's schedule were dropped (`catch_up`, its window, `overlap: skip`).
    case missed
    case success

    /// The event a run's status (as the journal spells it) notifies; `nil` while it runs or is queued.
    /// A status this version does not know yet (a later one) notifies nothing.
    public init?(status: String) {
        switch status {
        case "succeeded": self = .success
        case "failed", "rolled_back", "succeeded_with_errors", "interrupted": self = .failure
        case "rollback_incomplete": self = .rollbackIncomplete
        case "waiting": self = .waiting
        case "missed": self = .missed
        default: return nil
        }
    }

    /// The events whose rules are tried for this one, in order: a `rollback_incomplete` run uses
    /// the `failure` rule when there is no `rollback_incomplete` rule.
    public var fallbacks: [NotifyEvent] {
        self == .rollbackIncomplete ? [.rollbackIncomplete, .failure] : [self]
    }
}
