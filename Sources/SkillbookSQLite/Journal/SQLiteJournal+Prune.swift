public import Foundation
public import SkillbookCore
import SkillbookSQL

/// Pruning: the runs to delete are read from a range of an index of `runs`, oldest first, in
/// batches, into the connection's table `temp.pruning`; their calls, results, step ends and
/// sessions are deleted by ranges of the indexes on the run's `seq` (the oldest runs' rows sit
/// together at the start of each, see `RunSeqMigration`), their compensations, waits, approvals and
/// notifications by their run's id (tables most runs have no row in). So pruning costs what it
/// deletes, whatever the history holds.
extension SQLiteJournal {
    /// How many runs one transaction of `prune` deletes. The runs' primary key is the one index
    /// still keyed by the random id: its entries of the oldest runs are spread over all its pages,
    /// and a transaction deleting k of n runs changes about 1 − (1 − k/n)^90 of them (90 ids a
    /// page): 10,000 of 1M runs, 60 %; 50,000, 99 %. Each page a transaction changes is written to
    /// the WAL and again at the checkpoint, so 100,000 runs in transactions of 10,000 wrote the
    /// index six times over, in transactions of 50,000 twice. A transaction of 50,000 holds the
    /// write lock about a second on an idle machine (another writer waits up to its 5 s busy
    /// timeout); the background pass (`pruneBatch`, `JournalRetention.batch`) stays small.
    static let pruneChunk = JournalRetention.explicitBatch

    /// The page cache of a transaction of pruning, per run it may delete (KiB): the pages it
    /// changes (about 1.5 KiB a run at 50,000 of 1M runs: the rows' pages, each index's share, the
    /// primary key's) and those it reads, so that none is written before the commit (see
    /// `Database.withPageCache`). At most 256 MiB; below SQLite's 2 MB default, the default.
    static let pruneCachePerRun = 4
    static let pruneCacheMax = 262_144

    /// Deletes the runs that started before `olderThan`, and all but the newest `keepingNewest`, in
    /// transactions of `pruneChunk` runs. A run that is not finished (running, queued, waiting) is
    /// never deleted, but for a `running` one whose process is gone. Returns how many were deleted.
    @discardableResult
    public func prune(olderThan cutoff: Date? = nil, keepingNewest keep: Int? = nil) throws(StoreError) -> Int {
        let dead = SQLValue.text(JSONText.encode(.array(try deadRunIDs().map(Value.string))))
        let prunable = "(\(Self.prunable) OR id IN (SELECT value FROM json_each(\(Self.deadList))))"
        var deleted = 0
        if let cutoff {
            try transaction { () throws(StoreError) in try forgetMissedFires(before: cutoff, limit: Int(Int32.max)) }
            while true {
                let count = try pruningTransaction(runs: Self.pruneChunk) { () throws(StoreError) -> Int in
                    try deleteRuns(
                        "started < ?1 AND \(prunable) ORDER BY started", [.real(cutoff.timeIntervalSince1970)], dead: dead,
                        limit: Self.pruneChunk)
                }
                deleted += count
                if count < Self.pruneChunk { break }
            }
        }
        if let keep {
            while true {
                let count = try pruningTransaction(runs: Self.pruneChunk) { () throws(StoreError) -> Int in
                    try deleteOverCap(playbook: nil, cap: max(0, keep), limit: Self.pruneChunk, prunable: prunable, dead: dead)
                }
                deleted += count
                if count == 0 { break }
            }
        }
        return deleted
    }

