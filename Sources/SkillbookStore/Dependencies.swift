public import Foundation

/// The current time, injectable so tests are deterministic.
public struct WallClock: Sendable {
    public var now: @Sendable () -> Date

    public init(now: @escaping @Sendable () -> Date) {
        self.now = now
    }

    /// The system clock.
    public static let live = WallClock { Date() }

    /// Always `date`.
    public static func fixed(_ date: Date) -> WallClock {
        WallClock { date }
    }

    /// `start`, then `start + step`, `start + 2·step`, … one per call.
    public static func stepping(from start: Date, by step: TimeInterval) -> WallClock {
        let calls = Locked(0)
        return WallClock {
            let n = calls.withLock { count in
                defer { count += 1 }
                return count
            }
            return start.addingTimeInterval(Double(n) * step)
        }
    }
}

/// Fresh identifiers, injectable so tests are deterministic.
public struct IDGenerator: Sendable {
    public var next: @Sendable () -> String

    public init(next: @escaping @Sendable () -> String) {
        self.next = next
    }

    /// Random UUIDs in lowercase (`0f8c…-…`).
    public static let live = IDGenerator { UUID().uuidString.lowercased() }

    /// UUID-shaped ids counting up from 1: `00000000-0000-0000-0000-000000000001`, ….
    public static func sequential() -> IDGenerator {
        let counter = Locked(0)
        return IDGenerator {
            let n = counter.withLock { count in
                count += 1
                return count
            }
            let digits = String(n, radix: 16)
            return "00000000-0000-0000-0000-" + String(repeating: "0", count: max(0, 12 - digits.count)) + digits
        }
    }
}

/// A value guarded by a lock, for the few places that share mutable state between threads.
///
/// `NSLock` rather than `Synchronization.Mutex` because Mutex needs macOS 15 and the package
/// supports macOS 14.
package final class Locked<State>: @unchecked Sendable {
    private let lock = NSLock()
    private var state: State

    package init(_ state: State) {
        self.state = state
    }

    package func withLock<T, E: Error>(_ body: (inout State) throws(E) -> T) throws(E) -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }
}
