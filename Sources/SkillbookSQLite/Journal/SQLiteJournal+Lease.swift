import Foundation
public import SkillbookCore
import Synchronization
import SkillbookSQL

extension SQLiteJournal {
    /// Takes over an ended or interrupted run for `purpose`, in one transaction: refuses when a live
    /// process holds it (so a second `resume` of the same run refuses), lets `check` refuse based on
    /// the run as it is now, then marks the holder's last session `interrupted`, makes this process
    /// the holder (`running`, heartbeat on) and opens a session. Returns the run as it was before.
    ///
    /// Call `runFinished` (through the engine) or `release` when done.
    @discardableResult
    public func takeOver(
        _ runID: String, for purpose: Takeover, trigger: RunTrigger = .cli, check: (JournalRun) throws(JournalError) -> Void = { _ in }
    ) throws -> JournalRun {
        let me = probe.current()
        let now = clock.now().timeIntervalSince1970
        let before = try transaction { () throws(StoreError) -> Result<JournalRun, JournalError> in
            let found = try run(runID)
            let current: JournalRun
            do throws(JournalError) {
                current = try RunTakeovers.admit(found, runID: runID, in: database.path, check: check, stillRunning: stillRunningMessage)
            } catch { return .failure(error) }
            // The dead process's session ended with the last sign of life it left.
            try execute(
                """
                UPDATE sessions SET outcome = 'interrupted', ended = min(?2, max(
                    coalesce((SELECT heartbeat FROM runs WHERE id = ?1), 0),
                    coalesce((SELECT max(max(started), coalesce(max(finished), 0)) FROM call_attempts
                        WHERE id IN (SELECT id FROM calls WHERE run_seq = \(RunSeq.of("?1")))), 0),
                    coalesce((SELECT max(finished) FROM steps WHERE run_seq = \(RunSeq.of("?1"))), 0),
                    coalesce((SELECT max(finished) FROM compensations WHERE run = ?1), 0),
                    started))
                WHERE run_seq = \(RunSeq.of("?1")) AND ended IS NULL
                """, [.text(runID), .real(now)])
            try execute(
                """
                UPDATE runs SET status = 'running', pid = ?2, host = ?3, boot = ?4, process_start = ?5, heartbeat = ?6,
                    finished = NULL
                WHERE id = ?1
                """,
                [.text(runID), .integer(Int(me.pid)), .text(me.host), SQLValue(me.boot), SQLValue(me.start), .real(now)])
            try openSession(runID, kind: purpose.rawValue, trigger: trigger, holder: me, at: now)
            return .success(current)
        }
        let previous = try before.get()
        holdRun(runID)
        return previous
    }

    /// Gives back a run taken over without running it (the user declined, a check failed): it
    /// returns to `status` (by default `interrupted`) and this process's session ends as `abandoned`.
    public func release(_ runID: String, status: JournalStatus = .interrupted) throws(StoreError) {
        let now = clock.now().timeIntervalSince1970
        let me = probe.current()
        try transaction { () throws(StoreError) in
            try execute(
                "UPDATE runs SET status = ?2, heartbeat = ?3 WHERE id = ?1 AND status = 'running' AND pid = ?4 AND host = ?5",
                [.text(runID), .text(status.rawValue), .real(now), .integer(Int(me.pid)), .text(me.host)])
            try closeSessions(runID, outcome: "abandoned", at: now)
        }
        releaseRun(runID)
    }

    /// Why a run held by a live process cannot be taken: it names the process.
    public func stillRunningMessage(_ run: JournalRun) -> String {
        RunTakeovers.stillRunningMessage(run, host: probe.current().host)
    }

    // MARK: Liveness

    /// A stored status as a reader reports it: a `running` run whose holder is gone is `interrupted`.
    func liveStatus(
        stored: String, holder: ProcessIdentity?, heartbeat: Date?, now: Date
    ) -> (status: JournalStatus, reason: String?) {
        guard let status = JournalStatus(rawValue: stored) else { return (.interrupted, "unknown status '\(stored)'") }
        guard status == .running else { return (status, nil) }
        guard let holder else { return (.interrupted, "no process holds it") }
        switch probe.state(holder) {
        case .alive:
            return (.running, nil)
        case .gone(let reason):
            return (.interrupted, reason)
        case .unknown:
            let age = heartbeat.map { now.timeIntervalSince($0) } ?? .infinity
            guard age > leaseDuration else { return (.running, nil) }
            let seconds = age.isFinite ? "for \(Int(age.rounded())) s" : "ever"
            return (.interrupted, "no heartbeat from process \(holder.pid) on \(holder.host) \(seconds)")
        }
    }

    // MARK: Heartbeat

