import Foundation
import SkillbookCore
import Synchronization

/// The timer of every call's timeout: one timer task sleeps until the earliest registered deadline,
/// so a call that finishes in microseconds costs no timer of its own (no dispatch timer, no system
/// call to arm one, no extra task). Time is the `WallClock` port's: `shared` runs on the system clock,
/// a test's own instance on a `ManualClock`.
final class Deadlines: Sendable {
    static let shared = Deadlines(clock: SystemClock())

    let clock: any WallClock

    init(clock: any WallClock) {
        self.clock = clock
    }

    private struct Entry {
        var id: Int
        var deadline: Date
        var action: @Sendable () -> Void
    }

    private struct State {
        var lastID = 0
        /// By id, oldest first: one per running call, so a list (a dictionary keyed by `Int` made
        /// the runtime scan the binary's conformance records at every run's first call).
        var entries: [Entry] = []
        /// The timer that re-arms (an older one that is still asleep only runs what is due) and when it fires.
        var timer: (generation: Int, deadline: Date)?
        var generation = 0
    }

    private let state = Mutex(State())

    /// Runs `operation` in a task of its own, cancelled when `seconds` have passed or when the calling
    /// task is cancelled, and waits for it: its own result always decides, so an effect it completed
    /// anyway is not lost. `timedOut` tells whether the time ran out before it returned.
    ///
    /// The task starts on the calling thread (`Task.immediate`) and runs there until it first
    /// suspends, so an operation that finishes without suspending costs no hand-off to another
    /// thread and back, which was most of the engine's cost per step. The task registers itself
    /// as it starts, so a stop reaches it even while it still runs on the calling thread (a skill
    /// that works synchronously and checks `Task.isCancelled` sees it there).
    func run<T: Sendable>(
        timeout seconds: Double, _ operation: @escaping @Sendable () async throws -> T
    ) async -> (result: Result<T, any Error>, timedOut: Bool) {
        let target = CancellationTarget()
        // A caller stopped already stops the operation from its first instruction.
        if Task.isCancelled { target.cancel() }
        let timedOut = Flag()
        let id = schedule(after: seconds) {
            timedOut.raise()
            target.cancel()
        }
        let task = Self.start {
            withUnsafeCurrentTask { target.attach($0) }
            defer { target.detach() }
            return try await operation()
        }
        let result = await withTaskCancellationHandler {
            await task.result
        } onCancel: {
            target.cancel()
        }
        cancel(id)
        return (result, timedOut.isRaised)
    }

    private static func start<T: Sendable>(
        _ operation: @escaping @Sendable () async throws -> T
    ) -> Task<T, any Error> {
        #if compiler(>=6.2)
            #if canImport(Darwin)
                guard #available(macOS 26, *) else { return Task { try await operation() } }
            #endif
            return Task.immediate { try await operation() }
        #else
            return Task { try await operation() }
        #endif
    }

    /// Calls `action` once `seconds` have passed, unless `cancel(id)` comes first.
    func schedule(after seconds: Double, _ action: @escaping @Sendable () -> Void) -> Int {
        let deadline = clock.now().addingTimeInterval(max(0, seconds))
        return state.withLock { state in
            state.lastID += 1
            state.entries.append(Entry(id: state.lastID, deadline: deadline, action: action))
            if state.timer.map({ deadline < $0.deadline }) ?? true { startTimer(at: deadline, &state) }
            return state.lastID
        }
    }

    func cancel(_ id: Int) {
        state.withLock { state in
            // Ids only grow, so the list is sorted by id.
            var low = 0
            var high = state.entries.count
            while low < high {
                let middle = (low + high) / 2
                if state.entries[middle].id < id { low = middle + 1 } else { high = middle }
            }
            if low < state.entries.count, state.entries[low].id == id { state.entries.remove(at: low) }
        }
    }

    private func startTimer(at deadline: Date, _ state: inout State) {
        state.generation += 1
        let generation = state.generation
        state.timer = (generation, deadline)
        let clock = clock
        Task {
            try? await clock.sleep(until: deadline)
            self.fire(generation)
        }
    }

    /// Runs every action whose deadline has passed, and re-arms for the earliest one left.
    private func fire(_ generation: Int) {
        let due: [@Sendable () -> Void] = state.withLock { state in
            let now = clock.now()
            var due: [@Sendable () -> Void] = []
            var earliest: Date?
            var left: [Entry] = []
            for entry in state.entries {
                if entry.deadline <= now {
                    due.append(entry.action)
                } else {
                    left.append(entry)
                    if earliest.map({ entry.deadline < $0 }) ?? true { earliest = entry.deadline }
                }
            }
            state.entries = left
            if state.timer?.generation == generation {
                state.timer = nil
                if let earliest { startTimer(at: earliest, &state) }
            }
            return due
        }
        for action in due { action() }
    }
}

/// The task a timer or a cancelled caller stops, as the task itself registered it while running.
///
/// It holds the running task's `UnsafeCurrentTask` only between `attach` and `detach`, both called
/// by that task (so the task is alive whenever it is held), and cancels it under the lock. A stop
/// asked for before `attach` is remembered and applied by `attach`; one after `detach` has nothing
/// left to stop.
private final class CancellationTarget: @unchecked Sendable {
    private let lock = NSLock()
    private var running: UnsafeCurrentTask?
    private var cancelled = false

    func attach(_ task: UnsafeCurrentTask?) {
        lock.lock()
        defer { lock.unlock() }
        running = task
        if cancelled { task?.cancel() }
    }

    func detach() {
        lock.lock()
        defer { lock.unlock() }
        running = nil
    }

    func cancel() {
        lock.lock()
        defer { lock.unlock() }
        cancelled = true
        running?.cancel()
    }
}

/// A flag raised at most once, from any task.
private final class Flag: Sendable {
    private let raised = Mutex(false)

    func raise() {
        raised.withLock { $0 = true }
    }

    var isRaised: Bool { raised.withLock { $0 } }
}
