public import SkillbookCore

/// Resource locks kept in an SQL state (`resource_locks`, `resource_waits`). A backend writes the
/// statements (take, record and end a wait, delete); waiting, holding, the heartbeat and the rule
/// of who still holds a lock are `LockHoldings`', the same on every backend.
public protocol SQLResourceLocks: ResourceLocking {
    /// What it holds, its waits, its heartbeat and who holds a lock.
    var holdings: LockHoldings { get }
    /// In one transaction: when every wanted resource is free (or held by a holder that is gone,
    /// or already by `runID`), takes them all and returns `nil`; otherwise takes none and says
    /// which are busy and who holds them.
    func take(_ wanted: [String], runID: String, step: String) throws -> ResourceWait?
    /// Records the start of a wait, for the timeline; returns its record.
    func recordWait(_ wait: ResourceWait, runID: String, step: String) throws -> Int
    func endWait(_ record: Int, outcome: String) throws
    /// Deletes the lock rows of `resources` that `runID` holds.
    func deleteLocks(_ resources: [String], of runID: String) throws
}

extension SQLResourceLocks {
    public var pollInterval: Double { holdings.pollInterval }
    public var heartbeatInterval: Double { holdings.heartbeatInterval }
    public var leaseDuration: Double { holdings.leaseDuration }

    public func acquire(
        _ resources: [String], for runID: String, step: String, waiting: @escaping @Sendable (ResourceWait) -> Void
    ) async throws {
        let io = holdings.io
        try await holdings.acquire(
            resources, for: runID, waiting: waiting,
            take: { wanted in try await io.run { try take(wanted, runID: runID, step: step) } },
            recordWait: { wait, previous in
                try await io.run {
                    // The holder changed: the previous record of this wait ends.
                    if let previous { try endWait(previous, outcome: "holder changed") }
                    return try recordWait(wait, runID: runID, step: step)
                }
            }, endWait: { record, outcome in try await io.run { try endWait(record, outcome: outcome) } })
    }

    public func release(_ resources: [String], for runID: String) async {
        _ = try? await holdings.io.run { try deleteLocks(resources, of: runID) }
        holdings.released(resources, for: runID)
    }
}
