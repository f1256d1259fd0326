/// How the built-in skills reach the stores they keep data in (notes, reminders).
///
/// Each closure returns the store, opening it on first use; a conformer should hand out the same
/// store to every call once it is open, and should not remember a failure to open, so a fixed
/// state file is picked up by the next call. SkillbookSQLite's `BuiltinStores.sqlite(stateDirectory:)`
/// opens the SQLite stores of the state directory.
public struct BuiltinStores: Sendable {
    public var notes: @Sendable () throws -> any NotesStoring
    public var reminders: @Sendable () throws -> any RemindersStoring

    public init(
        notes: @escaping @Sendable () throws -> any NotesStoring,
        reminders: @escaping @Sendable () throws -> any RemindersStoring
    ) {
        self.notes = notes
        self.reminders = reminders
    }
}
