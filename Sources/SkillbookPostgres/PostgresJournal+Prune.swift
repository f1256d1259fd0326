public import Foundation
public import SkillbookCore
import SkillbookSQL

/// Pruning, as the SQLite journal prunes (see there): ranges of indexes of `runs`, oldest first, in
/// batches; a run's calls, step ends and sessions deleted by ranges of their indexes on the run's
/// `seq` (see `PostgresRunSeq`), its other rows going with it by their indexes on the run's id
/// (`ON DELETE CASCADE`). One
/// process at a time prunes: a pass that finds another one pruning does nothing (an advisory lock),
/// so workers finishing runs together neither wait on each other nor delete the same runs.
extension PostgresJournal {
    /// How many runs one transaction of `prune` deletes (see `SQLiteJournal.pruneChunk`).
    static let pruneChunk = 10_000
    /// Any advisory-lock key will do as long as every skillbook process uses the same one.
    private static let pruneLockKey = 0x736b_6c62_6b70  // "sklbkp"

    /// Deletes the runs that started before `cutoff` and all but the newest `keep`, in
    /// transactions of `pruneChunk` runs, never one that is not finished (running, queued,
    /// waiting) but for a `running` one whose holder is gone. Returns how many were deleted.
    @discardableResult
    public func prune(olderThan cutoff: Date?, keepingNewest keep: Int?) throws -> Int {
        var dead: [Value] = []
        for row in try database.query("SELECT \(Self.runColumns) FROM runs WHERE status = 'running'", doing: "pruning runs") {
            let run = try journalRun(row)
            if run.status == .interrupted { dead.append(.string(run.id)) }
        }
        let deadIDs = SQLValue.text(JSONText.encode(.array(dead)))
        let prunable = "(\(Self.prunable) OR id IN (SELECT json_array_elements_text(\(Self.deadList)::json)))"
        var deleted = 0
        if let cutoff {
            try database.transaction(doing: "pruning missed fires") { transaction in
                try Self.forgetMissedFires(transaction, before: cutoff, limit: Int(Int32.max))
            }
            while true {
                let count = try database.transaction(doing: "pruning runs") { transaction in
                    try Self.deleteRuns(
                        transaction, "started < $1 AND \(prunable) ORDER BY started", [.real(cutoff.timeIntervalSince1970)], dead: deadIDs,
                        limit: Self.pruneChunk)
                }
                deleted += count
                if count < Self.pruneChunk { break }
            }
        }
        if let keep {
            while true {
                let count = try database.transaction(doing: "pruning runs") { transaction in
                    try Self.deleteOverCap(transaction, playbook: nil, cap: max(0, keep), limit: Self.pruneChunk, prunable: prunable, dead: deadIDs)
                }
                deleted += count
                if count == 0 { break }
            }
        }
        return deleted
    }

    /// One pass of background pruning (see `SQLiteJournal.pruneBatch`), in one transaction.
    @discardableResult
    public func pruneBatch(_ rules: RetentionRules, now: Date, limit: Int) throws -> Int {
        try database.transaction(doing: "pruning runs") { transaction in
            guard try transaction.query("SELECT pg_try_advisory_xact_lock($1) AS got", [.integer(Self.pruneLockKey)]).first?.int("got") == 1
            else { return 0 }
            var left = max(0, limit)
            if left > 0 {
                left -= try Self.deleteRuns(
                    transaction, "keep_until IS NOT NULL AND keep_until < $1 AND \(Self.prunable) ORDER BY keep_until",
                    [.real(now.timeIntervalSince1970)], limit: left)
            }
            if left > 0 {
                left -= try Self.deleteRuns(
                    transaction, "keep_until IS NULL AND started < $1 AND \(Self.prunable) ORDER BY started",
                    [.real(rules.workspace.cutoff(now: now).timeIntervalSince1970)], limit: left)
            }
            if limit > 0 { try Self.forgetMissedFires(transaction, before: rules.workspace.cutoff(now: now), limit: limit) }
            if left > 0, let cap = rules.playbookCap {
                left -= try Self.deleteOverCap(transaction, playbook: cap.name, cap: cap.maxRuns, limit: left, prunable: Self.prunable, dead: nil)
            }
            if left > 0 {
                left -= try Self.deleteOverCap(
                    transaction, playbook: nil, cap: rules.workspace.maxRuns, limit: left, prunable: Self.prunable, dead: nil)
            }
            return max(0, limit) - left
        }
    }

    /// `status IN (…)` of the statuses a run may be pruned in.
    static let prunable = "status IN (\(JournalRetention.prunableStatuses.map { "'\($0)'" }.joined(separator: ", ")))"

