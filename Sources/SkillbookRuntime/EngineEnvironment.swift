public import Foundation

/// The engine's side effects, injectable so tests run on fakes: the clock, waiting, run ids
/// and the process environment.
public struct EngineEnvironment: Sendable {
    public var now: @Sendable () -> Date
    public var timeZone: TimeZone
    /// Waits between retries; honours cancellation.
    public var sleep: @Sendable (_ seconds: Double) async throws -> Void
    public var makeRunID: @Sendable () -> String
    /// Environment variables; a playbook sees only those it declares in `env:`.
    public var variables: [String: String]

    public init(
        now: @escaping @Sendable () -> Date, timeZone: TimeZone,
        sleep: @escaping @Sendable (Double) async throws -> Void, makeRunID: @escaping @Sendable () -> String,
        variables: [String: String]
    ) {
        self.now = now
        self.timeZone = timeZone
        self.sleep = sleep
        self.makeRunID = makeRunID
        self.variables = variables
    }

    public static var live: EngineEnvironment {
        EngineEnvironment(
            now: { Date() }, timeZone: .current,
            sleep: { seconds in try await Task.sleep(nanoseconds: UInt64(max(0, seconds) * 1e9)) },
            makeRunID: { UUID().uuidString.lowercased() },
            variables: ProcessInfo.processInfo.environment)
    }
}
