import Foundation
public import SkillbookCore
import SkillbookSQL
import Synchronization

/// `LISTEN` on one channel over a connection of its own: `wait(timeout:)` returns as soon as a
/// `NOTIFY` on the channel arrives (or one arrived since the last wait), or after `timeout`
/// seconds — a worker's wake-up with a polling fallback.
///
/// A thread of its own blocks in `poll` on the connection's socket, so no task of the cooperative
/// pool waits on the network. A broken connection is re-opened (and `LISTEN` sent again) on the
/// next round; meanwhile waits simply time out, which is the polling fallback.
public final class PostgresListener: RunQueueWaiter {
    public let channel: String
    private let database: PostgresDatabase
    private struct State {
        var pending = 0
        var waiters: [CheckedContinuation<Bool, Never>] = []
        var stopped = false
    }

    private let state = Mutex(State())

    /// Starts listening on `channel` (a plain identifier: letters, digits, `_`).
    public init(database: PostgresDatabase, channel: String) throws(PostgresError) {
        guard !channel.isEmpty, channel.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }) else {
            throw PostgresError(.server, message: "'\(channel)' is not a valid notification channel name")
        }
        self.database = database
        self.channel = channel
        let connection = try Self.listen(database, channel)
        let thread = Thread { [self] in self.loop(connection) }
        thread.name = "skillbook-listen-\(channel)"
        thread.start()
    }

    /// Stops listening (the thread ends within a quarter of a second); waiters return `false`.
    public func stop() {
        let waiters = state.withLock { state in
            state.stopped = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume(returning: false) }
    }

    /// `true` when a notification arrived (since the last wait, or during this one), `false`
    /// after `timeout` seconds without one.
    public func wait(timeout: Double) async -> Bool {
        let taken = state.withLock { state -> Bool in
            guard state.pending > 0 else { return false }
            state.pending = 0
            return true
        }
        if taken { return true }
        let deadline = Task {
            try? await Task.sleep(nanoseconds: UInt64(max(0, timeout) * 1e9))
            self.wakeAll(notified: false)
        }
        defer { deadline.cancel() }
        return await withCheckedContinuation { continuation in
            let resumeNow = state.withLock { state -> Bool? in
                if state.stopped { return false }
                if state.pending > 0 {
                    state.pending = 0
                    return true
                }
                state.waiters.append(continuation)
                return nil
            }
            if let resumeNow { continuation.resume(returning: resumeNow) }
        }
    }

    /// Sends `NOTIFY channel, payload` (through the database's pool).
    public static func notify(_ database: PostgresDatabase, channel: String, payload: String = "") throws(PostgresError) {
        try database.query("SELECT pg_notify($1, $2)", [.text(channel), .text(payload)], doing: "notifying '\(channel)'")
    }

    private func wakeAll(notified: Bool) {
        let waiters = state.withLock { state in
            if notified && state.waiters.isEmpty { state.pending += 1 }
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume(returning: notified) }
    }

    private static func listen(_ database: PostgresDatabase, _ channel: String) throws(PostgresError) -> PostgresConnection {
        let connection = try database.dedicatedConnection()
        // The channel was checked to be a plain identifier; LISTEN takes no parameters.
        try connection.query("LISTEN \(channel)", doing: "listening on '\(channel)'")
        return connection
    }

    private func loop(_ first: PostgresConnection) {
        var connection: PostgresConnection? = first
        while !state.withLock({ $0.stopped }) {
            guard let current = connection, !current.isBroken else {
                connection = nil
                Thread.sleep(forTimeInterval: 0.25)
                connection = try? Self.listen(database, channel)
                continue
            }
            var descriptor = pollfd(fd: current.socket, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, 250)
            guard ready > 0 else { continue }
            if !current.notifications().isEmpty { wakeAll(notified: true) }
        }
    }
}
