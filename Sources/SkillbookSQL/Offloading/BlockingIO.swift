import Foundation
import Synchronization

/// Threads of their own for a backend's blocking calls — SQLite's connection lock, its busy
/// timeout (up to 5 s while another process writes) and its flushes to disk; libpq's round trips
/// and the wait for a free pooled connection — so that no thread of Swift's cooperative pool (as
/// many threads as cores: two on a small machine) is held by one of them while the engine, timers
/// and other runs wait.
///
/// Plain threads, started when a call finds none idle, up to `maximumThreads` (past that, calls
/// queue in order until one is free), each ending after `idleSeconds` without work. The limit is
/// high because a blocked call should not hold up the others: one run's write waiting out another
/// process's lock must not delay the next run's read. (Not a libdispatch queue: on Linux a
/// concurrent queue's work runs on the same width-limited root queue as Swift's tasks.) A hop
/// costs a few microseconds, which is why `OffloadedJournal` keeps the records a backend only
/// queues in memory on the caller's thread.
public final class BlockingIO: Sendable {
    public let label: String
    public let maximumThreads: Int
    public let idleSeconds: Double

    private struct Pool {
        var jobs: [@Sendable () -> Void] = []
        var threads = 0
        var idle = 0
    }

    private let pool = Mutex(Pool())
    private let jobsWaiting = DispatchSemaphore(value: 0)

    /// `label` names the threads (`skillbook.sqlite`, `skillbook.postgres`).
    public init(label: String, maximumThreads: Int = 64, idleSeconds: Double = 5) {
        self.label = label
        self.maximumThreads = max(1, maximumThreads)
        self.idleSeconds = idleSeconds
    }

    /// Runs `body` on one of these threads; the calling task waits without holding its thread.
    /// `body` is released before the caller resumes, so it may hold a closure the caller lent for
    /// the call (`withoutActuallyEscaping`).
    public func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        let once = RunOnce(body)
        return try await withCheckedThrowingContinuation { continuation in
            submit { continuation.resume(with: Result { try once.run() }) }
        }
    }

    private func submit(_ job: @escaping @Sendable () -> Void) {
        let startsThread = pool.withLock { pool -> Bool in
            pool.jobs.append(job)
            guard pool.idle == 0, pool.threads < maximumThreads else { return false }
            pool.threads += 1
            return true
        }
        jobsWaiting.signal()
        guard startsThread else { return }
        let thread = Thread { [self] in work() }
        thread.name = label
        thread.start()
    }

    private func work() {
        while true {
            pool.withLock { $0.idle += 1 }
            while jobsWaiting.wait(timeout: .now() + idleSeconds) == .timedOut {
                // Idle long enough: end, unless a job came in meanwhile (its signal is for an idle
                // thread, and this one still counts as one).
                let ends = pool.withLock { pool -> Bool in
                    guard pool.jobs.isEmpty else { return false }
                    pool.idle -= 1
                    pool.threads -= 1
                    return true
                }
                if ends { return }
            }
            let job = pool.withLock { pool in
                pool.idle -= 1
                return pool.jobs.removeFirst()
            }
            job()
        }
    }
}

/// A body run once and then let go of (see `BlockingIO.run`).
private final class RunOnce<T>: @unchecked Sendable {
    /// Touched only by the one thread that runs it.
    private var body: (@Sendable () throws -> T)?

    init(_ body: @escaping @Sendable () throws -> T) {
        self.body = body
    }

    func run() throws -> T {
        guard let body else { preconditionFailure("a BlockingIO job ran twice") }
        self.body = nil
        return try body()
    }
}
