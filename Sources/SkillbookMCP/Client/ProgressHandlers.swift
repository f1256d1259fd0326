import SkillbookCore
import Synchronization

/// Progress callbacks by token.
final class ProgressHandlers: Sendable {
    private let state = Mutex<(next: Int, handlers: [String: @Sendable (MCPProgress) -> Void])>((1, [:]))

    func register(_ handler: @escaping @Sendable (MCPProgress) -> Void) -> String {
        state.withLock { state in
            defer { state.next += 1 }
            let key = "skillbook-\(state.next)"
            state.handlers[key] = handler
            return key
        }
    }

    func remove(_ key: String) { _ = state.withLock { $0.handlers.removeValue(forKey: key) } }

    func deliver(_ params: ValueObject) {
        guard let key = params["progressToken"].map({ $0.stringValue ?? $0.interpolatedText }),
            let progress = params["progress"]?.doubleValue,
            let handler = state.withLock({ $0.handlers[key] })
        else { return }
        handler(MCPProgress(progress: progress, total: params["total"]?.doubleValue, message: params["message"]?.stringValue))
    }
}

/// A continuation resumed by whichever caller comes first.
final class OneShot<T: Sendable>: Sendable {
    private let continuation: Mutex<CheckedContinuation<T, Never>?>

    init(_ continuation: CheckedContinuation<T, Never>) {
        self.continuation = Mutex(continuation)
    }

    func resume(_ value: T) {
        continuation.withLock { $0.take() }?.resume(returning: value)
    }
}
