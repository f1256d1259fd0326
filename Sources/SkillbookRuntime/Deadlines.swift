import Synchronization

/// The timer of every call's timeout. `sleep(seconds:)` behaves like `Task.sleep` — it returns when
/// the time is up or as soon as the calling task is cancelled — but a sleeper only registers its
/// deadline, and one timer task sleeps until the earliest deadline. A call that finishes in
/// microseconds then costs no timer of its own (no dispatch timer, no system call to arm it).
final class Deadlines: Sendable {
    static let shared = Deadlines()

    private enum Entry {
        /// Has an id, not yet a continuation.
        case starting
        /// Cancelled while starting: wakes as soon as it registers.
        case cancelled
        case waiting(deadline: ContinuousClock.Instant, continuation: CheckedContinuation<Void, Never>)
    }

    private struct State {
        var lastID = 0
        var entries: [Int: Entry] = [:]
        /// The timer task that re-arms (older ones only wake what is due) and when it fires.
        var timer: (generation: Int, deadline: ContinuousClock.Instant)?
        var generation = 0
    }

    private let state = Mutex(State())

    /// Returns after `seconds`, or as soon as the calling task is cancelled.
    func sleep(seconds: Double) async {
        let deadline = ContinuousClock.now.advanced(by: .nanoseconds(UInt64(seconds * 1e9)))
        let id = state.withLock { state in
            state.lastID += 1
            state.entries[state.lastID] = .starting
            return state.lastID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                register(id, deadline: deadline, continuation)
            }
        } onCancel: {
            wake(id)
        }
    }

    private func register(_ id: Int, deadline: ContinuousClock.Instant, _ continuation: CheckedContinuation<Void, Never>) {
        let cancelled = state.withLock { state in
            if case .cancelled? = state.entries[id] {
                state.entries[id] = nil
                return true
            }
            state.entries[id] = .waiting(deadline: deadline, continuation: continuation)
            if let timer = state.timer, timer.deadline <= deadline { return false }
            startTimer(at: deadline, &state)
            return false
        }
        if cancelled { continuation.resume() }
    }

    /// Wakes a sleeper early (its task was cancelled).
    private func wake(_ id: Int) {
        let continuation: CheckedContinuation<Void, Never>? = state.withLock { state in
            switch state.entries[id] {
            case .waiting(_, let continuation)?:
                state.entries[id] = nil
                return continuation
            case .starting?:
                state.entries[id] = .cancelled
                return nil
            case .cancelled?, nil:
                return nil
            }
        }
        continuation?.resume()
    }

    /// Starts the one timer task for `deadline`; a timer already running stays, but no longer re-arms.
    private func startTimer(at deadline: ContinuousClock.Instant, _ state: inout State) {
        state.generation += 1
        let generation = state.generation
        state.timer = (generation, deadline)
        Task {
            try? await Task.sleep(until: deadline, clock: .continuous)
            self.fire(generation)
        }
    }

    /// Wakes every sleeper whose deadline has passed, and re-arms for the earliest one left.
    private func fire(_ generation: Int) {
        let due: [CheckedContinuation<Void, Never>] = state.withLock { state in
            let now = ContinuousClock.now
            var due: [CheckedContinuation<Void, Never>] = []
            var earliest: ContinuousClock.Instant?
            for (id, entry) in state.entries {
                guard case .waiting(let deadline, let continuation) = entry else { continue }
                if deadline <= now {
                    due.append(continuation)
                    state.entries[id] = nil
                } else if earliest.map({ deadline < $0 }) ?? true {
                    earliest = deadline
                }
            }
            if state.timer?.generation == generation {
                state.timer = nil
                if let earliest { startTimer(at: earliest, &state) }
            }
            return due
        }
        for continuation in due { continuation.resume() }
    }
}
