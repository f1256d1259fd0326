public import Foundation

/// The clock a host runs on: what time it is, and how waiting is done (retry delays, `debug.sleep`
/// is the skill's own business). Injectable so a test moves time by hand.
///
/// A conformer's `sleep` must honour cancellation (throw `CancellationError` when the task is
/// cancelled), since a run is interrupted by cancelling it.
public struct HostClock: Sendable {
    public var now: @Sendable () -> Date
    public var sleep: @Sendable (_ seconds: Double) async throws -> Void

    public init(now: @escaping @Sendable () -> Date, sleep: @escaping @Sendable (_ seconds: Double) async throws -> Void) {
        self.now = now
        self.sleep = sleep
    }

    /// The machine's clock and real waiting.
    public static let live = HostClock(
        now: { Date() }, sleep: { seconds in try await Task.sleep(nanoseconds: UInt64(max(0, seconds) * 1e9)) })
}
