import Foundation
public import SkillbookCore
public import SkillbookSQL
import Synchronization

/// Write locks on resources in the PostgreSQL state (`resource_locks`): two runs, on any machine
/// sharing the database, never hold the same resource at once. The same rules as
/// `SQLiteResourceLocks`: all of a step's resources or none, one transaction per attempt
/// (serialised by a transaction-scoped advisory lock, since rows that do not exist yet cannot be
/// locked); a lock whose holder is gone (same host: by `ProcessProbe`; elsewhere: no heartbeat for
/// `leaseDuration` seconds by the server's clock) or whose run has ended is taken over; waits are
/// recorded in `resource_waits` and poll every `pollInterval` seconds, so cancelling ends one.
public final class PostgresResourceLocks: SQLResourceLocks {
    public let database: PostgresDatabase
    public let holdings: LockHoldings
    private static let lockKey = 0x736b_6c62_6c6b  // any constant every skillbook process shares

    public init(
        database: PostgresDatabase, probe: ProcessProbe = .live, clock: any WallClock = SystemClock(), pollInterval: Double = 0.05,
        heartbeatInterval: Double = 2, leaseDuration: Double = 15
    ) {
        self.database = database
        holdings = LockHoldings(
            clock: clock, probe: probe, pollInterval: pollInterval, heartbeatInterval: heartbeatInterval, leaseDuration: leaseDuration,
            io: PostgresState.io
        ) { runs in
            Self.beat(runs, database: database, probe: probe)
        }
    }

    public func deleteLocks(_ resources: [String], of runID: String) throws {
        try database.run(
            "DELETE FROM resource_locks WHERE run = $1 AND resource IN (SELECT json_array_elements_text($2::json))",
            [.text(runID), LockHoldings.list(resources)])
    }

    /// Who holds each resource now.
    public func holders() throws -> [String: String] {
        LockHoldings.holders(try database.query("SELECT resource, run FROM resource_locks"))
    }

    public func take(_ wanted: [String], runID: String, step: String) throws -> ResourceWait? {
        let me = holdings.probe.current()
        let names = LockHoldings.list(wanted)
        return try database.transaction(doing: "taking resources \(wanted.joined(separator: ", "))") { transaction -> ResourceWait? in
            try transaction.query("SELECT pg_advisory_xact_lock($1)", [.integer(Self.lockKey)])
            let rows = try transaction.query(
                """
                SELECT resource, run, pid, host, boot, process_start,
                    extract(epoch from clock_timestamp()) - heartbeat AS age,
                    (SELECT status FROM runs WHERE runs.id = resource_locks.run) AS run_status
                FROM resource_locks WHERE resource IN (SELECT json_array_elements_text($1::json))
                """, [names])
            var busy: [(resource: String, run: String)] = []
            for row in rows {
                guard let resource = row.string("resource"), let run = row.string("run"), run != runID else { continue }
                if holdings.holderIsAlive(row, age: row.double("age") ?? .infinity) { busy.append((resource, run)) }
            }
            if !busy.isEmpty {
                busy.sort { $0.resource < $1.resource }
                return ResourceWait(resources: busy.map(\.resource), heldBy: busy.first?.run)
            }
            for resource in wanted {
                try transaction.run(
                    """
                    INSERT INTO resource_locks (resource, run, step, pid, host, boot, process_start, acquired, heartbeat)
                    VALUES ($1, $2, $3, $4, $5, $6, $7, extract(epoch from clock_timestamp()), extract(epoch from clock_timestamp()))
                    ON CONFLICT (resource) DO UPDATE SET run = excluded.run, step = excluded.step, pid = excluded.pid,
                        host = excluded.host, boot = excluded.boot, process_start = excluded.process_start,
                        acquired = excluded.acquired, heartbeat = excluded.heartbeat
                    """,
                    [
                        .text(resource), .text(runID), .text(step), .integer(Int(me.pid)), .text(me.host), SQLValue(me.boot),
                        SQLValue(me.start),
                    ])
            }
            return nil
        }
    }

    public func recordWait(_ wait: ResourceWait, runID: String, step: String) throws -> Int {
        let rows = try database.query(
            "INSERT INTO resource_waits (run, step, resources, held_by, started) VALUES ($1, $2, $3, $4, $5) RETURNING id",
            [
                .text(runID), .text(step), LockHoldings.list(wait.resources), SQLValue(wait.heldBy),
                .real(holdings.clock.now().timeIntervalSince1970),
            ])
        return rows.first?.int("id") ?? 0
    }

    public func endWait(_ row: Int, outcome: String) throws {
        try database.run(
            "UPDATE resource_waits SET ended = $2, outcome = $3 WHERE id = $1",
            [.integer(row), .real(holdings.clock.now().timeIntervalSince1970), .text(outcome)])
    }

    /// Refreshes the heartbeat of the locks of `runs` held by this process.
    private static func beat(_ runs: [String], database: PostgresDatabase, probe: ProcessProbe) {
        let me = probe.current()
        _ = try? database.run(
            """
            UPDATE resource_locks SET heartbeat = extract(epoch from clock_timestamp())
            WHERE pid = $1 AND host = $2 AND run IN (SELECT json_array_elements_text($3::json))
            """, [.integer(Int(me.pid)), .text(me.host), LockHoldings.list(runs)])
    }
}
