public import Foundation
public import SkillbookCore
import SkillbookPostgres
import SkillbookSQLite

/// Where a host keeps what lasts, and what that place can do (see `StateBackend`): SQLite files in
/// the state directory by default; a PostgreSQL database shared by several machines plugs in here.
public typealias HostPersistence = StateBackend

extension StateBackend {
    /// The SQLite journal and stores in `<stateDirectory>/skillbook.sqlite`, on `clock`.
    public static func sqlite(stateDirectory: URL, clock: any WallClock = SystemClock()) -> StateBackend {
        SQLiteState.backend(stateDirectory: stateDirectory, clock: clock)
    }

    /// The journal, leases, resource locks, schedule fires, built-in stores and run queue in the
    /// PostgreSQL database of `connectionString` (`postgresql://USER@HOST:PORT/DB`), shared by every
    /// process and machine that names it. A string that is not such a URL fails on first use, with
    /// a message that shows the expected form (and never the password).
    public static func postgres(
        _ connectionString: String, clock: any WallClock = SystemClock(), leases: LeaseSettings = LeaseSettings(), worker: String? = nil
    ) -> StateBackend {
        PostgresState.backend(connectionString, clock: clock, leases: leases, worker: worker)
    }
}

extension PlaybookHost {
    /// Whether the default SQLite state already exists in the state directory (always true for a
    /// configured backend such as PostgreSQL): what a read that must create nothing — completion —
    /// asks before it opens the journal.
    public var stateExists: Bool {
        guard configuration.persistence == nil else { return true }
        return SQLiteState.exists(stateDirectory: configuration.stateDirectory)
    }
}
