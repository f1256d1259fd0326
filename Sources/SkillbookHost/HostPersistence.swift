public import Foundation
public import SkillbookCore
import SkillbookStore

/// Where a host keeps what lasts: the run journal, and the stores of the built-in skills (notes,
/// reminders). SQLite files in the state directory by default; another backend (a database shared
/// by several machines) plugs in here.
public struct HostPersistence: Sendable {
    /// Opens the journal; called once per host call that records or reads runs. Throws the store's
    /// own error (its message names the store and what to do).
    public var openJournal: @Sendable () throws -> any RunJournal
    public var stores: BuiltinStores

    public init(openJournal: @escaping @Sendable () throws -> any RunJournal, stores: BuiltinStores) {
        self.openJournal = openJournal
        self.stores = stores
    }

    /// The SQLite journal and stores in `<stateDirectory>/skillbook.sqlite`, on `clock`.
    public static func sqlite(stateDirectory: URL, clock: any Clock = SystemClock()) -> HostPersistence {
        HostPersistence(
            openJournal: { try SQLiteJournal(stateDirectory: stateDirectory, clock: clock) },
            stores: .sqlite(stateDirectory: stateDirectory, clock: clock))
    }
}
