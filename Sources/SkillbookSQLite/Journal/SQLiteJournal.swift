public import Foundation
public import SkillbookCore
import Synchronization
public import SkillbookSQL

/// The run journal in the state database (`skillbook.sqlite`): every run, each call attempt
/// (written before the skill is called and completed after it returns), each step's end, each
/// compensation, and which process holds a running run.
///
/// Writes: the records that keep a side effect from being done twice are written at once. A call
/// with effects (`CallRecord.hasEffects`: every skill that is not a read-only query) is committed
/// and flushed to disk (fsync) before the skill runs, and its result before `callFinished`
/// returns, so an action that returned is never uncertain, not even after a power cut; a
/// compensation and the run's start and end are committed before their method returns. Records
/// whose loss can only make a resume redo work without side effects are *group-committed*: a
/// read-only call (its start, then its result joins the same row), and every step's end (which a
/// resume re-derives from the step's calls) are queued and committed together, by the heartbeat
/// task within `flushInterval` seconds, with the next record written at once, or once
/// `deferredLimit` of them are waiting, whichever comes first; a read of this journal commits
/// them first. A process killed in between loses only those: a resume runs those queries again.
/// Without this, a step of one read-only call cost three commits (about 40 µs each here), which
/// is what `engine_overhead_per_step_journal` in `skillbook-bench` measures. Other records can
/// lose only a suffix to a power cut, which a resume simply redoes (see `Database`).
///
/// Leases: a run being executed is `running` with the pid, host, boot and process start of its
/// process, and a heartbeat refreshed every `heartbeatInterval` seconds while this journal holds
/// it. A reader reports a `running` run as `interrupted` when that process is known to be gone (on
/// this machine: the pid is dead, a zombie, reused, or the machine restarted), or, for a process
/// on another machine, when its heartbeat is older than `leaseDuration`. A live process on this
/// machine is never declared dead because of time alone.
///
/// Checkpoints: the write-ahead log is copied back into the database file by the heartbeat task,
/// on a connection of its own, rather than inside a commit (where its flush to disk would cost
/// the engine tens of microseconds per write).
///
/// Safe to use from concurrent tasks, and from several processes on the same file.
public final class SQLiteJournal: RunJournal, JournalTables {
    public let database: Database
    let probe: ProcessProbe
    let clock: any WallClock
    public let heartbeatInterval: Double
    /// Seconds a group-committed record may wait (see "Writes").
    public let flushInterval: Double
    public let leaseDuration: Double

    /// Prepared statements; only touched while holding the database's lock.
    let statements = StatementCache()
    /// Row ids of calls this process wrote the start of and has not finished.
    let openCalls = Mutex(OpenCallRows())
    /// Records waiting for a group commit (see "Writes"); changed only while holding the database lock.
    let deferred = Mutex(DeferredQueue())
    /// Playbook files of runs about to start.
    private let pendingFiles = Mutex<[String: String]>([:])
    /// Workspace folders of runs about to start.
    private let pendingWorkspaces = Mutex<[String: String]>([:])
    let heartbeats = Mutex(Heartbeats())
    /// The connection background checkpoints run on, opened on first use.
    let checkpointer = Mutex<Database?>(nil)

    struct Heartbeats {
        var runs: Set<String> = []
        var task: Task<Void, Never>?
    }

    /// The journal of the state directory, on the process's shared connection to its database.
    public convenience init(
        stateDirectory: URL, probe: ProcessProbe = .live, clock: any WallClock = SystemClock(), heartbeatInterval: Double = 2,
        leaseDuration: Double = 15, flushInterval: Double = 0.25
    ) throws(StoreError) {
        try self.init(
            database: StateDatabase.open(stateDirectory: stateDirectory), probe: probe, clock: clock,
            heartbeatInterval: heartbeatInterval, leaseDuration: leaseDuration, flushInterval: flushInterval)
    }

