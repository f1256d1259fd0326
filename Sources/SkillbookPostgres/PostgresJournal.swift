public import Foundation
public import SkillbookCore
public import SkillbookSQL
import Synchronization

/// The run journal in a PostgreSQL database shared by several processes and machines: the same
/// records and semantics as `SQLiteJournal` (runs, each call attempt written before the skill is
/// called and completed after it returns, step ends, compensations, sessions, `failure_kind`,
/// `scheduled_at`), plus leases that fence every write.
///
/// Batched writes: what a resume needs at once is committed before its method returns (PostgreSQL's
/// commit is durable by default): an action's call start (before the skill is called) and its
/// result, compensations, the run's end. A query's call (start and result) and a step's end are
/// kept in memory and written with the run's next such write, in the same round trip (a run of
/// queries only costs its claim and its end). A process that dies before that loses only records a
/// resume does without: a query is made again, a step's end is worked out again from its calls.
///
/// Leases and fencing: a run being executed is `running` with its holder's process (pid, host,
/// boot, start), an `epoch` and `lease_expires`. Taking a run (starting it, `takeOver`, a worker's
/// claim) increments its epoch; this journal remembers the epoch of each run it holds and every
/// write of that run (call starts and results, step ends, compensations, the run's end) is applied
/// only while the stored epoch is still that one and the run `running`. A write refused for that
/// reason throws `JournalError` `.refused` with `PostgresJournal.leaseLostMessage`: a process
/// whose run was taken over (it was paused, or cut off from the database, past its lease) cannot
/// record, so the engine does not make the call it wanted to make.
///
/// A heartbeat task renews `lease_expires` (server time + `leaseDuration`) every
/// `heartbeatInterval` seconds for every held run; a run whose renewal is refused is reported to
/// `onLeaseLost` and forgotten. A reader reports a `running` run as `interrupted` when its holder
/// is known to be gone (same host: by `ProcessProbe`) or its lease has expired (by the server's
/// clock, so machines' clocks need not agree). Unlike SQLite's rule, an expired lease ends even a
/// live holder's claim: fencing makes that safe.
///
/// Safe to use from concurrent tasks, and from any number of processes and machines.
public final class PostgresJournal: RunJournal, JournalTables, LeaseHolding {
    public let database: PostgresDatabase
    let probe: ProcessProbe
    let clock: any WallClock
    public let heartbeatInterval: Double
    public let leaseDuration: Double
    /// The worker name recorded on the runs this journal takes (`nil`: not a worker).
    public let worker: String?
    /// Called (from the heartbeat task) with a run whose lease was taken by another process.
    let onLeaseLost: Mutex<(@Sendable (String) -> Void)?> = Mutex(nil)

    /// Runs this journal holds, with the epoch of its lease.
    let held = Mutex<[String: Int]>([:])
    let heartbeat = Mutex<Task<Void, Never>?>(nil)
    /// Records of held runs not written yet (see "Batched writes").
    let pending = Mutex<[String: PendingWrites]>([:])
    /// Playbook files of runs about to start.
    let pendingFiles = Mutex<[String: String]>([:])
    /// Workspace folders of runs about to start.
    let pendingWorkspaces = Mutex<[String: String]>([:])

    public init(
        database: PostgresDatabase, probe: ProcessProbe = .live, clock: any WallClock = SystemClock(), heartbeatInterval: Double = 5,
        leaseDuration: Double = 15, worker: String? = nil
    ) {
        self.database = database
        self.probe = probe
        self.clock = clock
        self.heartbeatInterval = max(0.01, heartbeatInterval)
        self.leaseDuration = leaseDuration
        self.worker = worker
    }

    deinit { heartbeat.withLock { $0?.cancel() } }

    public var location: String { database.location.redacted }

    /// Calls `handler` with each run whose lease this journal lost (it must stop that run).
    public func setLeaseLostHandler(_ handler: @escaping @Sendable (String) -> Void) {
        onLeaseLost.withLock { $0 = handler }
    }

