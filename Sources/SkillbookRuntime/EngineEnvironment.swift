public import Foundation
public import SkillbookCore

/// The engine's side effects, injectable so tests run on fakes: the clock (time and waiting), run
/// ids and the process environment.
public struct EngineEnvironment: Sendable {
    /// The time of runs and calls, and the waits between retries and batches (which honour cancellation).
    public var clock: any WallClock
    public var timeZone: TimeZone
    /// Run ids.
    public var ids: IDGenerator
    /// Environment variables; a playbook sees only those it declares in `env:`.
    public var variables: [String: String]

    public init(clock: any WallClock, timeZone: TimeZone, ids: IDGenerator, variables: [String: String]) {
        self.clock = clock
        self.timeZone = timeZone
        self.ids = ids
        self.variables = variables
    }

    public static var live: EngineEnvironment {
        EngineEnvironment(
            clock: SystemClock(), timeZone: .current, ids: .live, variables: ProcessInfo.processInfo.environment)
    }

    /// The clock's time.
    public func now() -> Date { clock.now() }

    /// Waits `seconds` on the clock; throws `CancellationError` when the task is cancelled.
    public func sleep(_ seconds: Double) async throws {
        try await clock.sleep(for: seconds)
    }

    /// A fresh run id.
    public func makeRunID() -> String { ids.next() }
}
