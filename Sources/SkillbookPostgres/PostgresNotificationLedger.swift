public import Foundation
public import SkillbookCore
import SkillbookSQL

/// The `NotificationLedger` in the PostgreSQL state: the `notifications` table (schema version 4)
/// shared by every daemon, worker and CLI on that database; the primary key (subject, event) and
/// `ON CONFLICT DO NOTHING` let one of them claim a notification.
public final class PostgresNotificationLedger: NotificationLedger {
    public let database: PostgresDatabase
    private let now: @Sendable () -> Date

    public init(database: PostgresDatabase, now: @escaping @Sendable () -> Date = Date.init) {
        self.database = database
        self.now = now
    }

    public func claim(subject: String, event: NotifyEvent, playbook: String) async throws -> Bool {
        try await PostgresState.io.run { [self] in
            try database.run(
                "INSERT INTO notifications (subject, event, playbook, claimed) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING",
                [.text(subject), .text(event.rawValue), .text(playbook), .real(now().timeIntervalSince1970)]) == 1
        }
    }

    public func link(subject: String, event: NotifyEvent, notificationRun: String) async throws {
        _ = try await PostgresState.io.run { [self] in
            try database.run(
                "UPDATE notifications SET run_id = $3 WHERE subject = $1 AND event = $2",
                [.text(subject), .text(event.rawValue), .text(notificationRun)])
        }
    }

    public func notifications(about subject: String) async throws -> [NotificationRecord] {
        try await PostgresState.io.run { [self] in
            try database.query(
                "SELECT \(NotificationRows.columns) FROM notifications WHERE subject = $1 ORDER BY claimed, event", [.text(subject)],
                doing: "reading the notifications of \(subject)"
            ).compactMap(NotificationRows.record)
        }
    }

    public func notification(carriedBy runID: String) async throws -> NotificationRecord? {
        try await PostgresState.io.run { [self] in
            try database.query(
                "SELECT \(NotificationRows.columns) FROM notifications WHERE run_id = $1", [.text(runID)],
                doing: "reading the notification of run \(runID)"
            ).compactMap(NotificationRows.record).first
        }
    }

    /// One statement: the rows about the run (`subject`, the primary key's range) and the one it
    /// carries (`notifications_by_run`).
    public func notifications(ofRun runID: String) async throws -> (about: [NotificationRecord], carried: NotificationRecord?) {
        let rows = try await PostgresState.io.run { [self] in
            try database.query(
                "SELECT \(NotificationRows.columns) FROM notifications WHERE subject = $1 OR run_id = $1 ORDER BY claimed, event",
                [.text(runID)], doing: "reading the notifications of run \(runID)"
            ).compactMap(NotificationRows.record)
        }
        return (rows.filter { $0.subject == runID }, rows.first { $0.runID == runID })
    }
}
