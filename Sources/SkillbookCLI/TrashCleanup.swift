import Foundation
import SkillbookSkills
import SkillbookStore

/// Empties the trash folders that no run left in the journal can use any more (see `Trash`):
/// after `runs prune`, and after a run when the journal's cap pruned older runs.
enum TrashCleanup {
    /// A trash folder is kept at least this long (a day), whatever the journal says: a call still
    /// running in another process has not recorded it yet, and it leaves time to fish something out by hand.
    static let grace: TimeInterval = 86_400

    /// The names of the folders deleted.
    @discardableResult
    static func sweep(journal: SQLiteJournal, stateDirectory: URL, now: Date = Date()) throws -> [String] {
        let trash = Trash(stateDirectory: stateDirectory)
        guard FileManager.default.fileExists(atPath: trash.root) else { return [] }
        let outputs = try journal.callOutputs(mentioning: Trash.marker)
        return trash.sweep(keeping: trash.mentioned(in: outputs), madeBefore: now.addingTimeInterval(-grace))
    }
}
