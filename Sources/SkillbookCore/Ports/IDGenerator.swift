import Foundation
import Synchronization

/// Fresh identifiers (run ids, note and reminder ids), injectable so tests are deterministic.
public struct IDGenerator: Sendable {
    public var next: @Sendable () -> String

    public init(next: @escaping @Sendable () -> String) {
        self.next = next
    }

    /// Random UUIDs in lowercase (`0f8c…-…`).
    public static let live = IDGenerator { UUID().uuidString.lowercased() }

    /// UUID-shaped ids counting up from 1: `00000000-0000-0000-0000-000000000001`, ….
    public static func sequential() -> IDGenerator {
        let counter = Counter()
        return IDGenerator {
            let digits = String(counter.next(), radix: 16)
            return "00000000-0000-0000-0000-" + String(repeating: "0", count: max(0, 12 - digits.count)) + digits
        }
    }
}

/// Counts 1, 2, 3, … across tasks.
private final class Counter: Sendable {
    private let count = Mutex(0)

    func next() -> Int {
        count.withLock { count in
            count += 1
            return count
        }
    }
}
