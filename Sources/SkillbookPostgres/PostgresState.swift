internal import CPostgres
public import SkillbookCore
import SkillbookSQL

/// The state shared by every process and machine that names one PostgreSQL database.
public enum PostgresState {
    /// Whether `text` (a `--state` value) names a PostgreSQL database rather than a state directory.
    public static func isConnectionString(_ text: String) -> Bool { PostgresURL.looksLikeURL(text) }

    /// The journal, leases, resource locks, schedule fires, built-in stores and the run queue in
    /// the PostgreSQL database of `connectionString` (`postgresql://USER@HOST:PORT/DB`). A string
    /// that is not such a URL fails on first use, with a message that shows the expected form (and
    /// never the password). `worker` is recorded on the runs its journal claims.
    public static func backend(
        _ connectionString: String, clock: any WallClock = SystemClock(), leases: LeaseSettings = LeaseSettings(), worker: String? = nil
    ) -> StateBackend {
        guard let location = PostgresURL(connectionString) else {
            let failure = PostgresError(
                .connection,
                message: "'\(PostgresURL.redactedGuess(connectionString))' is not a PostgreSQL connection string; "
                    + "write postgresql://USER@HOST:PORT/DATABASE")
            return .failing(failure, queuesRuns: true)
        }
        let openJournal: @Sendable () throws -> OffloadedJournal<PostgresJournal> = {
            let journal = PostgresJournal(
                database: try PostgresDatabase.open(location), clock: clock, heartbeatInterval: leases.heartbeatInterval,
                leaseDuration: leases.leaseDuration, worker: worker)
            return OffloadedJournal(journal, io: io)
        }
        return StateBackend(
            openJournal: openJournal,
            stores: .postgres(location, clock: clock),
            resourceLocks: { journal in
                // On the journal's own pool of connections.
                guard let journal = (journal as? OffloadedJournal<PostgresJournal>)?.base else { return nil }
                return PostgresResourceLocks(
                    database: journal.database, clock: clock, heartbeatInterval: min(2, leases.heartbeatInterval),
                    leaseDuration: leases.leaseDuration)
            },
            openFireLedger: { PostgresFireLedger(database: try PostgresDatabase.open(location)) },
            openNotificationLedger: { PostgresNotificationLedger(database: try PostgresDatabase.open(location), now: { clock.now() }) },
            openRunQueue: openJournal,
            approvals: { journal in journal as? OffloadedJournal<PostgresJournal> })
    }

    /// The threads libpq's round trips, and waits for a pooled connection, block (see `BlockingIO`).
    static let io = BlockingIO(label: "skillbook.postgres")
}

extension PostgresFireLedger: AdoptingFireLedger {
    /// A claim of another host counts as orphaned after 120 seconds.
    public func adoptOrphans(isAlive: (Int32) -> Bool) async throws -> [Fire] {
        try adoptOrphans(isAlive: isAlive, foreignAfter: 120)
    }
}

extension PostgresState {
    /// Why libpq cannot be loaded, or `nil` when it loads (what the first connection would do;
    /// `skillbook doctor` asks).
    public static var libraryProblem: String? {
        skb_pq_load().map { String(cString: $0) }
    }
}

extension PostgresState {
    /// The schema version of the database of `connectionString` (opening it brings it up to date,
    /// as any command would) and the one this build writes.
    public static func schemaVersion(_ connectionString: String) throws -> (stored: Int, current: Int) {
        guard let location = PostgresURL(connectionString) else {
            throw PostgresError(.connection, message: "'\(PostgresURL.redactedGuess(connectionString))' is not a PostgreSQL connection string")
        }
        let database = try PostgresDatabase.open(location)
        let stored = try database.query(PostgresSchema.versionQuery, doing: "reading the schema version")
            .first?.int("v") ?? 0
        return (stored, PostgresSchema.version)
    }
}