    /// Deletes at most `limit` runs of `SELECT seq FROM runs WHERE <condition>`, where `deadList`
    /// stands for `dead`. Returns how many.
    private static func deleteRuns(
        _ transaction: PostgresDatabase.Transaction, _ condition: String, _ parameters: [SQLValue], dead: SQLValue? = nil, limit: Int
    ) throws(PostgresError) -> Int {
        var values = parameters
        var condition = condition
        if let dead {
            // The list of dead runs is the last parameter.
            values.append(dead)
            condition = condition.replacingOccurrences(of: Self.deadList, with: "$\(values.count)")
        }
        let rows = try transaction.query("SELECT seq, id FROM runs WHERE \(condition) LIMIT \(limit)", values)
        guard !rows.isEmpty else { return 0 }
        let runs = rows.compactMap { row in row.int("seq").map { ($0, row.string("id") ?? "") } }.sorted { $0.0 < $1.0 }
        // A PostgreSQL array of the `seq`s, in order: each delete walks its index forward.
        let seqs = SQLValue.text("{" + runs.map { String($0.0) }.joined(separator: ",") + "}")
        let ids = SQLValue.text(JSONText.encode(.array(runs.map { .string($0.1) })))
        for (statement, byID) in Self.pruneStatements { try transaction.run(statement, [byID ? ids : seqs]) }
        // The blobs only pruned runs referred to go with them (see `deleteBlobs(ofRuns:in:)`).
        try deleteBlobs(ofRuns: runs.map(\.1), in: transaction)
        return runs.count
    }

    /// What deletes runs and every row of theirs, each taking `$1`: the runs' `seq`s (an array), or
    /// their ids (JSON) when `byID`. The calls, step ends and sessions go by their `run_seq`, the
    /// compensations, waits and approvals with the run (`ON DELETE CASCADE`, by their index on the
    /// run), the notifications claimed about it by their subject. `RunQueryPlanTests` checks the plans.
    public static let pruneStatements: [(sql: String, byID: Bool)] =
        PostgresRunSeq.childTables.map { ("DELETE FROM \($0) WHERE run_seq = ANY ($1::bigint[])", false) }
        + [
            ("DELETE FROM notifications WHERE subject IN (SELECT json_array_elements_text($1::json))", true),
            ("DELETE FROM runs WHERE seq = ANY ($1::bigint[])", false),
        ]

    /// Deletes the records of missed fires, and the claims of their `missed` notifications, made
    /// before `cutoff` (at most `limit` of each): they go with the runs of their time.
    private static func forgetMissedFires(_ transaction: PostgresDatabase.Transaction, before cutoff: Date, limit: Int) throws(PostgresError) {
        let time = SQLValue.real(cutoff.timeIntervalSince1970)
        try transaction.run(
            """
            DELETE FROM missed_fires WHERE (playbook, entry, first_ms, reason) IN
                (SELECT playbook, entry, first_ms, reason FROM missed_fires WHERE recorded < $1 LIMIT \(limit))
            """, [time])
        try transaction.run(
            """
            DELETE FROM notifications WHERE (subject, event) IN
                (SELECT subject, event FROM notifications WHERE event = 'missed' AND claimed < $1 LIMIT \(limit))
            """, [time])
    }

    /// Where a condition names the list of dead runs' ids (JSON).
    static let deadList = "{dead}"

    /// Deletes up to `limit` of the oldest runs (of `playbook`, or of the whole journal) beyond the
    /// newest `cap`, those that `prunable` allows; unfinished runs count as kept (see `SQLiteJournal`).
    private static func deleteOverCap(
        _ transaction: PostgresDatabase.Transaction, playbook: String?, cap: Int, limit: Int, prunable: String, dead: SQLValue?
    ) throws(PostgresError) -> Int {
        let scope = playbook == nil ? "" : "playbook = $1 AND "
        let scopeValues: [SQLValue] = playbook.map { [.text($0)] } ?? []
        let total: Int
        if let playbook {
            total = try transaction.query("SELECT runs FROM run_counts WHERE playbook = $1", [.text(playbook)]).first?.int("runs") ?? 0
        } else {
            total = try transaction.query(Self.runCountQuery).first?.int("runs") ?? 0
        }
        guard total > cap else { return 0 }
        let unfinished = try transaction.query("SELECT count(*) AS n FROM runs WHERE \(scope)\(Self.unfinished)", scopeValues).first?.int("n") ?? 0
        let count = min(limit, total - cap - unfinished)
        guard count > 0 else { return 0 }
        return try deleteRuns(transaction, "\(scope)\(prunable) ORDER BY started, seq", scopeValues, dead: dead, limit: count)
    }

    /// `status IN (…)` of the statuses of runs that are not finished.
    static let unfinished = "status IN (\(JournalRetention.unfinishedStatuses.map { "'\($0)'" }.joined(separator: ", ")))"
}
