public import Foundation

/// The time of day and waiting: the one clock port of the program.
///
/// The engine (through `EngineEnvironment`), the journal, the stores, sessions and the renderers
/// read the time from it, and retries, batch pauses and schedulers wait on it, so a test can run
/// with `ManualClock` (SkillbookTesting) and pass a day of waits in milliseconds.
///
/// A conformer must:
/// - be safe to use from any task;
/// - make `sleep(for:)` and `sleep(until:)` throw `CancellationError` promptly when the calling
///   task is cancelled (also when it was cancelled before the call);
/// - return from `sleep(until:)` once `now()` has reached the deadline (at once when it has
///   already passed), and from `sleep(for:)` once that many seconds have passed by this clock.
///
/// Named after what it gives (wall time as `Date`), and not `WallClock`: the standard library's
/// `WallClock` (instants and durations) keeps its name for importers of SkillbookCore.
public protocol WallClock: Sendable {
    /// The current time.
    func now() -> Date
    /// Waits `seconds` (none when 0 or less).
    func sleep(for seconds: Double) async throws
    /// Waits until `deadline`.
    func sleep(until deadline: Date) async throws
}

extension WallClock {
    public func sleep(until deadline: Date) async throws {
        try await sleep(for: deadline.timeIntervalSince(now()))
    }
}

/// The system's clock: `Date()` and `Task.sleep`.
public struct SystemClock: WallClock {
    public init() {}

    public func now() -> Date { Date() }

    public func sleep(for seconds: Double) async throws {
        try Task.checkCancellation()
        guard seconds > 0 else { return }
        try await Task.sleep(nanoseconds: UInt64(min(seconds, 1e9) * 1e9))
    }

    /// Sleeps in steps of at most a minute, so a jump of the system clock (a suspended laptop, a
    /// time sync) delays the wake-up by at most that much.
    public func sleep(until deadline: Date) async throws {
        while true {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { return try Task.checkCancellation() }
            try await sleep(for: min(left, 60))
        }
    }
}

extension WallClock where Self == SystemClock {
    /// The system clock.
    public static var system: SystemClock { SystemClock() }
}
