import Foundation
import Synchronization
public import SkillbookCore
import SkillbookSQL

extension PostgresJournal {
    /// Takes over an ended or interrupted run for `purpose`, in one transaction that locks its row:
    /// refuses when a live holder has it (`.busy`), lets `check` refuse, ends the last holder's
    /// session as `interrupted`, makes this process the holder with the next epoch (fencing the
    /// last holder's writes) and opens a session. Returns the run as it was before.
    @discardableResult
    public func takeOver(
        _ runID: String, for purpose: RunTakeover, trigger: RunTrigger = .cli, check: (JournalRun) throws(JournalError) -> Void = { _ in }
    ) throws -> JournalRun {
        let me = probe.current()
        let now = clock.now().timeIntervalSince1970
        let (previous, epoch) = try database.transaction(doing: "taking over run \(runID)") { transaction -> (JournalRun, Int) in
            let row = try transaction.query("SELECT \(Self.runColumns) FROM runs WHERE id = $1 FOR UPDATE", [.text(runID)]).first
            let current = try RunTakeovers.admit(
                try row.map(journalRun), runID: runID, in: location, check: check, stillRunning: stillRunningMessage)
            let epoch = (row?.int("epoch") ?? 0) + 1
            try claim(transaction, runID, epoch: epoch, holder: me, at: now, kind: purpose.rawValue, trigger: trigger)
            return (current, epoch)
        }
        hold(runID, epoch: epoch)
        return previous
    }

    /// Makes this process the holder of `runID` with `epoch` (inside a transaction that locked its
    /// row): the last session ends `interrupted`, a new one opens.
    func claim(
        _ transaction: PostgresDatabase.Transaction, _ runID: String, epoch: Int, holder me: ProcessIdentity, at now: Double, kind: String,
        trigger: RunTrigger
    ) throws(PostgresError) {
        try transaction.run(
            """
            UPDATE sessions SET outcome = 'interrupted', ended = least($2, greatest(
                coalesce((SELECT heartbeat FROM runs WHERE id = $1), 0),
                coalesce((SELECT max(greatest(started, coalesce(finished, 0))) FROM calls WHERE run_seq = \(PostgresRunSeq.of("$1"))), 0),
                coalesce((SELECT max(finished) FROM steps WHERE run_seq = \(PostgresRunSeq.of("$1"))), 0),
                coalesce((SELECT max(finished) FROM compensations WHERE run = $1), 0),
                started))
            WHERE run_seq = \(PostgresRunSeq.of("$1")) AND ended IS NULL
            """, [.text(runID), .real(now)])
        try transaction.run(
            """
            UPDATE runs SET status = 'running', pid = $2, host = $3, boot = $4, process_start = $5, heartbeat = $6,
                finished = NULL, epoch = $7, lease_expires = extract(epoch from clock_timestamp()) + $8, worker = $9
            WHERE id = $1
            """,
            [
                .text(runID), .integer(Int(me.pid)), .text(me.host), SQLValue(me.boot), SQLValue(me.start), .real(now),
                .integer(epoch), .real(leaseDuration), SQLValue(worker),
            ])
        try openSession(transaction, runID, kind: kind, trigger: trigger, holder: me, at: now, epoch: epoch)
    }

    /// Gives back a run taken over without running it: it returns to `status` and this process's
    /// session ends as `abandoned`.
    public func release(_ runID: String, status: JournalStatus = .interrupted) throws {
        let now = clock.now().timeIntervalSince1970
        guard let epoch = epoch(of: runID) else { return }
        try database.transaction(doing: "releasing run \(runID)") { transaction in
            let changed = try transaction.run(
                """
                UPDATE runs SET status = $2, heartbeat = $3, lease_expires = NULL
                WHERE id = $1 AND status = 'running' AND epoch = $4
                """, [.text(runID), .text(status.rawValue), .real(now), .integer(epoch)])
            if changed > 0 { try closeSessions(transaction, runID, outcome: "abandoned", at: now) }
        }
        letGo(runID)
    }

    public func stillRunningMessage(_ run: JournalRun) -> String {
        RunTakeovers.stillRunningMessage(run, host: probe.current().host)
    }

    // MARK: Heartbeat

    func hold(_ runID: String, epoch: Int) {
        held.withLock { $0[runID] = epoch }
        heartbeat.withLock { task in
            guard task == nil else { return }
            task = Task.detached { [weak self, interval = heartbeatInterval] in
                while !Task.isCancelled {
                    try? await Task.sleep(nanoseconds: UInt64(interval * 1e9))
                    guard !Task.isCancelled, let journal = self else { return }
                    if (try? await PostgresState.io.run { journal.beat() }) == false { return }
                }
            }
        }
    }

    func letGo(_ runID: String) {
        held.withLock { _ = $0.removeValue(forKey: runID) }
        pending.withLock { _ = $0.removeValue(forKey: runID) }
    }

    /// Renews the lease of every held run; reports (and forgets) those another process took. The
    /// heartbeat task calls it while the journal lives; always `true`.
    @discardableResult
    public func beat() -> Bool {
        let runs = held.withLock { $0 }
        guard !runs.isEmpty else { return true }
        let pairs = Value.array(runs.map { .object(ValueObject([("id", .string($0.key)), ("epoch", .int($0.value))])) })
        guard
            let rows = try? database.query(
                """
                UPDATE runs r SET heartbeat = extract(epoch from clock_timestamp()),
                    lease_expires = extract(epoch from clock_timestamp()) + $2
                FROM json_to_recordset($1::json) AS h(id text, epoch bigint)
                WHERE r.id = h.id AND r.epoch = h.epoch AND r.status = 'running'
                RETURNING r.id
                """, [.text(JSONText.encode(pairs)), .real(leaseDuration)], doing: "renewing leases")
        else { return true }  // the database is unreachable: try again next beat; the lease may lapse
        let renewed = Set(rows.compactMap { $0.string("id") })
        let handler = onLeaseLost.withLock { $0 }
        for (runID, epoch) in runs where !renewed.contains(runID) {
            // Ended meanwhile by this process (`runFinished`) or taken by another.
            let stillMine = held.withLock { $0[runID] == epoch }
            guard stillMine else { continue }
            letGo(runID)
            handler?(runID)
        }
        return true
    }

    /// The runs this journal holds, with their epochs.
    public var heldRuns: [String: Int] { held.withLock { $0 } }
}
