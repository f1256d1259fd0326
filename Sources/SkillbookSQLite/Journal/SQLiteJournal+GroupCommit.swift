public import SkillbookCore
import Synchronization
import SkillbookSQL

extension SQLiteJournal {
    /// Queued records past this many are committed by the call that queues the next one.
    static let deferredLimit = 256

    /// Queues `entry` for a group commit (see "Writes"), and commits the queue when it is long, or
    /// when the background task's last commit failed (that commit's error is then thrown here, to
    /// the run, instead of being retried unseen until the process ends).
    /// When that commit fails, a call's start leaves the queue again (the call is not made, so it
    /// must not be recorded); other records stay queued for the next commit.
    func later(_ entry: DeferredQueue.Entry) throws(StoreError) {
        try database.locked { (_) throws(StoreError) in
            let (count, failed) = deferred.withLock { queue in
                queue.append(entry)
                return (queue.count, queue.failedCommit != nil)
            }
            guard count >= Self.deferredLimit || failed, !database.isInTransaction else { return }
            do throws(StoreError) {
                try commit {}
            } catch {
                if entry.call != nil { deferred.withLock { $0.removeLast() } }
                throw error
            }
        }
    }

    /// Whether the next queued record commits the queue at once (see `later`) — a read-only call's
    /// end joins its start's row, queued or written, so it is no different.
    public func writesNow(finishing call: CallRecord?) -> Bool {
        deferred.withLock { $0.count + 1 >= Self.deferredLimit || $0.failedCommit != nil }
    }

    /// Commits the queued records now, if there are any. Inside a transaction of this journal's
    /// connection it does nothing: that transaction may still roll back, so they wait for the next
    /// commit.
    public func flush() throws(StoreError) {
        try database.locked { (_) throws(StoreError) in
            guard !database.isInTransaction, deferred.withLock({ $0.count > 0 }) else { return }
            try commit {}
        }
    }

    /// Runs `body` in one transaction after the queued records, flushed to disk (fsync) when
    /// `synced`. The queued records leave the queue only once that transaction has committed, so a
    /// failed commit loses none of them; a queued call start that is still running learns its row
    /// id. Inside an enclosing transaction, which may still roll back, the queue waits for a later
    /// commit.
    func commit<T>(synced: Bool = false, _ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        try database.locked { (_) throws(StoreError) -> T in
            let entries = database.isInTransaction ? [] : deferred.withLock { $0.entries }
            var started: [(OpenCall, Int)] = []
            let result = try writing(synced: synced) { () throws(StoreError) -> T in
                try transaction { () throws(StoreError) -> T in
                    for entry in entries {
                        try keep(entry.blobs, forRun: entry.run)
                        try execute(entry.sql, entry.parameters)
                        if let call = entry.call { started.append((call, database.lastInsertRowID)) }
                    }
                    return try body()
                }
            }
            if !entries.isEmpty {
                deferred.withLock { queue in
                    queue.removeFirst(entries.count)
                    queue.failedCommit = nil
                }
                openCalls.withLock { open in
                    for (call, rowID) in started { open[call] = rowID }
                }
            }
            return result
        }
    }
}