    /// - Parameters:
    ///   - heartbeatInterval, leaseDuration: seconds between heartbeats of a held run, and how old a
    ///     heartbeat may be before a run held on another machine counts as interrupted.
    ///   - flushInterval: seconds between group commits while a run is held (see "Writes"); at
    ///     least 0.01.
    public init(
        database: Database, probe: ProcessProbe = .live, clock: any WallClock = SystemClock(), heartbeatInterval: Double = 2,
        leaseDuration: Double = 15, flushInterval: Double = 0.25
    ) throws(StoreError) {
        try database.migrate(StateDatabase.migrations)
        // Checkpoints run in the background while a run is held (see `checkpointIfNeeded`); the
        // connection's own, which would run inside a commit, only past 80 MB of log.
        try database.execute("PRAGMA wal_autocheckpoint = 20000")
        try database.execute("PRAGMA journal_size_limit = 67108864")
        self.database = database
        self.probe = probe
        self.clock = clock
        self.heartbeatInterval = heartbeatInterval
        self.flushInterval = max(flushInterval, 0.01)
        self.leaseDuration = leaseDuration
    }

    /// What a process does with a run it takes over.
    public typealias Takeover = RunTakeover

    public var location: String { database.path }

    deinit {
        heartbeats.withLock { $0.task?.cancel() }
        try? flush()
    }

    /// Records which playbook file the run `runID` comes from (before or after it starts), so that
    /// `resume` can find the file again.
    public func setFile(_ path: String, forRun runID: String) throws(StoreError) {
        let changed = try execute("UPDATE runs SET file = ?2 WHERE id = ?1", [.text(runID), .text(path)])
        if changed == 0 { pendingFiles.withLock { $0[runID] = path } }
    }

    /// Records the workspace folder of the run `runID` (before or after it starts).
    public func setWorkspace(_ path: String, forRun runID: String) throws(StoreError) {
        let changed = try execute("UPDATE runs SET workspace = ?2 WHERE id = ?1", [.text(runID), .text(path)])
        if changed == 0 { pendingWorkspaces.withLock { $0[runID] = path } }
    }

    /// Replaces the recorded playbook text of a run (and its hash), when a resume runs a changed file.
    public func setSource(_ source: String, forRun runID: String) throws(StoreError) {
        try execute(
            "UPDATE runs SET source = ?2, source_hash = ?3 WHERE id = ?1", [.text(runID), .text(source), .text(SourceHash.of(source))])
    }

    // MARK: RunRecorder

    public func runStarted(_ run: RunRecord) throws {
        let file = pendingFiles.withLock { $0.removeValue(forKey: run.runID) }
        let workspace = pendingWorkspaces.withLock { $0.removeValue(forKey: run.runID) }
        let me = probe.current()
        let now = clock.now().timeIntervalSince1970
        let inputs = JournalBlobs.encode(.object(run.inputs))
        try commit { () throws(StoreError) in
            try keep(inputs.blobs, forRun: run.runID)
            try execute(
                """
                INSERT INTO runs (id, playbook, file, source, source_hash, inputs, trigger, status, started, pid, host, boot,
                    process_start, heartbeat, scheduled_at, workspace, keep_until, seq)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 'running', ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, \(RunSeq.next))
                """,
                [
                    .text(run.runID), .text(run.playbook), SQLValue(file), .text(run.source), .text(run.sourceHash),
                    .text(inputs.json), .text(run.trigger.rawValue),
                    .real(run.started.timeIntervalSince1970), .integer(Int(me.pid)), .text(me.host), SQLValue(me.boot),
                    SQLValue(me.start), .real(now),
                    run.scheduledAt.map { .real($0.timeIntervalSince1970) } ?? .null, SQLValue(workspace),
                    run.keepUntil.map { .real($0.timeIntervalSince1970) } ?? .null,
                ])
            try openSession(run.runID, kind: "run", trigger: run.trigger, holder: me, at: now)
        }
        holdRun(run.runID)
    }

    /// An action's start is committed and flushed to disk before this returns; a read-only call's
    /// is queued for a group commit (see "Writes").
    public func callStarted(_ call: CallRecord) throws {
        let row = CallRow.parameters(call)
        guard call.hasEffects else {
            return try later(
                DeferredQueue.Entry(sql: CallRow.insert, parameters: row.values, call: OpenCall(call), blobs: row.blobs, run: call.runID))
        }
        let rowID = try commit(synced: true) { () throws(StoreError) -> Int in
            try keep(row.blobs, forRun: call.runID)
            try execute(CallRow.insert, row.values)
            return database.lastInsertRowID
        }
        openCalls.withLock { $0[OpenCall(call)] = rowID }
    }

