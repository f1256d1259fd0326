public import SkillbookCore
import Synchronization

/// What the resource locks of an SQL backend keep in memory and do alike, whatever the SQL: the
/// wait for resources (polling, recording each wait for the timeline), the resources held by each
/// run, the heartbeat task that refreshes their rows while any are held, and the rule that says
/// whether a lock row's holder still holds it.
public final class LockHoldings: Sendable {
    private struct Held {
        /// Resources held, by run.
        var runs: [String: Set<String>] = [:]
        /// Refreshes their heartbeat while there are any.
        var heartbeat: Task<Void, Never>?
    }

    private let held = Mutex(Held())
    public let clock: any WallClock
    public let probe: ProcessProbe
    /// Seconds without a heartbeat after which a holder on another machine has lost its locks.
    public let leaseDuration: Double
    public let pollInterval: Double
    public let heartbeatInterval: Double
    /// The backend's threads, where every statement of the locks runs (see `BlockingIO`).
    public let io: BlockingIO
    /// Refreshes the heartbeat of the rows of these runs.
    private let refresh: @Sendable (_ runs: [String]) -> Void

    public init(
        clock: any WallClock, probe: ProcessProbe, pollInterval: Double, heartbeatInterval: Double, leaseDuration: Double,
        io: BlockingIO, refresh: @escaping @Sendable (_ runs: [String]) -> Void
    ) {
        self.io = io
        self.clock = clock
        self.probe = probe
        self.leaseDuration = leaseDuration
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
        _ resources: [String], for runID: String, waiting: (ResourceWait) -> Void, take: ([String]) async throws -> ResourceWait?,
        recordWait: (_ wait: ResourceWait, _ previous: Int?) async throws -> Int,
        endWait: (_ record: Int, _ outcome: String) async throws -> Void
    ) async throws {
        let wanted = Array(Set(resources)).sorted()
        guard !wanted.isEmpty else { return }
        var reported: ResourceWait?
        var record: Int?
        do {
            while true {
                try Task.checkCancellation()
                guard let wait = try await take(wanted) else { break }
                if wait != reported {
                    reported = wait
                    record = try? await recordWait(wait, record)
                    waiting(wait)
                }
                try await clock.sleep(for: pollInterval)
            }
        } catch {
            if let record { try? await endWait(record, "cancelled") }
            throw error
        }
        if let record { try? await endWait(record, "acquired") }
        held.withLock { held in
            held.runs[runID, default: []].formUnion(wanted)
            startHeartbeat(&held)
        }
    }

    /// Whether the holder of a lock row (columns `run_status`, the status of its run, and the
    /// holder's `pid`, `host`, `boot`, `process_start`) still holds it, `age` seconds after its last
    /// heartbeat: not when its run has ended (a release that was lost), nor when `ProcessProbe`
    /// knows its process is gone; a process on another machine, while its heartbeat is younger
    /// than `leaseDuration`.
    public func holderIsAlive(_ row: Row, age: Double) -> Bool {
        if let status = row.string("run_status"), status != "running" { return false }
        guard let holder = JournalRows.holder(row) else { return false }
        switch probe.state(holder) {
        case .alive: return true
        case .gone: return false
        case .unknown: return age <= leaseDuration
        }
    }

    /// Who holds each resource, from rows of `resource_locks` (`resource`, `run`).
    public static func holders(_ rows: [Row]) -> [String: String] {
        var holders: [String: String] = [:]
        for row in rows {
            if let resource = row.string("resource"), let run = row.string("run") { holders[resource] = run }
        }
        return holders
    }

    /// Resource names (or run ids) as the JSON list the statements take apart.
    public static func list(_ names: [String]) -> SQLValue {
        .text(JSONText.encode(.array(names.map(Value.string))))
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
                guard let holdings = self, (try? await holdings.io.run { holdings.beat() }) ?? true else { return }
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
