public import Foundation
import SkillbookCore
import SkillbookSQL

extension SQLiteJournal {
    /// How many runs the journal keeps when nothing else is said: the newest 1,000.
    public static let defaultRetention = JournalRetention.defaultRuns

    /// Deletes (with their calls, steps, compensations and sessions) the runs that started before
    /// `olderThan`, and all but the newest `keepingNewest`. A run that a live process holds is never
    /// deleted. Returns how many runs were deleted.
    @discardableResult
    public func prune(olderThan cutoff: Date? = nil, keepingNewest keep: Int? = nil) throws(StoreError) -> Int {
        if cutoff == nil, let keep {
            // The common case after every run: nothing to do unless over the cap.
            let count = try query("SELECT count(*) FROM runs").first?[0].intValue ?? 0
            guard count > keep else { return 0 }
        }
        return try transaction { () throws(StoreError) -> Int in
            let now = clock.now()
            var live: [Value] = []
            for row in try query("SELECT \(Self.runColumns) FROM runs WHERE status = 'running'") {
                let run = try journalRun(row, now: now)
                if run.status == .running { live.append(.string(run.id)) }
            }
            let keepIDs = SQLValue.text(JSONText.encode(.array(live)))
            var deleted = 0
            if let cutoff {
                deleted += try execute(
                    "DELETE FROM runs WHERE started < ?1 AND id NOT IN (SELECT value FROM json_each(?2))",
                    [.real(cutoff.timeIntervalSince1970), keepIDs])
            }
            if let keep {
                deleted += try execute(
                    """
                    DELETE FROM runs
                    WHERE id NOT IN (SELECT id FROM runs ORDER BY started DESC, rowid DESC LIMIT ?1)
                        AND id NOT IN (SELECT value FROM json_each(?2))
                    """,
                    [.integer(max(0, keep)), keepIDs])
            }
            return deleted
        }
    }
}