    /// An action's result is committed and flushed to disk before this returns; a read-only
    /// call's joins its queued start, or is queued itself (see "Writes"). A result whose start is
    /// written already is inserted once as a row of its own (see `CallResultsMigration`).
    public func callFinished(_ call: CallRecord, output: Value?, error: String?, finished: Date) throws {
        let open = OpenCall(call)
        let result = CallRow.result(output: output, error: error, finished: finished, masked: call.outputMasked)
        if !call.hasEffects {
            // Under the database lock, so that a group commit does not take the start meanwhile.
            let queued = try database.locked { (_) throws(StoreError) -> Bool in
                if deferred.withLock({ $0.finish(open, result: result.values, blobs: result.blobs) }) { return true }
                guard let rowID = openCalls.withLock({ $0.removeValue(forKey: open) }) else { return false }
                try later(
                    DeferredQueue.Entry(
                        sql: CallRow.insertResult,
                        parameters: CallRow.resultParameters(rowID: rowID, runID: call.runID, result: result.values), blobs: result.blobs,
                        run: call.runID))
                return true
            }
            if queued { return }
        }
        let known = openCalls.withLock { $0.removeValue(forKey: open) }
        try commit(synced: call.hasEffects) { () throws(StoreError) in
            try keep(result.blobs, forRun: call.runID)
            let rowID: Int
            if let known {
                rowID = known
            } else {
                // Started by another journal object: the latest attempt row of this call.
                let rows = try query(
                    """
                    SELECT max(id) FROM calls WHERE run_seq = \(RunSeq.of("?1")) AND step = ?2 AND iteration IS ?3 AND batch IS ?4 AND attempt = ?5
                    """,
                    [
                        .text(call.runID), .text(call.key.step.description), SQLValue(call.key.iteration), SQLValue(call.key.batch),
                        .integer(call.attempt),
                    ])
                guard let id = rows.first?[0].intValue else { return }
                rowID = id
            }
            try execute(CallRow.insertResult, CallRow.resultParameters(rowID: rowID, runID: call.runID, result: result.values))
        }
    }

    /// Queued for a group commit: a step's end can be re-derived from its calls (see "Writes").
    public func stepFinished(
        runID: String, step: String, status: StepStatus, output: Value?, outputMasked: Bool, error: String?
    ) throws {
        let stored = output.map(JournalBlobs.encode)
        try later(
            DeferredQueue.Entry(
                sql: """
                    INSERT INTO steps (run, step, status, output, error, finished, masked, run_seq)
                    VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, \(RunSeq.of("?1")))
                    """,
                parameters: [
                    .text(runID), .text(step), .text(status.rawValue), SQLValue(stored?.json),
                    SQLValue(error), .real(clock.now().timeIntervalSince1970), .integer(outputMasked ? 1 : 0),
                ], blobs: stored?.blobs ?? [], run: runID))
    }

    /// The end of a step whose output holds no secret.
    public func stepFinished(runID: String, step: String, status: StepStatus, output: Value?, error: String?) throws {
        try stepFinished(runID: runID, step: step, status: status, output: output, outputMasked: false, error: error)
    }

