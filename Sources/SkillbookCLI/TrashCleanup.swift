import Foundation
import SkillbookSkills
import SkillbookStore

/// Empties the trash folders that no run left in the journal can use any more (see `Trash`):
/// after `runs prune`, and after a run when the journal's cap pruned older runs.
enum TrashCleanup {
    /// A trash folder is kept at least this long (a day) whatever the journal holds: it leaves
    /// time to fish something out by hand.
    static let grace: TimeInterval = 86_400
    /// Folder names give their time to the second, and clocks step: a folder made this close
    /// before the oldest run's start is kept as if it might be that run's.
    static let margin: TimeInterval = 60

    /// The names of the folders deleted: those made before the oldest run left in the journal
    /// started, and a day old.
    @discardableResult
    static func sweep(journal: SQLiteJournal, stateDirectory: URL, now: Date = Date()) throws -> [String] {
        let trash = Trash(stateDirectory: stateDirectory)
        guard FileManager.default.fileExists(atPath: trash.root) else { return [] }
        var cutoff = now.addingTimeInterval(-grace)
        if let oldest = try journal.oldestRunStart() { cutoff = min(cutoff, oldest.addingTimeInterval(-margin)) }
        return trash.sweep(madeBefore: cutoff)
    }
}
