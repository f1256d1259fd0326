import Dispatch
public import Foundation
import Synchronization

/// Turns SIGINT and SIGTERM into a graceful stop while it is alive: the first signal calls
/// `onShutdown` (cancel the run, the server, the worker: a run then rolls back what it completed),
/// a second one calls `onRepeat` (by default: exit at once with 130).
///
/// While it is alive the process does not die of these signals; when it is released (or `stop()`
/// is called) it stops listening, and the signals stay ignored. One per process at a time.
public final class ShutdownSignal: Sendable {
    private let sources: Mutex<[any DispatchSourceSignal]>

    /// - Parameters:
    ///   - signals: the signals watched (default SIGINT and SIGTERM).
    ///   - onShutdown: called once, on the first signal, with its number.
    ///   - onRepeat: called on every further signal; by default exits the process with 130.
    public init(
        signals: [Int32] = [SIGINT, SIGTERM], onShutdown: @escaping @Sendable (_ signal: Int32) -> Void,
        onRepeat: @escaping @Sendable (_ signal: Int32) -> Void = { _ in exit(130) }
    ) {
        let queue = DispatchQueue(label: "skillbook.shutdown")
        let seen = Mutex(0)
        sources = Mutex(
            signals.map { number in
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
                source.setEventHandler {
                    let count = seen.withLock { count in
                        count += 1
                        return count
                    }
                    if count > 1 { onRepeat(number) } else { onShutdown(number) }
                }
                source.resume()
                return source
            })
    }

    /// Stops listening.
    public func stop() {
        let sources = self.sources.withLock { sources in
            defer { sources = [] }
            return sources
        }
        for source in sources { source.cancel() }
    }

    deinit {
        stop()
    }

    /// Runs `operation` in a child task that the first signal cancels; a second signal calls
    /// `onRepeat`. `announce` is told before the cancellation (to say what happens now).
    public static func cancellingOnSignal<T: Sendable>(
        signals: [Int32] = [SIGINT, SIGTERM], announce: @escaping @Sendable (_ signal: Int32) -> Void = { _ in },
        onRepeat: @escaping @Sendable (_ signal: Int32) -> Void = { _ in exit(130) },
        _ operation: @escaping @Sendable () async -> T
    ) async -> T {
        let task = Task { await operation() }
        let watcher = ShutdownSignal(
            signals: signals,
            onShutdown: { number in
                announce(number)
                task.cancel()
            }, onRepeat: onRepeat)
        let result = await withTaskCancellationHandler { await task.value } onCancel: { task.cancel() }
        watcher.stop()
        return result
    }
}
