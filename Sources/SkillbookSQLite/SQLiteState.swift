public import Foundation
public import SkillbookCore
import SkillbookSQL

/// The state of one machine: `<stateDirectory>/skillbook.sqlite`, shared by the processes that
/// name that directory.
public enum SQLiteState {
    /// The journal, the built-in stores, resource locks and schedule fires in the state
    /// directory's database, on `clock`. It keeps no run queue: that needs a state shared by
    /// machines.
    public static func backend(stateDirectory: URL, clock: any WallClock = SystemClock()) -> StateBackend {
        StateBackend(
            openJournal: { OffloadedJournal(try SQLiteJournal(stateDirectory: stateDirectory, clock: clock), io: io) },
            stores: .sqlite(stateDirectory: stateDirectory, clock: clock),
            resourceLocks: { journal in
                // On the journal's own database (already migrated by opening the journal).
                guard let journal = (journal as? OffloadedJournal<SQLiteJournal>)?.base else { return nil }
                return SQLiteResourceLocks(migrated: journal.database, clock: clock)
            },
            openFireLedger: { try SQLiteFireLedger(database: StateDatabase.open(stateDirectory: stateDirectory)) },
            openNotificationLedger: {
                SQLiteNotificationLedger(database: try StateDatabase.open(stateDirectory: stateDirectory), now: { clock.now() })
            },
            openRunQueue: nil,
            approvals: { journal in journal as? OffloadedJournal<SQLiteJournal> })
    }

    /// The threads the state file's locks, busy waits and flushes to disk block (see `BlockingIO`).
    static let io = BlockingIO(label: "skillbook.sqlite")

    /// Whether the state directory already holds the database (nothing is created to find out).
    public static func exists(stateDirectory: URL) -> Bool {
        FileManager.default.fileExists(atPath: StateDatabase.url(in: stateDirectory).path)
    }
}

extension SQLiteFireLedger: AdoptingFireLedger {}

extension SQLiteState {
    /// The schema version of the state directory's database (opening it brings it up to date, as
    /// any command would) and the one this build writes.
    public static func schemaVersion(stateDirectory: URL) throws -> (stored: Int, current: Int) {
        let database = try StateDatabase.open(stateDirectory: stateDirectory)
        return (try database.userVersion(), StateDatabase.schemaVersion)
    }
}
