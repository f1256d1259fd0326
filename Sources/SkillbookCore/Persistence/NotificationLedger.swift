public import Foundation

/// Where notifications are claimed and linked to what they report, shared by every process of a
/// state: a notification is claimed (subject + event) before it runs, so it is sent once however
/// many processes see the run end, and across restarts.
///
/// The subject is a run id, or a batch of missed fires (`MissedFires.key`).
public protocol NotificationLedger: Sendable {
    /// Claims the notification of `event` about `subject` for this caller: `true` when this call
    /// claimed it, `false` when it was claimed before (by anyone).
    func claim(subject: String, event: NotifyEvent, playbook: String) async throws -> Bool
    /// Records the run that carries a claimed notification.
    func link(subject: String, event: NotifyEvent, notificationRun: String) async throws
    /// The notifications about `subject`, in the order they were claimed.
    func notifications(about subject: String) async throws -> [NotificationRecord]
    /// The notification a run carries, when it is a notification run.
    func notification(carriedBy runID: String) async throws -> NotificationRecord?
    /// Both of the above for one run (what `runs show` says about notifications); a ledger on a
    /// server reads them in one statement.
    func notifications(ofRun runID: String) async throws -> (about: [NotificationRecord], carried: NotificationRecord?)
}

extension NotificationLedger {
    public func notifications(ofRun runID: String) async throws -> (about: [NotificationRecord], carried: NotificationRecord?) {
        (try await notifications(about: runID), try await notification(carriedBy: runID))
    }
}

/// One notification: what it is about, the event, and the run that carried it (`nil` until that
/// run was started, or when it could not be).
public struct NotificationRecord: Sendable, Hashable {
    public var subject: String
    public var event: NotifyEvent
    public var playbook: String
    public var runID: String?
    public var claimed: Date

    public init(subject: String, event: NotifyEvent, playbook: String, runID: String?, claimed: Date) {
        self.subject = subject
        self.event = event
        self.playbook = playbook
        self.runID = runID
        self.claimed = claimed
    }
}
