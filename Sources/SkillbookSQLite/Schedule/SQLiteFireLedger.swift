public import Foundation
public import SkillbookCore
import SkillbookSQL

/// The `FireLedger` of a state directory: the `fires` and `schedule_entries` tables of
/// `skillbook.sqlite` (migration 7), shared by every daemon and `schedule tick` of that state.
///
/// `commit` runs in one `BEGIN IMMEDIATE` transaction: the entry's state, the skipped fires and
/// the claims are kept together or not at all, and the primary key (playbook, entry,
/// scheduled_ms) lets exactly one of any number of processes claim a fire.
public final class SQLiteFireLedger: FireLedger {
    public let database: Database
    private let now: @Sendable () -> Date
    private let pid: Int32

    public init(database: Database, now: @escaping @Sendable () -> Date = Date.init, pid: Int32 = getpid()) {
        self.database = database
        self.now = now
        self.pid = pid
    }

    /// The ledger of the state file in `stateDirectory`.
    public convenience init(stateDirectory: URL) throws(StoreError) {
        self.init(database: try StateDatabase.open(stateDirectory: stateDirectory))
    }

    public func state(playbook: String, entry: Int) async throws -> EntryState {
        try await SQLiteState.io.run { [self] in
            let rows = try database.query(
                "SELECT state FROM schedule_entries WHERE playbook = ?1 AND entry = ?2", [.text(playbook), .integer(entry)])
            guard let text = rows.first?.string("state") else { return EntryState() }
            do {
                return try JSONDecoder().decode(EntryState.self, from: Data(text.utf8))
            } catch {
                throw StoreError(
                    .other, message: "state database \(database.url.path): schedule state of \(playbook)#\(entry) is malformed (\(error))",
                    path: database.url.path)
            }
        }
    }

    public func commit(_ decision: FireDecision, playbook: String, entry: Int) async throws -> [Fire] {
        try await SQLiteState.io.run { [self] in
            let state = String(decoding: try JSONEncoder().encode(decision.state), as: UTF8.self)
            let at = now().timeIntervalSince1970
            return try database.transaction {
                try database.run(
                    """
                    INSERT INTO schedule_entries (playbook, entry, state, updated) VALUES (?1, ?2, ?3, ?4)
                    ON CONFLICT (playbook, entry) DO UPDATE SET state = excluded.state, updated = excluded.updated
                    """, [.text(playbook), .integer(entry), .text(state), .real(at)])
                for fire in decision.skipped { _ = try insert(fire, outcome: "skipped", at: at) }
                for batch in decision.missed {
                    try database.run(
                        """
                        INSERT INTO missed_fires (playbook, entry, reason, first_ms, last_ms, count, recorded)
                        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) ON CONFLICT DO NOTHING
                        """, FireHistoryRows.parameters(batch, at: at))
                }
                return try decision.start.filter { try insert($0, outcome: "started", at: at) }
            }
        }
    }

    /// Fires recorded for `playbook` (every entry), newest first, at most `limit`.
    public func fires(playbook: String, limit: Int = 20) throws(StoreError) -> [RecordedFire] {
        try database.query(
            """
            SELECT entry, scheduled_ms, outcome, catch_up FROM fires WHERE playbook = ?1
            ORDER BY scheduled_ms DESC, entry LIMIT ?2
            """, [.text(playbook), .integer(limit)]
        ).map { row in
            RecordedFire(
                fire: Fire(
                    key: FireKey(
                        playbook: playbook, entry: row.int("entry") ?? 0,
                        scheduledAt: Date(timeIntervalSince1970: Double(row.int("scheduled_ms") ?? 0) / 1000)),
                    isCatchUp: row.int("catch_up") == 1),
                started: row.string("outcome") == "started")
        }
    }

    /// Fires claimed by a process that is gone (`isAlive` says no) before their run was journaled
    /// (killed between the claim and the run's start): each is taken over by this process (its pid
    /// recorded) and returned, to be started now. A fire another live process took over is left out.
    public func adoptOrphans(isAlive: (Int32) -> Bool) throws -> [Fire] {
        let rows = try database.query(
            """
            SELECT f.playbook, f.entry, f.scheduled_ms, f.catch_up, f.pid FROM fires f
            WHERE f.outcome = 'started' AND f.pid IS NOT NULL AND f.pid != ?1 AND NOT EXISTS (
                SELECT 1 FROM runs r WHERE r.playbook = f.playbook AND r.scheduled_at IS NOT NULL
                AND abs(r.scheduled_at * 1000 - f.scheduled_ms) < 1)
            ORDER BY f.scheduled_ms
            """, [.integer(Int(pid))])
        var adopted: [Fire] = []
        for row in rows {
            guard let fire = JournalRows.fire(row), let owner = row.int("pid"), !isAlive(Int32(owner)) else { continue }
            let changed = try database.run(
                "UPDATE fires SET pid = ?1 WHERE playbook = ?2 AND entry = ?3 AND scheduled_ms = ?4 AND pid = ?5",
                [
                    .integer(Int(pid)), .text(fire.key.playbook), .integer(fire.key.entry), .integer(Int(fire.key.scheduledMilliseconds)),
                    .integer(owner),
                ])
            guard changed == 1 else { continue }
            adopted.append(fire)
        }
        return adopted
    }

    public func history(playbook: String?, limit: Int) async throws -> [FireRecord] {
        try await SQLiteState.io.run { [self] in
            let rows = try database.query(FireHistoryRows.query(name: "?1", limit: "?2", catchUp: "catch_up"), [playbook.map(SQLValue.text) ?? .null, .integer(limit)])
            return rows.compactMap(FireHistoryRows.record)
        }
    }

    /// `true` when this call recorded the fire, `false` when its key was there before.
    private func insert(_ fire: Fire, outcome: String, at: Double) throws(StoreError) -> Bool {
        try database.run(
            """
            INSERT INTO fires (playbook, entry, scheduled_ms, outcome, catch_up, recorded, pid)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) ON CONFLICT DO NOTHING
            """,
            [
                .text(fire.key.playbook), .integer(fire.key.entry), .integer(Int(fire.key.scheduledMilliseconds)),
                .text(outcome), .integer(fire.isCatchUp ? 1 : 0), .real(at), .integer(Int(pid)),
            ]) == 1
    }
}

/// One row of `fires`: a fire, and whether it was started (or recorded as skipped).
public struct RecordedFire: Sendable, Hashable {
    public var fire: Fire
    public var started: Bool
}
