public import Foundation
public import SkillbookCore
import Synchronization
public import SkillbookSQL

/// Write locks on resources across processes, on the state database (`resource_locks`): two runs —
/// in this process or in any other on the same state file — never hold the same resource at once.
///
/// A lock row names its run and step, the holder's process (pid, host, boot, start) and a
/// heartbeat this object refreshes every `heartbeatInterval` seconds while it holds anything. A
/// lock whose holder is gone by the rules of `ProcessProbe` (on this machine: the pid is dead, a
/// zombie, reused, or the machine restarted; elsewhere: no heartbeat for `leaseDuration`) is taken
/// over by the next run that asks, and so is one whose run the journal records as ended. All of a step's resources are taken in one transaction, or none.
///
/// A waiting step polls every `pollInterval` seconds on the clock, so cancelling its task (Ctrl-C)
/// ends the wait within that time, holding nothing. Each wait is recorded in `resource_waits`
/// (which run held what, from when to when, and whether the waiter got it or gave up), for the
/// timeline of `runs show`.
public final class SQLiteResourceLocks: SQLResourceLocks {
    public let database: Database
    public let holdings: LockHoldings

    public convenience init(
        stateDirectory: URL, probe: ProcessProbe = .live, clock: any WallClock = SystemClock(), pollInterval: Double = 0.05,
        heartbeatInterval: Double = 2, leaseDuration: Double = 15
    ) throws(StoreError) {
        try self.init(
            database: StateDatabase.open(stateDirectory: stateDirectory), probe: probe, clock: clock,
            pollInterval: pollInterval, heartbeatInterval: heartbeatInterval, leaseDuration: leaseDuration)
    }

    public convenience init(
        database: Database, probe: ProcessProbe = .live, clock: any WallClock = SystemClock(), pollInterval: Double = 0.05,
        heartbeatInterval: Double = 2, leaseDuration: Double = 15
    ) throws(StoreError) {
        try database.migrate(StateDatabase.migrations)
        self.init(
            migrated: database, probe: probe, clock: clock, pollInterval: pollInterval, heartbeatInterval: heartbeatInterval,
            leaseDuration: leaseDuration)
    }

    /// Locks on a state database already at the current schema (the journal's own, which opening
    /// the journal migrated): nothing to migrate, so nothing can fail.
    public init(
        migrated database: Database, probe: ProcessProbe = .live, clock: any WallClock = SystemClock(), pollInterval: Double = 0.05,
        heartbeatInterval: Double = 2, leaseDuration: Double = 15
    ) {
        self.database = database
        holdings = LockHoldings(
            clock: clock, probe: probe, pollInterval: pollInterval, heartbeatInterval: heartbeatInterval, leaseDuration: leaseDuration,
            io: SQLiteState.io
        ) { runs in
            Self.beat(runs, database: database, probe: probe, clock: clock)
        }
    }

    public func deleteLocks(_ resources: [String], of runID: String) throws {
        try database.run(
            "DELETE FROM resource_locks WHERE run = ?1 AND resource IN (SELECT value FROM json_each(?2))",
            [.text(runID), LockHoldings.list(resources)])
    }

    /// Who holds each resource now (a holder that is gone still shows until someone takes over).
    public func holders() throws(StoreError) -> [String: String] {
        LockHoldings.holders(try database.query("SELECT resource, run FROM resource_locks"))
    }

    // MARK: Taking

    /// In one transaction: when every wanted resource is free (or held by a holder that is gone,
    /// or already by `runID`), takes them all and returns `nil`; otherwise takes none and says
    /// which are busy and who holds them.
    public func take(_ wanted: [String], runID: String, step: String) throws -> ResourceWait? {
        let me = holdings.probe.current()
        let now = holdings.clock.now().timeIntervalSince1970
        let names = LockHoldings.list(wanted)
        return try database.transaction { () throws -> ResourceWait? in
            var busy: [(resource: String, run: String)] = []
            let rows = try database.query(
                """
                SELECT resource, run, pid, host, boot, process_start, heartbeat,
                    (SELECT status FROM runs WHERE runs.id = resource_locks.run) AS run_status
                FROM resource_locks
                WHERE resource IN (SELECT value FROM json_each(?1))
                """, [names])
            for row in rows {
                guard let resource = row.string("resource"), let run = row.string("run") else { continue }
                if run == runID { continue }
                // A holder that is gone loses the lock: the upsert below takes it over.
                if holdings.holderIsAlive(row, age: now - (row.double("heartbeat") ?? 0)) { busy.append((resource, run)) }
            }
            if !busy.isEmpty {
                busy.sort { $0.resource < $1.resource }
                return ResourceWait(resources: busy.map(\.resource), heldBy: busy.first?.run)
            }
            for resource in wanted {
                try database.run(
                    """
                    INSERT INTO resource_locks (resource, run, step, pid, host, boot, process_start, acquired, heartbeat)
                    VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?8)
                    ON CONFLICT (resource) DO UPDATE SET run = ?2, step = ?3, pid = ?4, host = ?5, boot = ?6,
                        process_start = ?7, acquired = ?8, heartbeat = ?8
                    """,
                    [
                        .text(resource), .text(runID), .text(step), .integer(Int(me.pid)), .text(me.host), SQLValue(me.boot),
                        SQLValue(me.start), .real(now),
                    ])
            }
            return nil
        }
    }

    // MARK: Waits

    /// Records the start of a wait.
    public func recordWait(_ wait: ResourceWait, runID: String, step: String) throws -> Int {
        let now = holdings.clock.now().timeIntervalSince1970
        return try database.locked { (_) throws(StoreError) -> Int in
            try database.run(
                "INSERT INTO resource_waits (run, step, resources, held_by, started) VALUES (?1, ?2, ?3, ?4, ?5)",
                [
                    .text(runID), .text(step), LockHoldings.list(wait.resources), SQLValue(wait.heldBy), .real(now),
                ])
            return database.lastInsertRowID
        }
    }

    public func endWait(_ row: Int, outcome: String) throws {
        try database.run(
            "UPDATE resource_waits SET ended = ?2, outcome = ?3 WHERE id = ?1",
            [.integer(row), .real(holdings.clock.now().timeIntervalSince1970), .text(outcome)])
    }

    // MARK: Heartbeat

    /// Refreshes the heartbeat of the locks of `runs` held by this process.
    private static func beat(_ runs: [String], database: Database, probe: ProcessProbe, clock: any WallClock) {
        let me = probe.current()
        _ = try? database.run(
            """
            UPDATE resource_locks SET heartbeat = ?1
            WHERE pid = ?2 AND host = ?3 AND run IN (SELECT value FROM json_each(?4))
            """,
            [
                .real(clock.now().timeIntervalSince1970), .integer(Int(me.pid)), .text(me.host),
                LockHoldings.list(runs),
            ])
    }
}
