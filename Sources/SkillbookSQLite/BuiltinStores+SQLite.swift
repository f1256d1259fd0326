public import Foundation
public import SkillbookCore
import Synchronization
import SkillbookSQL

extension BuiltinStores {
    /// The notes and reminders stores in `<stateDirectory>/skillbook.sqlite`, each opened on first
    /// use and shared by every later call (from any task). A failure to open is not remembered.
    public static func sqlite(
        stateDirectory: URL, clock: any WallClock = SystemClock(), ids: IDGenerator = .live
    ) -> BuiltinStores {
        let notes = Opened<NotesStore>()
        let reminders = Opened<RemindersStore>()
        return BuiltinStores(
            notes: {
                OffloadedNotes(
                    try notes.get { () throws(StoreError) in try NotesStore(stateDirectory: stateDirectory, clock: clock, ids: ids) },
                    io: SQLiteState.io)
            },
            reminders: {
                OffloadedReminders(
                    try reminders.get { () throws(StoreError) in
                        try RemindersStore(stateDirectory: stateDirectory, clock: clock, ids: ids)
                    }, io: SQLiteState.io)
            })
    }
}

/// A store opened on first use.
private final class Opened<Store: Sendable>: Sendable {
    private let store = Mutex<Store?>(nil)

    func get(_ open: () throws(StoreError) -> Store) throws(StoreError) -> Store {
        try store.withLock { (opened) throws(StoreError) -> Store in
            if let opened { return opened }
            let made = try open()
            opened = made
            return made
        }
    }
}