    /// One pass of background pruning, in one transaction of at most `limit` runs deleted: runs
    /// past their own `keep_until`, runs without one started before the workspace's `days`, then
    /// the oldest of the playbook over its own cap, then the oldest over the journal's cap.
    @discardableResult
    public func pruneBatch(_ rules: RetentionRules, now: Date, limit: Int) throws(StoreError) -> Int {
        try pruningTransaction(runs: limit) { () throws(StoreError) -> Int in
            var left = max(0, limit)
            if left > 0 {
                left -= try deleteRuns(
                    "keep_until IS NOT NULL AND keep_until < ?1 AND \(Self.prunable) ORDER BY keep_until",
                    [.real(now.timeIntervalSince1970)], limit: left)
            }
            if left > 0 {
                left -= try deleteRuns(
                    "keep_until IS NULL AND started < ?1 AND \(Self.prunable) ORDER BY started",
                    [.real(rules.workspace.cutoff(now: now).timeIntervalSince1970)], limit: left)
            }
            if limit > 0 { try forgetMissedFires(before: rules.workspace.cutoff(now: now), limit: limit) }
            if left > 0, let cap = rules.playbookCap {
                left -= try deleteOverCap(playbook: cap.name, cap: cap.maxRuns, limit: left, prunable: Self.prunable, dead: nil)
            }
            if left > 0 {
                left -= try deleteOverCap(playbook: nil, cap: rules.workspace.maxRuns, limit: left, prunable: Self.prunable, dead: nil)
            }
            return max(0, limit) - left
        }
    }

    /// One transaction of pruning up to `runs` runs, with foreign keys off (see
    /// `Database.withoutForeignKeys`): its statements delete every row of a run themselves
    /// (`pruneStatements`); and with a page cache for what it changes (`pruneCachePerRun`). Between
    /// two of them the connection is free for the process's other threads.
    private func pruningTransaction<T>(runs: Int, _ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        try database.withPageCache(kibibytes: min(Self.pruneCacheMax, runs * Self.pruneCachePerRun)) { () throws(StoreError) -> T in
            try database.withoutForeignKeys { () throws(StoreError) -> T in try transaction(body) }
        }
    }

    /// `status IN (…)` of the statuses a run may be pruned in. `+status`: not a constraint for an
    /// index, so that the oldest runs are read in order from the index on `started` (or
    /// `keep_until`, or the playbook's) and the read stops at the batch's size; on the index of
    /// the status, every run older than the cutoff (all of them, after the window is shortened)
    /// would be read and sorted by each pass.
    public static let prunable = "+status IN (\(JournalRetention.prunableStatuses.map { "'\($0)'" }.joined(separator: ", ")))"

    /// Where a condition names the list of dead runs' ids (JSON).
    static let deadList = "{dead}"

    /// Deletes at most `limit` runs of `SELECT … FROM runs WHERE <condition>`, where `deadList`
    /// stands for `dead`, and every row of theirs. Returns how many.
    private func deleteRuns(_ condition: String, _ parameters: [SQLValue], dead: SQLValue? = nil, limit: Int) throws(StoreError) -> Int {
        var values = parameters
        var condition = condition
        if let dead {
            // The list of dead runs is the last parameter.
            values.append(dead)
            condition = condition.replacingOccurrences(of: Self.deadList, with: "?\(values.count)")
        }
        try database.execute(Self.pruningTable)
        // The runs go into `temp.pruning` and no further: the statements below read them there, by
        // its keys, with no list to parse or sort (see `pruningTable`). It is empty here (emptied
        // below, or by the rollback of a pass that failed); emptied again for certain, at no cost.
        try execute("DELETE FROM temp.pruning")
        let count = try execute("INSERT INTO temp.pruning (seq, id) SELECT seq, id FROM runs WHERE \(condition) LIMIT \(limit)", values)
        guard count > 0 else { return 0 }
        for statement in Self.pruneStatements { try execute(statement) }
        // The blobs only pruned runs referred to go with them (see `deleteBlobsOfPrunedRuns`).
        try deleteBlobsOfPrunedRuns()
        try execute("DELETE FROM temp.pruning")
        return count
    }

