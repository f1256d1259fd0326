import Synchronization

/// A long-running part of a process (the schedule daemon, a queue worker, the MCP server, the
/// console), run with others by a service group (`ServiceGroup` in the host).
///
/// What a conformer must do:
/// - `run()` does the service's work until the work is done or shutdown is asked, then returns.
///   Returning (or throwing) before shutdown was asked ends the group: the other services are shut
///   down gracefully, and a thrown error is what the group throws.
/// - **Graceful shutdown** (the first SIGTERM or SIGINT, or another service of the group ended):
///   `GracefulShutdown` tells it, through `withGracefulShutdownHandler` or
///   `GracefulShutdown.requested()`. The service takes no new work (no more fires, claims or
///   requests), lets the work in flight finish, and returns.
/// - **Cancellation** (the group's grace period ran out, or a second signal): the task of `run()`
///   is cancelled. The service stops its work in flight at once (running runs are cancelled and
///   roll back what they completed) and returns; it does not start anything new.
/// - Outside a group (no `GracefulShutdown` in the task), cancellation is the only way to stop it.
public protocol Service: Sendable {
    func run() async throws
}

/// The graceful-shutdown request a service group shares with its services through a task-local
/// value: requested once, it stays requested, and every handler registered runs once.
public final class GracefulShutdown: Sendable {
    /// The request of the group running the current task, if any.
    @TaskLocal public static var current: GracefulShutdown?

    private struct State {
        var requested = false
        var next = 0
        var handlers: [(id: Int, handle: @Sendable () -> Void)] = []
    }

    private let state = Mutex(State())

    public init() {}

    /// Whether shutdown was asked.
    public var isRequested: Bool { state.withLock { $0.requested } }

    /// Asks for graceful shutdown: every registered handler runs once (on the caller's thread).
    public func request() {
        let handlers = state.withLock { state -> [@Sendable () -> Void] in
            guard !state.requested else { return [] }
            state.requested = true
            defer { state.handlers = [] }
            return state.handlers.map(\.handle)
        }
        for handle in handlers { handle() }
    }

    /// Registers `handle` to run when shutdown is asked (at once, here, when it already was);
    /// returns an id for `remove`, or `nil` when it already ran.
    func add(_ handle: @escaping @Sendable () -> Void) -> Int? {
        let id = state.withLock { state -> Int? in
            guard !state.requested else { return nil }
            state.next += 1
            state.handlers.append((state.next, handle))
            return state.next
        }
        if id == nil { handle() }
        return id
    }

    func remove(_ id: Int) {
        state.withLock { $0.handlers.removeAll { $0.id == id } }
    }

    /// Returns when graceful shutdown of the current task's group is asked, or when the task is
    /// cancelled (also when it runs in no group: then only cancellation ends the wait).
    public static func requested() async {
        let (stream, continuation) = AsyncStream<Void>.makeStream()
        await withGracefulShutdownHandler {
            for await _ in stream { break }
        } onGracefulShutdown: {
            continuation.finish()
        }
    }
}

/// Runs `operation`; if graceful shutdown of the current task's group is asked while it runs (or
/// was before), `onGracefulShutdown` runs once, on the thread that asked. Without a group it only
/// runs `operation`.
public func withGracefulShutdownHandler<T>(
    isolation: isolated (any Actor)? = #isolation, operation: () async throws -> T,
    onGracefulShutdown: @escaping @Sendable () -> Void
) async rethrows -> T {
    guard let shutdown = GracefulShutdown.current, let id = shutdown.add(onGracefulShutdown) else {
        return try await operation()
    }
    defer { shutdown.remove(id) }
    return try await operation()
}