    /// The message of the `JournalError` a fenced write throws.
    public static func leaseLostMessage(_ runID: String) -> String {
        "run \(runID) was taken over by another process (this process's lease on it expired); it stops here"
    }

    public func holdsLease(_ runID: String) -> Bool { epoch(of: runID) != nil }

    /// The epoch this journal holds `runID` with, if it holds it.
    public func epoch(of runID: String) -> Int? { held.withLock { $0[runID] } }

    public func setFile(_ path: String, forRun runID: String) throws {
        let changed = try database.run("UPDATE runs SET file = $2 WHERE id = $1", [.text(runID), .text(path)])
        if changed == 0 { pendingFiles.withLock { $0[runID] = path } }
    }

    /// Records the workspace folder of the run `runID` (before or after it starts).
    public func setWorkspace(_ path: String, forRun runID: String) throws {
        let changed = try database.run("UPDATE runs SET workspace = $2 WHERE id = $1", [.text(runID), .text(path)])
        if changed == 0 { pendingWorkspaces.withLock { $0[runID] = path } }
    }

    /// Fenced when this journal holds the run (a worker about to continue a claimed run).
    public func setSource(_ source: String, forRun runID: String) throws {
        let epoch = epoch(of: runID)
        let changed = try database.run(
            """
            UPDATE runs SET source = $2, source_hash = $3
            WHERE id = $1 AND ($4::bigint IS NULL OR (epoch = $4 AND status = 'running'))
            """, [.text(runID), .text(source), .text(SourceHash.of(source)), SQLValue(epoch)])
        if epoch != nil { try fenced(changed, runID) }
    }

    // MARK: RunRecorder

    public func runStarted(_ run: RunRecord) throws {
        let file = pendingFiles.withLock { $0.removeValue(forKey: run.runID) }
        let workspace = pendingWorkspaces.withLock { $0.removeValue(forKey: run.runID) }
        let me = probe.current()
        let now = clock.now().timeIntervalSince1970
        let inputs = JournalBlobs.encode(.object(run.inputs))
        try keep(inputs.blobs, forRun: run.runID)
        try database.transaction(doing: "recording the start of run \(run.runID)") { transaction in
            try transaction.run(
                """
                INSERT INTO runs (id, playbook, file, source, source_hash, inputs, trigger, status, started, pid, host, boot,
                    process_start, heartbeat, scheduled_at, epoch, lease_expires, worker, workspace, keep_until)
                VALUES ($1, $2, $3, $4, $5, $6, $7, 'running', $8, $9, $10, $11, $12, $13, $14, 1,
                    extract(epoch from clock_timestamp()) + $15, $16, $17, $18)
                """,
                [
                    .text(run.runID), .text(run.playbook), SQLValue(file), .text(run.source), .text(run.sourceHash),
                    .text(inputs.json), .text(run.trigger.rawValue), .real(run.started.timeIntervalSince1970),
                    .integer(Int(me.pid)), .text(me.host), SQLValue(me.boot), SQLValue(me.start), .real(now),
                    run.scheduledAt.map { .real($0.timeIntervalSince1970) } ?? .null, .real(leaseDuration), SQLValue(worker),
                    SQLValue(workspace), run.keepUntil.map { .real($0.timeIntervalSince1970) } ?? .null,
                ])
            try openSession(transaction, run.runID, kind: "run", trigger: run.trigger, holder: me, at: now, epoch: 1)
        }
        hold(run.runID, epoch: 1)
    }

    /// A query's start is kept pending; an action's is written at once, with what was pending.
    public func callStarted(_ call: CallRecord) throws {
        let epoch = try fence(call.runID)
        let parameters = JournalBlobs.encode(.object(call.parameters))
        pend(call.runID) {
            $0.calls.append(PendingCall(record: call, parameters: parameters.json))
            $0.blobs += parameters.blobs
        }
        if call.hasEffects { try flush(call.runID, epoch: epoch) }
    }

