import Synchronization

/// A value behind a `Mutex` that escaping closures of a test can share (a `Mutex` itself cannot
/// be captured by them).
public final class Shared<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    public init(_ value: Value) {
        mutex = Mutex(value)
    }

    public func withLock<T: Sendable>(_ body: (inout Value) throws -> T) rethrows -> T {
        try mutex.withLock { value in try body(&value) }
    }

    /// The value now.
    public var value: Value { mutex.withLock { $0 } }
}
