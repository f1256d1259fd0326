public import Foundation
import SkillbookSkills
public import SkillbookCore

/// Empties the trash folders that no run left in the journal can use any more (see `Trash`):
/// after pruning the journal, and after a run when the journal's cap pruned older runs.
public enum TrashCleanup {
    /// A trash folder is kept at least this long (a day) whatever the journal holds: it leaves
    /// time to fish something out by hand.
    public static let grace: TimeInterval = 86_400
    /// Folder names give their time to the second, and clocks step: a folder made this close
    /// before the oldest run's start is kept as if it might be that run's.
    public static let margin: TimeInterval = 60

    /// The names of the folders deleted: those made before the oldest run left in the journal
    /// started, and a day old.
    @discardableResult
    public static func sweep(journal: any RunJournal, stateDirectory: URL, now: Date) async throws -> [String] {
        let trash = Trash(stateDirectory: stateDirectory)
        guard FileManager.default.fileExists(atPath: trash.root) else { return [] }
        var cutoff = now.addingTimeInterval(-grace)
        if let oldest = try await journal.oldestRunStart() { cutoff = min(cutoff, oldest.addingTimeInterval(-margin)) }
        return trash.sweep(madeBefore: cutoff)
    }
}

/// What pruning the journal did.
public struct PruneResult: Sendable, Hashable {
    /// Runs deleted from the journal.
    public var runs: Int
    /// Trash folders emptied.
    public var trashFolders: Int
}

extension PlaybookHost {
    /// Deletes runs started before `cutoff` and/or all but the newest `keep` (a run a live process
    /// holds is never deleted), then empties the trash older than every run kept.
    public func prune(olderThan cutoff: Date?, keepingNewest keep: Int?) async throws(HostError) -> PruneResult {
        let journal = try openJournal()
        return try await HostError.journaling {
            let runs = try await journal.prune(olderThan: cutoff, keepingNewest: keep)
            let folders = try await TrashCleanup.sweep(journal: journal, stateDirectory: configuration.stateDirectory, now: configuration.clock.now())
            return PruneResult(runs: runs, trashFolders: folders.count)
        }
    }

    /// Prunes now what the workspace's retention (`configuration.retention`) and each run's own
    /// `keep_until` let go, batch after batch, then empties the trash older than every run kept.
    public func pruneByRetention() async throws(HostError) -> PruneResult {
        let journal = try openJournal()
        return try await HostError.journaling {
            var runs = 0
            let batch = JournalRetention.explicitBatch
            while true {
                let deleted = try await journal.pruneBatch(
                    RetentionRules(workspace: configuration.retention), now: configuration.clock.now(), limit: batch)
                runs += deleted
                if deleted < batch { break }
            }
            let folders = try await TrashCleanup.sweep(journal: journal, stateDirectory: configuration.stateDirectory, now: configuration.clock.now())
            return PruneResult(runs: runs, trashFolders: folders.count)
        }
    }
}
