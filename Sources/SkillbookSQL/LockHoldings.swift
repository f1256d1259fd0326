public import SkillbookCore
import Synchronization

/// What the resource locks of an SQL backend keep in memory and do alike, whatever the SQL: the
/// wait for resources (polling, recording each wait for the timeline), the resources held by each
/// run, and the heartbeat task that refreshes their rows while any are held.
public final class LockHoldings: Sendable {
    private struct Held {
        /// Resources held, by run.
        var runs: [String: Set<String>] = [:]
        /// Refreshes their heartbeat while there are any.
        var heartbeat: Task<Void, Never>?
    }

    private let held = Mutex(Held())
    let clock: any Clock
    public let pollInterval: Double
    public let heartbeatInterval: Double
    /// Refreshes the heartbeat of the rows of these runs.
    private let refresh: @Sendable (_ runs: [String]) -> Void

    public init(
        clock: any Clock, pollInterval: Double, heartbeatInterval: Double, refresh: @escaping @Sendable (_ runs: [String]) -> Void
    ) {
        self.clock = clock
        self.pollInterval = max(0.001, pollInterval)
        self.heartbeatInterval = heartbeatInterval
        self.refresh = refresh
    }

    deinit { held.withLock { $0.heartbeat?.cancel() } }

    /// Tries `take` (one transaction: all of the sorted, distinct `resources` or none; `nil` when
    /// taken, else what is busy) every `pollInterval` seconds until it takes them, telling `waiting`
    /// whenever what is busy changes. Each such wait is recorded (`recordWait` ends the previous
    /// record and starts one; the record is for the timeline only, so one that cannot be written
    /// still waits) and ended by `endWait` as `acquired` or `cancelled`. Then the resources are held
    /// by `runID` and heartbeated.
    public func acquire(
        _ resources: [String], for runID: String, waiting: (ResourceWait) -> Void, take: ([String]) throws -> ResourceWait?,
        recordWait: (_ wait: ResourceWait, _ previous: Int?) throws -> Int, endWait: (_ record: Int, _ outcome: String) throws -> Void
    ) async throws {
        let wanted = Array(Set(resources)).sorted()
        guard !wanted.isEmpty else { return }
        var reported: ResourceWait?
        var record: Int?
        do {
            while true {
                try Task.checkCancellation()
                guard let wait = try take(wanted) else { break }
                if wait != reported {
                    reported = wait
                    record = try? recordWait(wait, record)
                    waiting(wait)
                }
                try await clock.sleep(for: pollInterval)
            }
        } catch {
            if let record { try? endWait(record, "cancelled") }
            throw error
        }
        if let record { try? endWait(record, "acquired") }
        held.withLock { held in
            held.runs[runID, default: []].formUnion(wanted)
            startHeartbeat(&held)
        }
    }

    /// `runID` no longer holds `resources` (their rows were deleted).
    public func released(_ resources: [String], for runID: String) {
        held.withLock { held in
            held.runs[runID]?.subtract(resources)
            if held.runs[runID]?.isEmpty == true { held.runs[runID] = nil }
        }
    }

    /// Must hold the lock of `held`.
    private func startHeartbeat(_ held: inout Held) {
        guard held.heartbeat == nil else { return }
        held.heartbeat = Task.detached { [weak self, interval = heartbeatInterval] in
            while !Task.isCancelled {
                try? await Task.sleep(nanoseconds: UInt64(max(0.01, interval) * 1e9))
                guard let holdings = self, holdings.beat() else { return }
            }
        }
    }

    /// Refreshes the heartbeat of every lock held; `false` (and the task ends) when none is.
    private func beat() -> Bool {
        let runs = held.withLock { held -> [String] in
            if held.runs.isEmpty { held.heartbeat = nil }
            return Array(held.runs.keys)
        }
        guard !runs.isEmpty else { return false }
        refresh(runs)
        return true
    }
}
