public import Foundation
public import SkillbookCore
import Synchronization

/// A clock that moves only when told to. Sleepers wake when `advance` moves the time to or past
/// their deadline, so a test runs a day of waits in milliseconds; a sleeper whose task is
/// cancelled wakes at once with `CancellationError`.
public final class ManualClock: WallClock {
    private struct Sleeper {
        var deadline: Date
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now: Date
        var sleepers: [Int: Sleeper] = [:]
        var cancelled: Set<Int> = []
        var lastID = 0
    }

    private let state: Mutex<State>

    public init(_ start: Date = Date(timeIntervalSince1970: 1_796_033_700)) {
        state = Mutex(State(now: start))
    }

    public func now() -> Date {
        state.withLock { $0.now }
    }

    /// Moves the time on by `seconds` and wakes every sleeper whose deadline has come.
    public func advance(_ seconds: Double) {
        move { $0.addingTimeInterval(max(0, seconds)) }
    }

    /// Moves the time on to `date` exactly (never back) and wakes the sleepers due by then.
    public func advance(to date: Date) {
        move { max($0, date) }
    }

    private func move(_ next: (Date) -> Date) {
        let due = state.withLock { state -> [CheckedContinuation<Void, any Error>] in
            state.now = next(state.now)
            let now = state.now
            let ids = state.sleepers.filter { $0.value.deadline <= now }.sorted { $0.value.deadline < $1.value.deadline }
            return ids.compactMap { state.sleepers.removeValue(forKey: $0.key)?.continuation }
        }
        for continuation in due { continuation.resume() }
    }

    /// How many tasks sleep on this clock now.
    public var sleepers: Int { state.withLock { $0.sleepers.count } }

    /// The earliest deadline of a sleeping task.
    public var nextDeadline: Date? { state.withLock { $0.sleepers.values.map(\.deadline).min() } }

    /// Waits (really, a millisecond at a time, at most 30 seconds) until at least `count` tasks
    /// sleep on this clock; `false` when they never did.
    @discardableResult
    public func waitForSleepers(_ count: Int = 1) async -> Bool {
        let giveUp = Date().addingTimeInterval(30)
        while sleepers < count {
            if Date() > giveUp { return false }
            try? await Task.sleep(nanoseconds: 1_000_000)
        }
        return true
    }

    public func sleep(for seconds: Double) async throws {
        try await sleep(until: now().addingTimeInterval(max(0, seconds)))
    }

    public func sleep(until deadline: Date) async throws {
        try Task.checkCancellation()
        let id = state.withLock { state in
            state.lastID += 1
            return state.lastID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome = state.withLock { state -> Result<Void, any Error>? in
                    if state.cancelled.remove(id) != nil { return .failure(CancellationError()) }
                    if deadline <= state.now { return .success(()) }
                    state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            let sleeper = state.withLock { state in
                guard let sleeper = state.sleepers.removeValue(forKey: id) else {
                    state.cancelled.insert(id)
                    return nil as Sleeper?
                }
                return sleeper
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }
}

/// A clock that always says `date` and does not wait: each sleep is recorded (in seconds) and
/// returns at once, after checking for cancellation.
public final class FixedClock: WallClock {
    private let date: Date
    public let sleeps: Recorder<Double>

    public init(_ date: Date = Date(timeIntervalSince1970: 1_796_033_700), sleeps: Recorder<Double> = Recorder()) {
        self.date = date
        self.sleeps = sleeps
    }

    public func now() -> Date { date }

    public func sleep(for seconds: Double) async throws {
        sleeps.append(seconds)
        try Task.checkCancellation()
    }

    public func sleep(until deadline: Date) async throws {
        try await sleep(for: deadline.timeIntervalSince(date))
    }
}

/// A clock that says `start`, then `start + step`, `start + 2·step`, … one per reading, and does
/// not wait (like `FixedClock`).
public final class SteppingClock: WallClock {
    private let start: Date
    private let step: Double
    private let readings = Mutex(0)

    public init(from start: Date, by step: Double) {
        self.start = start
        self.step = step
    }

    public func now() -> Date {
        let n = readings.withLock { count in
            defer { count += 1 }
            return count
        }
        return start.addingTimeInterval(Double(n) * step)
    }

    public func sleep(for seconds: Double) async throws {
        try Task.checkCancellation()
    }
}
