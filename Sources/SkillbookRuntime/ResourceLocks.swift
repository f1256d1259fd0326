public import SkillbookCore

/// Write locks on named resources (`notes`, `files`) among the runs of this process: two steps
/// that write the same resource — in one run or in two runs of this process — never run at once.
/// Queries take no lock. Across processes, `SQLiteResourceLocks` (SkillbookSQLite) does the same on
/// the state database; the host uses both, this one first.
///
/// A waiting step is woken whenever a resource is let go and checks again; cancelling its task ends
/// the wait with `CancellationError`, holding nothing.
public actor ResourceLocks: ResourceLocking {
    public static let shared = ResourceLocks()

    /// Resource → the run holding it.
    private var held: [String: String] = [:]
    private var waiters: [Int: CheckedContinuation<Void, any Error>] = [:]
    /// Waits cancelled before they were parked.
    private var cancelled: Set<Int> = []
    private var lastWaiter = 0

    public init() {}

    public func acquire(
        _ resources: [String], for runID: String, step: String, waiting: @escaping @Sendable (ResourceWait) -> Void
    ) async throws {
        let wanted = Set(resources)
        guard !wanted.isEmpty else { return }
        var reported: ResourceWait?
        while true {
            try Task.checkCancellation()
            let busy = wanted.filter { held[$0] != nil }.sorted()
            if busy.isEmpty { break }
            let wait = ResourceWait(resources: busy, heldBy: busy.lazy.compactMap { self.held[$0] }.first)
            if wait != reported {
                waiting(wait)
                reported = wait
            }
            lastWaiter += 1
            let id = lastWaiter
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                    if cancelled.remove(id) != nil {
                        continuation.resume(throwing: CancellationError())
                    } else {
                        waiters[id] = continuation
                    }
                }
            } onCancel: {
                Task { await self.cancelWait(id) }
            }
        }
        for resource in wanted { held[resource] = runID }
    }

    public func release(_ resources: [String], for runID: String) {
        for resource in resources where held[resource] == runID { held[resource] = nil }
        let waking = waiters
        waiters.removeAll()
        for waiter in waking.values { waiter.resume() }
    }

    public var heldResources: Set<String> { Set(held.keys) }

    private func cancelWait(_ id: Int) {
        if let waiter = waiters.removeValue(forKey: id) {
            waiter.resume(throwing: CancellationError())
        } else {
            cancelled.insert(id)
        }
    }
}
