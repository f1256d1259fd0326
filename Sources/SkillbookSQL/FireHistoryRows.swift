import Foundation
public import SkillbookCore

/// The fire history of a SQL state (`fires` and `missed_fires`), the same on every backend: what
/// differs (placeholders, how `catch_up` is stored) is passed in.
public enum FireHistoryRows {
    /// Started and skipped fires, and batches of missed ones, of one playbook (`name` null: all),
    /// newest first, at most `limit`. `name` and `limit` are the backend's placeholders;
    /// `catchUp` reads the `catch_up` column of `fires` as 0 or 1.
    public static func query(name: String, limit: String, catchUp: String) -> String {
        """
        SELECT playbook, entry, scheduled_ms AS first_ms, scheduled_ms AS last_ms,
            CASE WHEN outcome = 'skipped' THEN 'overlap' END AS reason, 1 AS count, \(catchUp) AS catch_up, recorded
        FROM fires WHERE \(name) IS NULL OR playbook = \(name)
        UNION ALL
        SELECT playbook, entry, first_ms, last_ms, reason, count, 0 AS catch_up, recorded
        FROM missed_fires WHERE \(name) IS NULL OR playbook = \(name)
        ORDER BY first_ms DESC, entry LIMIT \(limit)
        """
    }

    /// The parameters of an insert into `missed_fires` (playbook, entry, reason, first_ms, last_ms, count, recorded).
    public static func parameters(_ batch: MissedFires, at: Double) -> [SQLValue] {
        [
            .text(batch.playbook), .integer(batch.entry), .text(batch.reason.rawValue),
            .integer(Int(FireKey(playbook: batch.playbook, entry: batch.entry, scheduledAt: batch.first).scheduledMilliseconds)),
            .integer(Int(FireKey(playbook: batch.playbook, entry: batch.entry, scheduledAt: batch.last).scheduledMilliseconds)),
            .integer(batch.count), .real(at),
        ]
    }

    /// A row of `query` as a record; `nil` for a row with a missing column or an unknown reason.
    public static func record(_ row: Row) -> FireRecord? {
        guard let playbook = row.string("playbook"), let entry = row.int("entry"), let first = row.int("first_ms"),
            let last = row.int("last_ms"), let recorded = row.double("recorded")
        else { return nil }
        var reason: MissReason?
        if let text = row.string("reason") {
            guard let known = MissReason(rawValue: text) else { return nil }
            reason = known
        }
        return FireRecord(
            playbook: playbook, entry: entry, scheduledAt: Date(timeIntervalSince1970: Double(first) / 1000),
            lastScheduledAt: Date(timeIntervalSince1970: Double(last) / 1000), missed: reason, count: row.int("count") ?? 1,
            isCatchUp: row.int("catch_up") == 1, recorded: Date(timeIntervalSince1970: recorded))
    }
}
