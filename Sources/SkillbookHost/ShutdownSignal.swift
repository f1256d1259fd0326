public import Foundation
import Synchronization

/// Turns SIGINT and SIGTERM into a graceful stop while it is alive: the first signal calls
/// `onShutdown` (cancel the run in the foreground: it then rolls back what it completed; or, in a
/// `ServiceGroup`, ask its services to shut down), a second one calls `onRepeat` (by default: exit
/// at once with 130).
///
/// While one is alive the process does not die of these signals; once it is stopped (or released)
/// they are ignored. A signal that arrives after `init` returns is never lost: the handler is
/// installed before `init` returns and only writes the signal's number to a pipe, which a
/// thread of its own reads.
public final class ShutdownSignal: Sendable {
    private let id: Int
    private let signals: [Int32]

    /// - Parameters:
    ///   - signals: the signals watched (default SIGINT and SIGTERM).
    ///   - onShutdown: called once, on the first signal, with its number.
    ///   - onRepeat: called on every further signal; by default exits the process with 130.
    public init(
        signals: [Int32] = [SIGINT, SIGTERM], onShutdown: @escaping @Sendable (_ signal: Int32) -> Void,
        onRepeat: @escaping @Sendable (_ signal: Int32) -> Void = { _ in exit(130) }
    ) {
        self.signals = signals
        let seen = Mutex(0)
        id = SignalPipe.shared.add(signals: signals) { number in
            let count = seen.withLock { count in
                count += 1
                return count
            }
            if count > 1 { onRepeat(number) } else { onShutdown(number) }
        }
    }

    /// Stops listening; the signals stay ignored.
    public func stop() {
        SignalPipe.shared.remove(id)
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
        // The handler is installed before the operation starts: a signal that arrives as soon as
        // the operation has begun (a run already waiting for a lock) stops it rather than the process.
        let started = Mutex<(task: Task<T, Never>?, cancelled: Bool)>((nil, false))
        let watcher = ShutdownSignal(
            signals: signals,
            onShutdown: { number in
                announce(number)
                started.withLock { $0.cancelled = true; return $0.task }?.cancel()
            }, onRepeat: onRepeat)
        let task = Task { await operation() }
        if started.withLock({ $0.task = task; return $0.cancelled }) { task.cancel() }
        let result = await withTaskCancellationHandler { await task.value } onCancel: { task.cancel() }
        watcher.stop()
        return result
    }
}

/// The write end of the signal pipe, for the C signal handler (which can capture nothing).
private let signalPipeWriteEnd = Atomic<Int32>(-1)

/// One pipe per process: the handler of every watched signal writes the signal's number into it,
/// and a thread of its own hands each number to the watchers of that signal.
final class SignalPipe: Sendable {
    static let shared = SignalPipe()

    private struct Watcher {
        var signals: [Int32]
        var handle: @Sendable (Int32) -> Void
    }

    /// Arrays, not a dictionary and a set: a handful of entries, and no hashed collection of a new
    /// type to instantiate at every start-up.
    private struct State {
        var next = 0
        var watchers: [(id: Int, watcher: Watcher)] = []
        var installed: [Int32] = []
    }

    private let state = Mutex(State())

    private init() {
        var fds: [Int32] = [-1, -1]
        precondition(pipe(&fds) == 0, "cannot make the signal pipe")
        _ = fcntl(fds[1], F_SETFL, fcntl(fds[1], F_GETFL) | O_NONBLOCK)
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        signalPipeWriteEnd.store(fds[1], ordering: .sequentiallyConsistent)
        let readEnd = fds[0]
        let thread = Thread { [self] in
            while true {
                var byte: UInt8 = 0
                let count = read(readEnd, &byte, 1)
                if count < 0 && errno == EINTR { continue }
                guard count == 1 else { return }
                deliver(Int32(byte))
            }
        }
        thread.name = "skillbook.shutdown"
        thread.start()
    }

    private func deliver(_ number: Int32) {
        let handlers = state.withLock { state in state.watchers.filter { $0.watcher.signals.contains(number) }.map(\.watcher.handle) }
        for handle in handlers { handle(number) }
    }

    func add(signals: [Int32], handle: @escaping @Sendable (Int32) -> Void) -> Int {
        state.withLock { state in
            for number in signals where !state.installed.contains(number) {
                signal(number) { number in
                    var byte = UInt8(truncatingIfNeeded: number)
                    _ = write(signalPipeWriteEnd.load(ordering: .relaxed), &byte, 1)
                }
                state.installed.append(number)
            }
            state.next += 1
            state.watchers.append((state.next, Watcher(signals: signals, handle: handle)))
            return state.next
        }
    }

    func remove(_ id: Int) {
        state.withLock { $0.watchers.removeAll { $0.id == id } }
    }
}
