import Foundation
public import SkillbookCore
public import SkillbookPostgres
import SkillbookRuntime
import SkillbookStore

extension HostPersistence {
    /// The journal, leases, resource locks, schedule fires and built-in stores in the PostgreSQL
    /// database of `connectionString` (`postgresql://USER@HOST:PORT/DB`), shared by every process
    /// and machine that names it. A string that is not such a URL fails on first use, with a
    /// message that shows the expected form (and never the password).
    public static func postgres(
        _ connectionString: String, clock: any Clock = SystemClock(), leases: LeaseSettings = LeaseSettings(), worker: String? = nil
    ) -> HostPersistence {
        guard let location = PostgresURL(connectionString) else {
            let failure = PostgresError(
                .connection,
                message: "'\(PostgresURL.redactedGuess(connectionString))' is not a PostgreSQL connection string; "
                    + "write postgresql://USER@HOST:PORT/DATABASE")
            return HostPersistence(
                openJournal: { throw failure }, stores: BuiltinStores(notes: { throw failure }, reminders: { throw failure }),
                openFireLedger: { throw failure })
        }
        return HostPersistence(
            openJournal: {
                PostgresJournal(
                    database: try PostgresDatabase.open(location), clock: clock, heartbeatInterval: leases.heartbeatInterval,
                    leaseDuration: leases.leaseDuration, worker: worker)
            },
            stores: .postgres(location, clock: clock),
            resourceLocks: { journal in
                guard let journal = journal as? PostgresJournal else { return ResourceLocks.shared }
                return PostgresResourceLocks(
                    database: journal.database, clock: clock, heartbeatInterval: min(2, leases.heartbeatInterval),
                    leaseDuration: leases.leaseDuration)
            },
            openFireLedger: { PostgresFireLedger(database: try PostgresDatabase.open(location)) })
    }
}

/// How often a holder renews the lease of a run and how long a lease lasts without renewal.
public struct LeaseSettings: Sendable, Hashable {
    /// Seconds between heartbeats (default 5).
    public var heartbeatInterval: Double
    /// Seconds a lease lasts after its last heartbeat (default 15).
    public var leaseDuration: Double

    public init(heartbeatInterval: Double = 5, leaseDuration: Double = 15) {
        self.heartbeatInterval = heartbeatInterval
        self.leaseDuration = leaseDuration
    }

    /// The defaults, changed by `SKILLBOOK_HEARTBEAT` and `SKILLBOOK_LEASE` (seconds) when set to
    /// positive numbers (tests and benchmarks shorten them).
    public static func from(_ environment: [String: String]) -> LeaseSettings {
        var settings = LeaseSettings()
        if let beat = environment["SKILLBOOK_HEARTBEAT"].flatMap(Double.init), beat > 0 { settings.heartbeatInterval = beat }
        if let lease = environment["SKILLBOOK_LEASE"].flatMap(Double.init), lease > 0 { settings.leaseDuration = lease }
        return settings
    }
}

extension PostgresFireLedger: HostFireLedger {
    public func adoptOrphans(isAlive: (Int32) -> Bool) async throws -> [Fire] {
        try adoptOrphans(isAlive: isAlive, foreignAfter: 120)
    }
}
