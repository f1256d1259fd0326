import Foundation
public import SkillbookCore

/// The `notifications` table as records, the same on every SQL backend.
public enum NotificationRows {
    public static let columns = "subject, event, playbook, run_id, claimed"

    /// A row as a record; `nil` for a missing column or an event this version does not know.
    public static func record(_ row: Row) -> NotificationRecord? {
        guard let subject = row.string("subject"), let event = row.string("event").flatMap(NotifyEvent.init(rawValue:)),
            let playbook = row.string("playbook"), let claimed = row.double("claimed")
        else { return nil }
        return NotificationRecord(
            subject: subject, event: event, playbook: playbook, runID: row.string("run_id"),
            claimed: Date(timeIntervalSince1970: claimed))
    }
}