    /// Completes the call's pending start when it is still pending (an action's is then written at
    /// once), else updates the written start.
    public func callFinished(_ call: CallRecord, output: Value?, error: String?, finished: Date) throws {
        let epoch = try fence(call.runID)
        let stored = output.map(JournalBlobs.encode)
        let outputText = stored?.json
        if finishPending(call, output: outputText, blobs: stored?.blobs ?? [], error: error, finished: finished.timeIntervalSince1970) {
            if call.hasEffects { try flush(call.runID, epoch: epoch) }
            return
        }
        try keep(stored?.blobs ?? [], forRun: call.runID)
        let changed = try database.run(
            """
            UPDATE calls SET output = $6, error = $7, finished = $8, masked = $9,
                seq = (SELECT coalesce(max(seq), 0) + 1 FROM calls WHERE run_seq = \(PostgresRunSeq.of("$1")))
            WHERE id = (
                SELECT max(id) FROM calls WHERE run_seq = \(PostgresRunSeq.of("$1")) AND step = $2 AND iteration IS NOT DISTINCT FROM $3::integer
                    AND batch IS NOT DISTINCT FROM $4::integer AND attempt = $5)
              AND EXISTS (SELECT 1 FROM runs WHERE id = $1 AND epoch = $10 AND status = 'running' FOR SHARE)
            """,
            [
                .text(call.runID), .text(call.key.step.description), SQLValue(call.key.iteration), SQLValue(call.key.batch),
                .integer(call.attempt), SQLValue(outputText), SQLValue(error),
                .real(finished.timeIntervalSince1970), .text(call.outputMasked ? "true" : "false"), .integer(epoch),
            ], doing: "recording the result of \(call.key)")
        if changed == 0, try !holdsLease(call.runID, epoch: epoch) { throw leaseLost(call.runID) }
    }

    /// Kept pending (see "Batched writes").
    public func stepFinished(
        runID: String, step: String, status: StepStatus, output: Value?, outputMasked: Bool, error: String?
    ) throws {
        _ = try fence(runID)
        let stored = output.map(JournalBlobs.encode)
        let end = PendingStep(
            step: step, status: status.rawValue, output: stored?.json, error: error,
            finished: clock.now().timeIntervalSince1970, masked: outputMasked)
        pend(runID) {
            $0.steps.append(end)
            $0.blobs += stored?.blobs ?? []
        }
    }

    public func compensationFinished(runID: String, key: CallKey, step: String, error: String?, finished: Date) throws {
        let epoch = try fence(runID)
        try flush(runID, epoch: epoch)
        let keyValues: [SQLValue] = [.text(runID), .text(key.step.description), SQLValue(key.iteration), SQLValue(key.batch)]
        try database.transaction(doing: "recording the undoing of \(key)") { transaction in
            let changed = try transaction.run(
                """
                INSERT INTO compensations (run, step, iteration, batch, error, finished)
                SELECT $1, $2, $3, $4, $5, $6
                WHERE EXISTS (SELECT 1 FROM runs WHERE id = $1 AND epoch = $7 AND status = 'running' FOR SHARE)
                """, keyValues + [SQLValue(error), .real(finished.timeIntervalSince1970), .integer(epoch)])
            try fenced(changed, runID)
            if error == nil {
                try transaction.run(
                    """
                    UPDATE calls SET compensated = true
                    WHERE run_seq = \(PostgresRunSeq.of("$1")) AND step = $2 AND iteration IS NOT DISTINCT FROM $3::integer
                        AND batch IS NOT DISTINCT FROM $4::integer
                    """, keyValues)
            }
        }
    }

