public import Foundation
import Synchronization

/// A clock that moves only when told to, for elapsed times and throttling in tests.
public final class ManualClock: Sendable {
    private let current: Mutex<Date>

    public init(_ start: Date = Date(timeIntervalSince1970: 1_796_033_700)) {
        current = Mutex(start)
    }

    /// Reads the clock; pass it where a `() -> Date` is expected.
    public var now: @Sendable () -> Date {
        { self.current.withLock { $0 } }
    }

    public func advance(_ seconds: Double) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }
}
