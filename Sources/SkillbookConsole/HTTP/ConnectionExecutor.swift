import Dispatch
import Foundation
import Synchronization

/// Runs a handler's jobs on the connection's own thread, which waits for the handler anyway: the
/// console answers even when the cooperative pool is busy (runs, or a test suite running many
/// things at once). A handler given up on (too slow) hands its remaining jobs to the global pool.
final class ConnectionExecutor: TaskExecutor, Sendable {
    private struct State {
        var jobs: [UnownedJob] = []
        var abandoned = false
    }

    private let state = Mutex(State())
    private let signal = DispatchSemaphore(value: 0)

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let queued = state.withLock { state -> Bool in
            if state.abandoned { return false }
            state.jobs.append(job)
            return true
        }
        if queued {
            signal.signal()
        } else {
            globalConcurrentExecutor.enqueue(ExecutorJob(job))
        }
    }

    /// Runs jobs on this thread until `done()` or `deadline`; `false` when the deadline came first.
    /// Jobs that come after it returns go to the global pool.
    func drain(until deadline: DispatchTime, done: () -> Bool) -> Bool {
        defer {
            let left = state.withLock { state -> [UnownedJob] in
                state.abandoned = true
                defer { state.jobs = [] }
                return state.jobs
            }
            for job in left { globalConcurrentExecutor.enqueue(ExecutorJob(job)) }
        }
        while !done() {
            if signal.wait(timeout: deadline) == .timedOut { return done() }
            let batch = state.withLock { state -> [UnownedJob] in
                defer { state.jobs = [] }
                return state.jobs
            }
            for job in batch { job.runSynchronously(on: asUnownedTaskExecutor()) }
        }
        return true
    }
}
