import Foundation
public import SkillbookCore
import SkillbookStore

/// A run a worker claimed: the run as it was before, and whether it came from the queue (a first
/// start) or was taken over from a worker whose lease expired (a continuation).
public struct ClaimedRun: Sendable {
    public var run: JournalRun
    public var wasQueued: Bool
    public var epoch: Int
}

extension PostgresJournal {
    /// The channel `enqueue` notifies and workers listen on.
    public static let queueChannel = "skillbook_queue"

    /// Records `run` as queued (nobody holds it; `started` is when it was queued) and wakes the
    /// workers. `file` is the playbook file it comes from, if any.
    public func enqueue(_ run: RunRecord, file: String?) throws {
        try database.run(
            """
            INSERT INTO runs (id, playbook, file, source, source_hash, inputs, trigger, status, started, scheduled_at, queued)
            VALUES ($1, $2, $3, $4, $5, $6, $7, 'queued', $8, $9, extract(epoch from clock_timestamp()))
            """,
            [
                .text(run.runID), .text(run.playbook), SQLValue(file), .text(run.source), .text(run.sourceHash),
                .text(JSONText.encode(.object(run.inputs))), .text(run.trigger), .real(run.started.timeIntervalSince1970),
                run.scheduledAt.map { .real($0.timeIntervalSince1970) } ?? .null,
            ], doing: "queueing run \(run.runID)")
        try PostgresListener.notify(database, channel: Self.queueChannel, payload: run.runID)
    }

    /// Claims the oldest queued run, or else a run whose worker's lease expired, with
    /// `FOR UPDATE SKIP LOCKED` (so concurrent workers never claim the same run and never wait on
    /// each other): this journal becomes its holder with the next epoch (fencing the old holder's
    /// writes), `worker` is recorded and a session opens (`worker`, or `takeover`). `nil` when
    /// there is nothing to claim.
    public func claimNext() throws -> ClaimedRun? {
        let me = probe.current()
        let now = clock.now().timeIntervalSince1970
        let claimed = try database.transaction(doing: "claiming a queued run") { transaction -> ClaimedRun? in
            guard
                let row = try transaction.query(
                    """
                    SELECT \(Self.runColumns) FROM runs
                    WHERE status = 'queued'
                       OR (status = 'running' AND worker IS NOT NULL AND lease_expires < extract(epoch from clock_timestamp()))
                    ORDER BY (status = 'queued'), queued, seq
                    LIMIT 1 FOR UPDATE SKIP LOCKED
                    """
                ).first
            else { return nil }
            let run = try journalRun(row)
            let wasQueued = row.string("status") == "queued"
            let epoch = (row.int("epoch") ?? 0) + 1
            try claim(transaction, run.id, epoch: epoch, holder: me, at: now, kind: wasQueued ? "worker" : "takeover")
            if wasQueued {
                // Its run starts now.
                try transaction.run("UPDATE runs SET started = $2 WHERE id = $1", [.text(run.id), .real(now)])
            }
            return ClaimedRun(run: run, wasQueued: wasQueued, epoch: epoch)
        }
        if let claimed { hold(claimed.run.id, epoch: claimed.epoch) }
        return claimed
    }

    /// Queued runs, oldest first (`runs --status queued` lists them newest first).
    public func queuedCount() throws -> Int {
        try database.query("SELECT count(*) AS n FROM runs WHERE status = 'queued'").first?.int("n") ?? 0
    }
}
