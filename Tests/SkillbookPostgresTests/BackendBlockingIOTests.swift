import Foundation
import SkillbookCore
import SkillbookPostgres
import SkillbookSQL
import SkillbookSQLite
import SkillbookTesting
import Synchronization
import Testing

/// A journal call that waits for its state — another process's write lock here — waits on the
/// backend's own threads (`BlockingIO`), not on the cooperative pool's: while more such calls
/// wait than the pool has threads, other tasks still run.
@Suite struct BackendBlockingIOTests {
    @Test(arguments: Backend.allCases)
    func writesWaitingForTheStatesLockLeaveTheCooperativePoolFree(_ backend: Backend) async throws {
        let state = try await backend.makeState()
        let journal = try state.stateBackend().openJournal()
        try await journal.runStarted(.sample("warm-up"))
        let log = Log()
        // Had the blocked writes held every thread of the pool, nothing could run before this
        // thread gives the lock back (within SQLite's 5 s busy timeout).
        let holder = try WriteLockHolder(state, giveBackAfter: 3) { log.append("lock given back") }
        let waiting = ProcessInfo.processInfo.activeProcessorCount * 2 + 2

        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<waiting {
                group.addTask { try await journal.runStarted(.sample("blocked-\(index)")) }
            }
            group.addTask {
                for _ in 0..<20 { try await Task.sleep(nanoseconds: 5_000_000) }
                log.append("other tasks ran")
                holder.release()
            }
            try await group.waitForAll()
        }

        #expect(log.entries.first == "other tasks ran", "\(log.entries)")
        for index in 0..<waiting {
            #expect(try await journal.run("blocked-\(index)") != nil, "the write waited, then went through")
        }
    }
}

/// Holds the state's write lock from a connection of its own, as another process writing would.
private final class WriteLockHolder: Sendable {
    private let released = DispatchSemaphore(value: 0)
    private let done = Mutex(false)

    init(_ state: TestState, giveBackAfter seconds: Double, onTimeout: @escaping @Sendable () -> Void) throws {
        let holding = DispatchSemaphore(value: 0)
        if let url = state.url {
            let database = try PostgresDatabase(url, maximumConnections: 1)
            Thread { [released] in
                _ = try? database.transaction { transaction in
                    try transaction.run("LOCK TABLE runs IN EXCLUSIVE MODE")
                    holding.signal()
                    released.wait()
                }
            }.start()
        } else {
            let database = try StateDatabase.openSeparately(stateDirectory: state.directory.state)
            Thread { [released] in
                try? database.execute("BEGIN IMMEDIATE")
                holding.signal()
                released.wait()
                try? database.execute("COMMIT")
            }.start()
        }
        holding.wait()
        Thread { [self] in
            usleep(UInt32(seconds * 1_000_000))
            if release() { onTimeout() }
        }.start()
    }

    /// Gives the lock back; `false` when it was given back already.
    @discardableResult
    func release() -> Bool {
        let first = done.withLock { done in
            defer { done = true }
            return !done
        }
        if first { released.signal() }
        return first
    }
}

private final class Log: Sendable {
    private let lines = Mutex<[String]>([])
    func append(_ line: String) { lines.withLock { $0.append(line) } }
    var entries: [String] { lines.withLock { $0 } }
}
