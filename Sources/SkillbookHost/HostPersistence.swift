public import Foundation
public import SkillbookCore
public import SkillbookRuntime
import SkillbookStore

/// Where a host keeps what lasts: the run journal, and the stores of the built-in skills (notes,
/// reminders). SQLite files in the state directory by default; another backend (a database shared
/// by several machines) plugs in here.
public struct HostPersistence: Sendable {
    /// Opens the journal; called once per host call that records or reads runs. Throws the store's
    /// own error (its message names the store and what to do).
    public var openJournal: @Sendable () throws -> any RunJournal
    public var stores: BuiltinStores
    /// The write locks of a run recorded in `journal` (nil: a dry run): locks that other processes
    /// sharing the state see too, so two runs never write one resource at once.
    public var resourceLocks: @Sendable (_ journal: (any RunJournal)?) -> any ResourceLocking

    public init(
        openJournal: @escaping @Sendable () throws -> any RunJournal, stores: BuiltinStores,
        resourceLocks: @escaping @Sendable ((any RunJournal)?) -> any ResourceLocking = { _ in ResourceLocks.shared }
    ) {
        self.openJournal = openJournal
        self.stores = stores
        self.resourceLocks = resourceLocks
    }

    /// The SQLite journal and stores in `<stateDirectory>/skillbook.sqlite`, on `clock`.
    public static func sqlite(stateDirectory: URL, clock: any Clock = SystemClock()) -> HostPersistence {
        HostPersistence(
            openJournal: { try SQLiteJournal(stateDirectory: stateDirectory, clock: clock) },
            stores: .sqlite(stateDirectory: stateDirectory, clock: clock),
            resourceLocks: { journal in
                // On the state database when the run is journaled there (a dry run: among this process's runs).
                guard let journal = journal as? SQLiteJournal else { return ResourceLocks.shared }
                return SQLiteResourceLocks(migrated: journal.database, clock: clock)
            })
    }
}