    public func compensationFinished(runID: String, key: CallKey, step: String, error: String?, finished: Date) throws {
        let keyValues: [SQLValue] = [.text(runID), .text(key.step.description), SQLValue(key.iteration), SQLValue(key.batch)]
        try commit { () throws(StoreError) in
            try execute(
                "INSERT INTO compensations (run, step, iteration, batch, error, finished) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                keyValues + [SQLValue(error), .real(finished.timeIntervalSince1970)])
            if error == nil {
                try execute(
                    "UPDATE calls SET compensated = 1 WHERE run_seq = \(RunSeq.of("?1")) AND step = ?2 AND iteration IS ?3 AND batch IS ?4",
                    keyValues)
            }
        }
    }

    /// Records how the run ended. After a rollback of an ended run (whose own result knows only the
    /// compensations), the earlier failure message and the report entries of steps the rollback
    /// did not touch are kept.
    public func runFinished(_ result: RunResult) throws {
        let status = JournalStatus(result.status)
        let finished = result.finished.timeIntervalSince1970
        let outputs = JournalBlobs.encode(.object(result.outputs))
        try commit { () throws(StoreError) in
            try keep(outputs.blobs, forRun: result.runID)
            var error = result.error
            var earlier: [String: Value] = [:]
            if status == .rolledBack || status == .rollbackIncomplete {
                let row = try query("SELECT error, report FROM runs WHERE id = ?1", [.text(result.runID)]).first
                error = error ?? row?.string("error")
                for entry in try decode(row?.string("report"), "run report")?.arrayValue ?? [] {
                    if let id = entry["id"]?.stringValue { earlier[id] = entry }
                }
            }
            let report = RunReport.encode(result, keeping: earlier)
            try execute(
                """
                UPDATE runs SET status = ?2, interrupted = ?3, finished = ?4, error = ?5, outputs = ?6, report = ?7,
                    heartbeat = ?4, failure_kind = coalesce(?8, failure_kind)
                WHERE id = ?1
                """,
                [
                    .text(result.runID), .text(status.rawValue), .integer(result.interrupted ? 1 : 0), .real(finished),
                    SQLValue(error), .text(outputs.json), .text(JSONText.encode(report)),
                    SQLValue(result.failureKind?.rawValue),
                ])
            try closeSessions(result.runID, outcome: status.rawValue, at: finished)
        }
        releaseRun(result.runID)
        truncateLogIfLong()
    }

    // MARK: Sessions

    func openSession(_ runID: String, kind: String, trigger: RunTrigger, holder: ProcessIdentity, at time: Double) throws(StoreError) {
        try execute(
            "INSERT INTO sessions (run, kind, pid, host, started, trigger, run_seq) VALUES (?1, ?2, ?3, ?4, ?5, ?6, \(RunSeq.of("?1")))",
            [.text(runID), .text(kind), .integer(Int(holder.pid)), .text(holder.host), .real(time), .text(trigger.rawValue)])
    }

    func closeSessions(_ runID: String, outcome: String, at time: Double) throws(StoreError) {
        try execute(
            "UPDATE sessions SET ended = ?2, outcome = ?3 WHERE run_seq = \(RunSeq.of("?1")) AND ended IS NULL",
            [.text(runID), .real(time), .text(outcome)])
    }

    // MARK: SQL helpers

    /// Runs one statement (prepared once per journal) and returns the number of rows it changed.
    @discardableResult
    func execute(_ sql: String, _ parameters: [SQLValue] = []) throws(StoreError) -> Int {
        try database.locked { (_) throws(StoreError) in try statements.statement(sql, in: database).run(parameters) }
    }

    /// Runs one query, after committing the deferred records (outside a transaction), so that this
    /// process reads what it has recorded.
    func query(_ sql: String, _ parameters: [SQLValue] = []) throws(StoreError) -> [Row] {
        try database.locked { (_) throws(StoreError) in
            try flush()
            return try statements.statement(sql, in: database).query(parameters)
        }
    }

    /// Runs `body` holding the connection, with its commits flushed to disk when `synced`.
    func writing<T>(synced: Bool, _ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        guard synced else { return try database.locked { (_) throws(StoreError) in try body() } }
        do {
            return try database.synced(body)
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(.other, message: "state database \(database.path): \(error)", path: database.path)
        }
    }

    /// Runs `body` in one transaction of the database.
    func transaction<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        do {
            return try database.transaction { try body() }
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(.other, message: "state database \(database.path): \(error)", path: database.path)
        }
    }

    /// A stored JSON column back as a value; a malformed one is reported with the file.
    /// Long texts kept in `blobs` are read back into it (see `JournalBlobs`).
    func decode(_ text: String?, _ what: String) throws(StoreError) -> Value? {
        guard let text else { return nil }
        return try decoded(text, what)
    }

    /// A stored JSON text back as a value (see `decode`).
    func decoded(_ text: String, _ what: String) throws(StoreError) -> Value {
        let decoded: Value
        do {
            decoded = try JSONText.decode(text)
        } catch {
            throw StoreError(
                .malformedRow,
                message: "state database \(database.path) has a malformed \(what) (\(error)); it was probably edited by hand",
                path: database.path)
        }
        return try JournalBlobs.resolve(decoded, json: text, text: blobText) { hash in
            StoreError(
                .malformedRow, message: "state database \(database.path): the \(what) refers to a text (sha256 \(hash)) it no longer holds",
                path: database.path)
        }
    }
}

/// Statements prepared once and reused; the owner only touches it while holding the database lock.
final class StatementCache: @unchecked Sendable {
    private var statements: [String: Statement] = [:]

    func statement(_ sql: String, in database: Database) throws(StoreError) -> Statement {
        if let statement = statements[sql] { return statement }
        let statement = try database.prepare(sql)
        statements[sql] = statement
        return statement
    }
}

/// The host uses it through `OffloadedJournal`, on the state's own threads.
extension SQLiteJournal: BlockingJournal {}