    /// Records how the run ended (fenced like every write). After a rollback of an ended run, the
    /// earlier failure message and the report entries of steps the rollback did not touch are kept.
    public func runFinished(_ result: RunResult) throws {
        let epoch = try fence(result.runID)
        let status = JournalStatus(result.status)
        let finished = result.finished.timeIntervalSince1970
        guard status == .rolledBack || status == .rollbackIncomplete else {
            return try finishInOneStatement(result, status: status, epoch: epoch)
        }
        try flush(result.runID, epoch: epoch)
        let outputs = JournalBlobs.encode(.object(result.outputs))
        try keep(outputs.blobs, forRun: result.runID)
        try database.transaction(doing: "recording the end of run \(result.runID)") { transaction in
            let row = try transaction.query(
                "SELECT error, report FROM runs WHERE id = $1 AND epoch = $2 AND status = 'running' FOR UPDATE",
                [.text(result.runID), .integer(epoch)]
            ).first
            guard let row else { throw leaseLost(result.runID) }
            var error = result.error
            var earlier: [String: Value] = [:]
            if status == .rolledBack || status == .rollbackIncomplete {
                error = error ?? row.string("error")
                for entry in try decode(row.string("report"), "run report")?.arrayValue ?? [] {
                    if let id = entry["id"]?.stringValue { earlier[id] = entry }
                }
            }
            let report = RunReport.encode(result, keeping: earlier)
            try transaction.run(
                """
                UPDATE runs SET status = $2, interrupted = $3, finished = $4, error = $5, outputs = $6, report = $7,
                    heartbeat = $4, failure_kind = coalesce($8, failure_kind), lease_expires = NULL
                WHERE id = $1
                """,
                [
                    .text(result.runID), .text(status.rawValue), .text(result.interrupted ? "true" : "false"), .real(finished),
                    SQLValue(error), .text(outputs.json), .text(JSONText.encode(report)),
                    SQLValue(result.failureKind?.rawValue),
                ])
            try closeSessions(transaction, result.runID, outcome: status.rawValue, at: finished)
        }
        letGo(result.runID)
    }

    /// The end of a run that keeps nothing of an earlier end, with its pending records: one
    /// statement (one round trip), fenced by `epoch`.
    private func finishInOneStatement(_ result: RunResult, status: JournalStatus, epoch: Int) throws {
        let batch = takePending(result.runID)
        let outputs = JournalBlobs.encode(.object(result.outputs))
        try keep(batch.blobs + outputs.blobs, forRun: result.runID)
        let rows = try database.query(
            """
            WITH fence AS (
                UPDATE runs SET status = $5, interrupted = $6, finished = $7, error = $8, outputs = $9, report = $10,
                    heartbeat = $7, failure_kind = coalesce($11, failure_kind), lease_expires = NULL
                WHERE id = $1 AND epoch = $2 AND status = 'running'
                RETURNING id
            ),
            \(Self.pendingInserts),
            ended AS (
                UPDATE sessions SET ended = $7, outcome = $5 WHERE run_seq = \(PostgresRunSeq.of("$1")) AND ended IS NULL AND EXISTS (SELECT 1 FROM fence)
            )
            SELECT count(*) AS n FROM fence
            """,
            [
                .text(result.runID), .integer(epoch), .text(batch.callsJSON), .text(batch.stepsJSON), .text(status.rawValue),
                .text(result.interrupted ? "true" : "false"), .real(result.finished.timeIntervalSince1970), SQLValue(result.error),
                .text(outputs.json), .text(JSONText.encode(RunReport.encode(result, keeping: [:]))),
                SQLValue(result.failureKind?.rawValue),
            ], doing: "recording the end of run \(result.runID)")
        if rows.first?.int("n") ?? 0 == 0 { throw leaseLost(result.runID) }
        letGo(result.runID)
    }

    // MARK: Sessions