    /// The runs a statement of pruning deletes: a table of this connection (`TEMP`, kept for its
    /// life, empty between two statements of pruning), keyed by `seq` and by id. Each statement of
    /// `pruneStatements` reads its runs there through one of its keys (`… IN (SELECT seq FROM
    /// temp.pruning)`): where they came as JSON lists, each statement parsed its list and sorted it
    /// into a b-tree of its own, nine times for each batch (for 100,000 runs 0.4 s of CPU, even for
    /// the tables that hold none of them). `id` is `UNIQUE` so that SQLite reads the ids through
    /// that index rather than copying them (it does so only for a unique one).
    public static let pruningTable = "CREATE TEMP TABLE IF NOT EXISTS pruning (seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE)"

    /// What deletes runs and every row of theirs, the runs of `temp.pruning` (see `pruningTable`),
    /// by their `seq` or their id. With foreign keys off (see `prune`), nothing goes by `ON DELETE
    /// CASCADE`. Each is a range (or a few rows) of an index: `RunQueryPlanTests` checks their plans.
    public static let pruneStatements: [String] =
        RunSeqMigration.childTables.map { "DELETE FROM \($0) WHERE run_seq IN (SELECT seq FROM temp.pruning)" }
        + ["compensations", "resource_waits", "approvals"].map { "DELETE FROM \($0) WHERE run IN (SELECT id FROM temp.pruning)" }
        + [
            // The notifications claimed about a pruned run go with it.
            "DELETE FROM notifications WHERE subject IN (SELECT id FROM temp.pruning)",
            "DELETE FROM runs WHERE seq IN (SELECT seq FROM temp.pruning)",
        ]

    /// Deletes the records of missed fires, and the claims of their `missed` notifications, made
    /// before `cutoff` (at most `limit` of each): they go with the runs of their time.
    func forgetMissedFires(before cutoff: Date, limit: Int) throws(StoreError) {
        let time = SQLValue.real(cutoff.timeIntervalSince1970)
        try execute(
            """
            DELETE FROM missed_fires WHERE (playbook, entry, first_ms, reason) IN
                (SELECT playbook, entry, first_ms, reason FROM missed_fires WHERE recorded < ?1 LIMIT \(limit))
            """, [time])
        try execute(
            """
            DELETE FROM notifications WHERE (subject, event) IN
                (SELECT subject, event FROM notifications WHERE event = 'missed' AND claimed < ?1 LIMIT \(limit))
            """, [time])
    }

    /// Deletes up to `limit` of the oldest runs (of `playbook`, or of the whole journal) beyond the
    /// newest `cap`, those that `prunable` allows. Runs that cannot be pruned count as kept: the
    /// newest `cap` are kept, and every unfinished one besides.
    private func deleteOverCap(playbook: String?, cap: Int, limit: Int, prunable: String, dead: SQLValue?) throws(StoreError) -> Int {
        let scope = playbook == nil ? "" : "playbook = ?1 AND "
        let scopeValues: [SQLValue] = playbook.map { [.text($0)] } ?? []
        let total: Int
        if let playbook {
            total = try query("SELECT runs FROM run_counts WHERE playbook = ?1", [.text(playbook)]).first?.int("runs") ?? 0
        } else {
            total = try runCount()
        }
        guard total > cap else { return 0 }
        // A few rows of the status index: the runs that are not finished.
        let unfinished = try query("SELECT count(*) AS n FROM runs WHERE \(scope)\(Self.unfinished)", scopeValues).first?.int("n") ?? 0
        let count = min(limit, total - cap - unfinished)
        guard count > 0 else { return 0 }
        return try deleteRuns("\(scope)\(prunable) ORDER BY started, rowid", scopeValues, dead: dead, limit: count)
    }

    /// `status IN (…)` of the statuses of runs that are not finished.
    static let unfinished = "status IN (\(JournalRetention.unfinishedStatuses.map { "'\($0)'" }.joined(separator: ", ")))"

    /// The runs stored `running` whose process is gone (reported `interrupted`).
    private func deadRunIDs() throws(StoreError) -> [String] {
        let now = clock.now()
        var dead: [String] = []
        for row in try query("SELECT \(Self.runColumns) FROM runs WHERE status = 'running'") {
            let run = try journalRun(row, now: now)
            if run.status == .interrupted { dead.append(run.id) }
        }
        return dead
    }
}
