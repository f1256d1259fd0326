public import Foundation
public import SkillbookCore
import SkillbookSQL

/// The `FireLedger` in the PostgreSQL state: the `fires` and `schedule_entries` tables shared by
/// every daemon and `schedule tick` of every machine on that database. `commit` is one
/// transaction, serialised per entry by an advisory lock; the primary key (playbook, entry,
/// scheduled_ms) and `ON CONFLICT DO NOTHING` let exactly one of any number of daemons claim a
/// fire, and a decision made on another interval anchor than the stored one is dropped.
public final class PostgresFireLedger: FireLedger {
    public let database: PostgresDatabase
    private let now: @Sendable () -> Date
    private let pid: Int32
    private let host: String

    public init(
        database: PostgresDatabase, now: @escaping @Sendable () -> Date = Date.init, pid: Int32 = getpid(),
        host: String = ProcessInfo.processInfo.hostName
    ) {
        self.database = database
        self.now = now
        self.pid = pid
        self.host = host
    }

    public func state(playbook: String, entry: Int) async throws -> EntryState {
        try await PostgresState.io.run { [self] in
            let rows = try database.query(
                "SELECT state FROM schedule_entries WHERE playbook = $1 AND entry = $2", [.text(playbook), .integer(entry)],
                doing: "reading the schedule state of \(playbook)")
            guard let text = rows.first?.string("state") else { return EntryState() }
            do {
                return try JSONDecoder().decode(EntryState.self, from: Data(text.utf8))
            } catch {
                throw PostgresError(
                    .malformedRow, message: "state database \(database.location): schedule state of \(playbook)#\(entry) is malformed (\(error))")
            }
        }
    }

    public func commit(_ decision: FireDecision, playbook: String, entry: Int) async throws -> [Fire] {
        try await PostgresState.io.run { [self] in
            let state = String(decoding: try JSONEncoder().encode(decision.state), as: UTF8.self)
            let at = now().timeIntervalSince1970
            return try database.transaction(doing: "claiming fires of \(playbook)") { transaction -> [Fire] in
                // One decision of an entry at a time, across daemons; an interval entry's anchor is set
                // once, so a decision made on another anchor was made before this one was stored (two
                // daemons starting together): it is dropped, and that daemon decides again from the
                // stored state.
                try transaction.query("SELECT pg_advisory_xact_lock(hashtext($1), $2::integer)", [.text(playbook), .integer(entry)])
                if let text = try transaction.query(
                    "SELECT state FROM schedule_entries WHERE playbook = $1 AND entry = $2", [.text(playbook), .integer(entry)]
                ).first?.string("state"),
                    let stored = try? JSONDecoder().decode(EntryState.self, from: Data(text.utf8)),
                    let anchor = stored.anchor, decision.state.anchor != anchor
                {
                    return []
                }
                try transaction.run(
                    """
                    INSERT INTO schedule_entries (playbook, entry, state, updated) VALUES ($1, $2, $3, $4)
                    ON CONFLICT (playbook, entry) DO UPDATE SET state = excluded.state, updated = excluded.updated
                    """, [.text(playbook), .integer(entry), .text(state), .real(at)])
                for fire in decision.skipped { _ = try insert(fire, outcome: "skipped", at: at, in: transaction) }
                for batch in decision.missed {
                    try transaction.run(
                        """
                        INSERT INTO missed_fires (playbook, entry, reason, first_ms, last_ms, count, recorded)
                        VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING
                        """, FireHistoryRows.parameters(batch, at: at))
                }
                return try decision.start.filter { try insert($0, outcome: "started", at: at, in: transaction) }
            }
        }
    }

    /// Fires recorded for `playbook`, newest first, at most `limit`.
    public func fires(playbook: String, limit: Int = 20) throws -> [(fire: Fire, started: Bool)] {
        try database.query(
            """
            SELECT entry, scheduled_ms, outcome, catch_up FROM fires WHERE playbook = $1
            ORDER BY scheduled_ms DESC, entry LIMIT $2
            """, [.text(playbook), .integer(limit)]
        ).map { row in
            let key = FireKey(
                playbook: playbook, entry: row.int("entry") ?? 0,
                scheduledAt: Date(timeIntervalSince1970: Double(row.int("scheduled_ms") ?? 0) / 1000))
            return (Fire(key: key, isCatchUp: row.int("catch_up") == 1), row.string("outcome") == "started")
        }
    }

    /// Fires claimed before their run was journaled by a process that is gone: on this host when
    /// `isAlive` says no, on another host when the claim is older than `foreignAfter` seconds.
    /// Each is taken over (this process and host recorded) and returned, to be started now.
    public func adoptOrphans(isAlive: (Int32) -> Bool, foreignAfter: Double = 120) throws -> [Fire] {
        let rows = try database.query(
            """
            SELECT f.playbook, f.entry, f.scheduled_ms, f.catch_up, f.pid, f.host, f.recorded FROM fires f
            WHERE f.outcome = 'started' AND f.pid IS NOT NULL AND NOT (f.pid = $1 AND f.host = $2) AND NOT EXISTS (
                SELECT 1 FROM runs r WHERE r.playbook = f.playbook AND r.scheduled_at IS NOT NULL
                AND abs(r.scheduled_at * 1000 - f.scheduled_ms) < 1)
            ORDER BY f.scheduled_ms
            """, [.integer(Int(pid)), .text(host)], doing: "looking for orphaned fires")
        var adopted: [Fire] = []
        let at = now().timeIntervalSince1970
        for row in rows {
            guard let fire = JournalRows.fire(row), let owner = row.int("pid"), let ownerHost = row.string("host") else { continue }
            let gone = ownerHost == host ? !isAlive(Int32(owner)) : at - (row.double("recorded") ?? at) > foreignAfter
            guard gone else { continue }
            let changed = try database.run(
                """
                UPDATE fires SET pid = $1, host = $2, recorded = $7
                WHERE playbook = $3 AND entry = $4 AND scheduled_ms = $5 AND pid = $6 AND host = $8
                """,
                [
                    .integer(Int(pid)), .text(host), .text(fire.key.playbook), .integer(fire.key.entry),
                    .integer(Int(fire.key.scheduledMilliseconds)), .integer(owner), .real(at), .text(ownerHost),
                ])
            guard changed == 1 else { continue }
            adopted.append(fire)
        }
        return adopted
    }

    public func history(playbook: String?, limit: Int) async throws -> [FireRecord] {
        try await PostgresState.io.run { [self] in
            try database.query(
                FireHistoryRows.query(name: "$1::text", limit: "$2", catchUp: "CASE WHEN catch_up THEN 1 ELSE 0 END"), [playbook.map(SQLValue.text) ?? .null, .integer(limit)],
                doing: "reading the fire history"
            ).compactMap(FireHistoryRows.record)
        }
    }

    private func insert(_ fire: Fire, outcome: String, at: Double, in transaction: PostgresDatabase.Transaction) throws -> Bool {
        try transaction.run(
            """
            INSERT INTO fires (playbook, entry, scheduled_ms, outcome, catch_up, recorded, pid, host)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING
            """,
            [
                .text(fire.key.playbook), .integer(fire.key.entry), .integer(Int(fire.key.scheduledMilliseconds)), .text(outcome),
                .text(fire.isCatchUp ? "true" : "false"), .real(at), .integer(Int(pid)), .text(host),
            ]) == 1
    }
}