    func openSession(
        _ transaction: PostgresDatabase.Transaction, _ runID: String, kind: String, trigger: RunTrigger, holder: ProcessIdentity, at time: Double,
        epoch: Int
    ) throws(PostgresError) {
        try transaction.run(
            "INSERT INTO sessions (run, kind, pid, host, started, epoch, trigger) VALUES ($1, $2, $3, $4, $5, $6, $7)",
            [.text(runID), .text(kind), .integer(Int(holder.pid)), .text(holder.host), .real(time), .integer(epoch), .text(trigger.rawValue)])
    }

    func closeSessions(_ transaction: PostgresDatabase.Transaction, _ runID: String, outcome: String, at time: Double) throws(PostgresError) {
        try transaction.run(
            "UPDATE sessions SET ended = $2, outcome = $3 WHERE run_seq = \(PostgresRunSeq.of("$1")) AND ended IS NULL", [.text(runID), .real(time), .text(outcome)])
    }

    // MARK: Fencing

    /// The epoch this journal holds `runID` with; a run it does not hold cannot be written.
    func fence(_ runID: String) throws -> Int {
        guard let epoch = epoch(of: runID) else { throw leaseLost(runID) }
        return epoch
    }

    /// A fenced write that changed nothing: the lease is gone.
    func fenced(_ changed: Int, _ runID: String) throws {
        if changed == 0 { throw leaseLost(runID) }
    }

    func holdsLease(_ runID: String, epoch: Int) throws -> Bool {
        try !database.query(
            "SELECT 1 FROM runs WHERE id = $1 AND epoch = $2 AND status = 'running'", [.text(runID), .integer(epoch)]
        ).isEmpty
    }

    /// A write of `runID` was refused: this journal forgets the run and, the first time, reports it
    /// to `onLeaseLost` (as the heartbeat does), so its holder stops the run whichever noticed first.
    func leaseLost(_ runID: String) -> JournalError {
        let wasHeld = held.withLock { $0.removeValue(forKey: runID) != nil }
        pending.withLock { _ = $0.removeValue(forKey: runID) }
        if wasHeld, let handler = onLeaseLost.withLock({ $0 }) { handler(runID) }
        return JournalError(.refused, Self.leaseLostMessage(runID))
    }

    /// Renews the lease of `runID` now, fenced like every write: throws the lease-lost
    /// `JournalError` when another process took the run. A holder calls it after reading the
    /// journal and before acting on what it read (a claimed run's timeline).
    public func confirmLease(_ runID: String) throws {
        let epoch = try fence(runID)
        let changed = try database.run(
            """
            UPDATE runs SET heartbeat = extract(epoch from clock_timestamp()), lease_expires = extract(epoch from clock_timestamp()) + $3
            WHERE id = $1 AND epoch = $2 AND status = 'running'
            """, [.text(runID), .integer(epoch), .real(leaseDuration)], doing: "renewing the lease of run \(runID)")
        try fenced(changed, runID)
    }

    /// A stored JSON column back as a value; a malformed one is reported with the database.
    /// Long texts kept in `blobs` are read back into it (see `JournalBlobs`).
    func decode(_ text: String?, _ what: String) throws(PostgresError) -> Value? {
        guard let text else { return nil }
        return try decoded(text, what)
    }

    /// A stored JSON text back as a value (see `decode`).
    func decoded(_ text: String, _ what: String) throws(PostgresError) -> Value {
        let decoded: Value
        do {
            decoded = try JSONText.decode(text)
        } catch {
            throw PostgresError(.malformedRow, message: "state database \(location) has a malformed \(what) (\(error)); it was probably edited by hand")
        }
        return try JournalBlobs.resolve(decoded, json: text, text: blobText) { hash in
            PostgresError(.malformedRow, message: "state database \(location): the \(what) refers to a text (sha256 \(hash)) it no longer holds")
        }
    }
}

/// The host uses it through `OffloadedJournal`, on the state's own threads.
extension PostgresJournal: BlockingRunQueue {}
