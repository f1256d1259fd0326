public import SkillbookCore
import Synchronization
import SkillbookSQL

extension BuiltinStores {
    /// The notes and reminders stores in the PostgreSQL state at `location`, connected on first
    /// use and shared by every later call (a failure to connect is not remembered: the next call
    /// tries again).
    public static func postgres(_ location: PostgresURL, clock: any WallClock = SystemClock(), ids: IDGenerator = .live) -> BuiltinStores {
        let database = LazyDatabase(location)
        return BuiltinStores(
            notes: { OffloadedNotes(PostgresNotesStore(database: try database.get(), clock: clock, ids: ids), io: PostgresState.io) },
            reminders: {
                OffloadedReminders(PostgresRemindersStore(database: try database.get(), clock: clock, ids: ids), io: PostgresState.io)
            })
    }
}

/// A database connected on first use and kept.
final class LazyDatabase: Sendable {
    let location: PostgresURL
    private let opened = Mutex<PostgresDatabase?>(nil)

    init(_ location: PostgresURL) { self.location = location }

    func get() throws(PostgresError) -> PostgresDatabase {
        if let database = opened.withLock({ $0 }) { return database }
        let database = try PostgresDatabase.open(location)
        opened.withLock { $0 = database }
        return database
    }
}
