import Foundation
public import SkillbookSQL
import Synchronization

/// A PostgreSQL database shared by every skillbook process and machine using one state: a small
/// pool of connections, the schema's migrations, and transactions.
///
/// Safe to use from concurrent tasks and threads: each call borrows one connection for its whole
/// body (a transaction holds it until it commits), up to `maximumConnections` at once; more callers
/// wait. Calls block the calling thread for their round trips, like the SQLite store's.
/// A connection that broke is dropped and replaced by the next call. Opened once per process per
/// connection string (see `open`).
public final class PostgresDatabase: Sendable {
    public let location: PostgresURL
    public let maximumConnections: Int

    private struct Pool {
        var idle: [PostgresConnection] = []
        var open = 0
    }

    private let pool: Mutex<Pool>
    private let available = NSCondition()

    /// Connects (the first connection, to report a wrong string at once) and migrates the schema.
    public init(_ location: PostgresURL, maximumConnections: Int = 8) throws(PostgresError) {
        self.location = location
        self.maximumConnections = max(1, maximumConnections)
        let first = try PostgresConnection(location)
        pool = Mutex(Pool(idle: [], open: 1))
        try PostgresSchema.migrate(first)
        give(first)
    }

    /// The database of `location`, shared by every caller in this process while one holds it.
    public static func open(_ location: PostgresURL) throws(PostgresError) -> PostgresDatabase {
        if let database = opened.withLock({ $0[location.connectionString]?.database }) { return database }
        let database = try PostgresDatabase(location)
        return opened.withLock { cache in
            if let winner = cache[location.connectionString]?.database { return winner }
            cache = cache.filter { $0.value.database != nil }
            cache[location.connectionString] = WeakDatabase(database: database)
            return database
        }
    }

    private struct WeakDatabase: @unchecked Sendable {
        weak var database: PostgresDatabase?
    }

    private static let opened = Mutex<[String: WeakDatabase]>([:])

    // MARK: Statements

    /// Runs one statement; returns its rows.
    @discardableResult
    public func query(_ sql: String, _ parameters: [SQLValue] = [], doing operation: String = "a query") throws(PostgresError) -> [Row] {
        try withConnection { (connection) throws(PostgresError) in try connection.query(sql, parameters, doing: operation).rows }
    }

    /// Runs one statement; returns how many rows it changed.
    @discardableResult
    public func run(_ sql: String, _ parameters: [SQLValue] = [], doing operation: String = "a write") throws(PostgresError) -> Int {
        try withConnection { (connection) throws(PostgresError) in try connection.query(sql, parameters, doing: operation).changed }
    }

    /// Runs `body` in one transaction (`READ COMMITTED`), committed when it returns and rolled back
    /// when it throws. Statements inside go through the `Transaction` it is given.
    public func transaction<T>(
        doing operation: String = "a transaction", _ body: (Transaction) throws -> T
    ) throws -> T {
        let connection = try take()
        defer { give(connection) }
        try connection.query("BEGIN", doing: operation)
        do {
            let value = try body(Transaction(connection: connection, operation: operation))
            try connection.query("COMMIT", doing: operation)
            return value
        } catch {
            if !connection.isBroken { _ = try? connection.query("ROLLBACK", doing: operation) }
            throw error
        }
    }

    /// Statements inside one transaction.
    public struct Transaction {
        let connection: PostgresConnection
        let operation: String

        @discardableResult
        public func query(_ sql: String, _ parameters: [SQLValue] = []) throws(PostgresError) -> [Row] {
            try connection.query(sql, parameters, doing: operation).rows
        }

        @discardableResult
        public func run(_ sql: String, _ parameters: [SQLValue] = []) throws(PostgresError) -> Int {
            try connection.query(sql, parameters, doing: operation).changed
        }
    }

    /// A connection of its own, outside the pool (for LISTEN).
    func dedicatedConnection() throws(PostgresError) -> PostgresConnection {
        try PostgresConnection(location)
    }

    // MARK: Pool

    func withConnection<T>(_ body: (PostgresConnection) throws(PostgresError) -> T) throws(PostgresError) -> T {
        let connection = try take()
        defer { give(connection) }
        return try body(connection)
    }

    private func take() throws(PostgresError) -> PostgresConnection {
        available.lock()
        while true {
            let next = pool.withLock { pool -> (PostgresConnection?, Bool) in
                if let idle = pool.idle.popLast() { return (idle, false) }
                if pool.open < maximumConnections {
                    pool.open += 1
                    return (nil, true)
                }
                return (nil, false)
            }
            if let connection = next.0 {
                available.unlock()
                return connection
            }
            if next.1 {
                available.unlock()
                do {
                    return try PostgresConnection(location)
                } catch {
                    pool.withLock { $0.open -= 1 }
                    available.signal()
                    throw error
                }
            }
            available.wait()
        }
    }

    private func give(_ connection: PostgresConnection) {
        available.lock()
        pool.withLock { pool in
            if connection.isBroken {
                pool.open -= 1
            } else {
                pool.idle.append(connection)
            }
        }
        available.signal()
        available.unlock()
    }
}
