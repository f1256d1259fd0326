import SkillbookMCP
import Synchronization

/// Collects a channel's lines as they come, and hands them out one at a time with a time limit.
final class LineInbox: Sendable {
    enum Next: Sendable {
        case line(String)
        case ended
        case timedOut
    }

    private struct State {
        var buffer: [String] = []
        var ended = false
        var waiter: (id: Int, continuation: CheckedContinuation<Next, Never>)?
        var nextWaiter = 0
    }

    private let state = Mutex(State())

    init(_ channel: any LineTransport) {
        channel.start()
        Task { [self] in
            for await line in channel.lines {
                let waiter = state.withLock { state -> CheckedContinuation<Next, Never>? in
                    if let waiter = state.waiter {
                        state.waiter = nil
                        return waiter.continuation
                    }
                    state.buffer.append(line)
                    return nil
                }
                waiter?.resume(returning: .line(line))
            }
            let waiter = state.withLock { state in
                state.ended = true
                defer { state.waiter = nil }
                return state.waiter?.continuation
            }
            waiter?.resume(returning: .ended)
        }
    }

    func next(seconds: Double) async -> Next {
        let id = state.withLock { state in
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        let timer = Task { [self] in
            try? await Task.sleep(for: .seconds(seconds))
            let waiter = state.withLock { state -> CheckedContinuation<Next, Never>? in
                guard let waiter = state.waiter, waiter.id == id else { return nil }
                state.waiter = nil
                return waiter.continuation
            }
            waiter?.resume(returning: .timedOut)
        }
        defer { timer.cancel() }
        return await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> Next? in
                if !state.buffer.isEmpty { return .line(state.buffer.removeFirst()) }
                if state.ended { return .ended }
                state.waiter = (id, continuation)
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}
