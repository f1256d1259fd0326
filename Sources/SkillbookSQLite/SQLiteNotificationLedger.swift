public import Foundation
public import SkillbookCore
import SkillbookSQL

/// The `NotificationLedger` of a state directory: the `notifications` table of `skillbook.sqlite`
/// (migration 12). The primary key (subject, event) lets one caller of any number claim it.
public final class SQLiteNotificationLedger: NotificationLedger {
    public let database: Database
    private let now: @Sendable () -> Date

    public init(database: Database, now: @escaping @Sendable () -> Date = Date.init) {
        self.database = database
        self.now = now
    }

    public func claim(subject: String, event: NotifyEvent, playbook: String) async throws -> Bool {
        try await SQLiteState.io.run { [self] in
            try database.run(
                "INSERT INTO notifications (subject, event, playbook, claimed) VALUES (?1, ?2, ?3, ?4) ON CONFLICT DO NOTHING",
                [.text(subject), .text(event.rawValue), .text(playbook), .real(now().timeIntervalSince1970)]) == 1
        }
    }

    public func link(subject: String, event: NotifyEvent, notificationRun: String) async throws {
        _ = try await SQLiteState.io.run { [self] in
            try database.run(
                "UPDATE notifications SET run_id = ?3 WHERE subject = ?1 AND event = ?2",
                [.text(subject), .text(event.rawValue), .text(notificationRun)])
        }
    }

    public func notifications(about subject: String) async throws -> [NotificationRecord] {
        try await SQLiteState.io.run { [self] in
            try database.query(
                "SELECT \(NotificationRows.columns) FROM notifications WHERE subject = ?1 ORDER BY claimed, event", [.text(subject)]
            ).compactMap(NotificationRows.record)
        }
    }

    public func notification(carriedBy runID: String) async throws -> NotificationRecord? {
        try await SQLiteState.io.run { [self] in
            try database.query("SELECT \(NotificationRows.columns) FROM notifications WHERE run_id = ?1", [.text(runID)])
                .compactMap(NotificationRows.record).first
        }
    }
}