    /// Starts refreshing the heartbeat of `runID` (one background task for every held run). The
    /// same task group-commits queued records and checks the write-ahead log's size every
    /// `flushInterval` seconds (checkpointing it when long), so that the engine's writes never pay
    /// for either.
    func holdRun(_ runID: String) {
        heartbeats.withLock { state in
            state.runs.insert(runID)
            guard state.task == nil else { return }
            let tick = min(heartbeatInterval, flushInterval)
            let beats = max(1, Int((heartbeatInterval / tick).rounded()))
            state.task = Task.detached { [weak self] in
                var ticks = 0
                while !Task.isCancelled {
                    try? await Task.sleep(nanoseconds: UInt64(tick * 1e9))
                    guard !Task.isCancelled, let journal = self else { return }
                    ticks += 1
                    let beat = ticks % beats == 0
                    // On the state's own threads: a commit can wait out another process's write.
                    _ = try? await SQLiteState.io.run {
                        journal.flushInBackground()
                        if beat { journal.beat() }
                        journal.checkpointIfNeeded()
                    }
                }
            }
        }
    }

    /// The background task's group commit. A failure keeps the records queued and is remembered:
    /// the next record queued commits at once and throws it (see `later`).
    func flushInBackground() {
        do {
            try flush()
        } catch {
            deferred.withLock { $0.failedCommit = error }
        }
    }

    /// Stops refreshing `runID`; the task ends with the last held run.
    func releaseRun(_ runID: String) {
        heartbeats.withLock { state in
            state.runs.remove(runID)
            if state.runs.isEmpty {
                state.task?.cancel()
                state.task = nil
            }
        }
    }

    // MARK: Checkpoints

    /// A log longer than this is copied back into the database file by the background task.
    static let checkpointThreshold = 4 << 20

    /// Copies the write-ahead log back into the database (a passive checkpoint: it never waits for
    /// other connections) when it has grown past `checkpointThreshold`. It runs on a connection of
    /// its own, so writers on the shared connection are not held up by its flush to disk.
    public func checkpointIfNeeded() {
        guard logSize() > Self.checkpointThreshold else { return }
        try? checkpoint()
    }

    /// A passive checkpoint on the journal's checkpoint connection.
    public func checkpoint() throws(StoreError) {
        _ = try checkpointConnection().query("PRAGMA wal_checkpoint(PASSIVE)")
    }

    /// A log longer than this is copied back and cut at a run's end.
    static let runEndLogLimit = 1 << 20

    /// At a run's end: a log past `runEndLogLimit` is copied back into the database and cut to
    /// nothing, so that a large value the run wrote is in the state folder once, not once more in
    /// the log, and the next process to open the file reads a short log (the log stays when the last
    /// connection closes: see `Database`; reading 4 MB of it at open cost 1.2 ms here). Best effort:
    /// it gives up at once when another connection reads or writes (its connection waits for no
    /// lock), and a later run's end tries again.
    public func truncateLogIfLong() {
        guard logSize() > Self.runEndLogLimit else { return }
        _ = try? checkpointConnection().query("PRAGMA wal_checkpoint(TRUNCATE)")
    }

    /// Bytes of the write-ahead log file (0 when there is none), from one `stat` (Foundation's
    /// file attributes also look up the owner's names).
    func logSize() -> Int {
        var info = stat()
        return stat(database.path + "-wal", &info) == 0 ? Int(info.st_size) : 0
    }

    /// The journal's checkpoint connection, opened on first use. It never waits for a lock: a
    /// passive checkpoint takes none, a truncating one gives up when it cannot have them at once.
    private func checkpointConnection() throws(StoreError) -> Database {
        try checkpointer.withLock { (opened) throws(StoreError) -> Database in
            if let opened { return opened }
            let connection = try Database(url: database.url)
            try connection.execute("PRAGMA busy_timeout = 0")
            opened = connection
            return connection
        }
    }

    /// The runs whose heartbeat this journal refreshes.
    public var heldRuns: Set<String> { heartbeats.withLock { $0.runs } }

    /// Refreshes the heartbeat of every held run (best effort: a busy database skips one beat).
    public func beat() {
        let runs = heldRuns
        guard !runs.isEmpty else { return }
        let me = probe.current()
        _ = try? execute(
            """
            UPDATE runs SET heartbeat = ?1
            WHERE status = 'running' AND pid = ?2 AND host = ?3 AND id IN (SELECT value FROM json_each(?4))
            """,
            [
                .real(clock.now().timeIntervalSince1970), .integer(Int(me.pid)), .text(me.host),
                .text(JSONText.encode(.array(runs.sorted().map(Value.string)))),
            ])
    }
}
