import Foundation
public import SkillbookCore
import SkillbookSQL
import Synchronization

extension PostgresJournal: RunQueue {
    /// The channel `enqueue` notifies and workers listen on.
    public static let queueChannel = "skillbook_queue"

    /// Records `run` as queued (nobody holds it; `started` is when it was queued) and wakes the
    /// workers. `file` is the playbook file it comes from and `workspace` the workspace folder it
    /// was queued in, if any (else what `setFile` and `setWorkspace` recorded for it).
    public func enqueue(_ run: RunRecord, file: String?, workspace: String? = nil) throws {
        let pendingFile = pendingFiles.withLock { $0.removeValue(forKey: run.runID) }
        let pendingWorkspace = pendingWorkspaces.withLock { $0.removeValue(forKey: run.runID) }
        let inputs = JournalBlobs.encode(.object(run.inputs))
        try keep(inputs.blobs, forRun: run.runID)
        try database.run(
            """
            INSERT INTO runs (id, playbook, file, source, source_hash, inputs, trigger, status, started, scheduled_at, queued,
                workspace, keep_until)
            VALUES ($1, $2, $3, $4, $5, $6, $7, 'queued', $8, $9, extract(epoch from clock_timestamp()), $10, $11)
            """,
            [
                .text(run.runID), .text(run.playbook), SQLValue(file ?? pendingFile), .text(run.source), .text(run.sourceHash),
                .text(inputs.json), .text(run.trigger.rawValue), .real(run.started.timeIntervalSince1970),
                run.scheduledAt.map { .real($0.timeIntervalSince1970) } ?? .null, SQLValue(workspace ?? pendingWorkspace),
                run.keepUntil.map { .real($0.timeIntervalSince1970) } ?? .null,
            ], doing: "queueing run \(run.runID)")
        try PostgresListener.notify(database, channel: Self.queueChannel, payload: run.runID)
    }

    /// Claims the oldest queued run, or else a run whose worker's lease expired, with
    /// `FOR UPDATE SKIP LOCKED` (so concurrent workers never claim the same run and never wait on
    /// each other): this journal becomes its holder with the next epoch (fencing the old holder's
    /// writes), `worker` is recorded, the last session ends `interrupted` and a new one opens
    /// (`worker`, or `takeover`); a queued run starts now. One statement, one round trip. `nil`
    /// when there is nothing to claim.
    public func claimNext() throws -> ClaimedRun? {
        let me = probe.current()
        let now = clock.now().timeIntervalSince1970
        let row = try database.query(
            """
            WITH picked AS (
                SELECT \(Self.runColumns), source FROM runs
                WHERE status = 'queued'
                   OR (status = 'running' AND worker IS NOT NULL AND lease_expires < extract(epoch from clock_timestamp()))
                ORDER BY (status = 'queued'), queued, seq
                LIMIT 1 FOR UPDATE SKIP LOCKED
            ),
            closed AS (
                UPDATE sessions SET outcome = 'interrupted', ended = least($1, greatest(
                    coalesce((SELECT heartbeat FROM picked), 0),
                    coalesce((SELECT max(greatest(c.started, coalesce(c.finished, 0))) FROM calls c, picked p WHERE c.run_seq = \(PostgresRunSeq.of("p.id"))), 0),
                    coalesce((SELECT max(s.finished) FROM steps s, picked p WHERE s.run_seq = \(PostgresRunSeq.of("p.id"))), 0),
                    coalesce((SELECT max(x.finished) FROM compensations x, picked p WHERE x.run = p.id), 0),
                    sessions.started))
                WHERE run_seq = \(PostgresRunSeq.of("(SELECT id FROM picked)")) AND ended IS NULL
            ),
            taken AS (
                UPDATE runs r SET status = 'running', pid = $2, host = $3, boot = $4, process_start = $5, heartbeat = $1,
                    finished = NULL, epoch = coalesce(p.epoch, 0) + 1,
                    lease_expires = extract(epoch from clock_timestamp()) + $6, worker = $7,
                    started = CASE WHEN p.status = 'queued' THEN $1 ELSE r.started END
                FROM picked p WHERE r.id = p.id
                RETURNING r.id, r.epoch, r.started AS now_started
            ),
            opened AS (
                INSERT INTO sessions (run, kind, pid, host, started, epoch)
                SELECT t.id, CASE WHEN p.status = 'queued' THEN 'worker' ELSE 'takeover' END, $2, $3, $1, t.epoch
                FROM taken t JOIN picked p USING (id)
            )
            SELECT p.*, t.epoch AS claimed_epoch FROM picked p JOIN taken t USING (id)
            """,
            [
                .real(now), .integer(Int(me.pid)), .text(me.host), SQLValue(me.boot), SQLValue(me.start), .real(leaseDuration),
                SQLValue(worker),
            ], doing: "claiming a queued run"
        ).first
        guard let row, let epoch = row.int("claimed_epoch") else { return nil }
        let run = try journalRun(row)
        hold(run.id, epoch: epoch)
        return ClaimedRun(run: run, wasQueued: row.string("status") == "queued", epoch: epoch, source: row.string("source") ?? "")
    }

    /// Listens on `queueChannel` on a connection of its own.
    public func queueWaiter() throws -> any RunQueueWaiter {
        try PostgresListener(database: database, channel: Self.queueChannel)
    }

    /// Queued runs, oldest first (`runs --status queued` lists them newest first).
    public func queuedCount() throws -> Int {
        try database.query("SELECT count(*) AS n FROM runs WHERE status = 'queued'").first?.int("n") ?? 0
    }
}
