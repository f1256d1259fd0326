internal import CSQLite
public import Foundation
public import SkillbookSQL

/// SQLite copies bound text and blobs at bind time. Swift does not import the C macro.
let SQLITE_TRANSIENT = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// One SQLite connection to a file, safe to share between tasks and threads.
///
/// Thread safety: every use of the connection happens while holding `lock`, a recursive lock, so a
/// sequence of calls (bind, step, read columns, `sqlite3_errmsg`) is never interleaved with another
/// thread's, and a `transaction` holds the connection for its whole body. The lock is recursive so
/// that code inside a transaction body can call this database's methods again (a nested
/// `transaction` becomes a savepoint). `NSRecursiveLock` rather than `Synchronization.Mutex`: a
/// Mutex is not recursive (the package's macOS 15 floor would allow one; re-entry is the reason). The connection is
/// also opened with `SQLITE_OPEN_FULLMUTEX`, so a statement finalized from a `deinit` on another
/// thread is still safe. Calls block the calling thread for the duration of one SQLite call (up to
/// the 5 s busy timeout when another process holds the write lock); that is the price of a
/// synchronous API and is fine for a local state file.
///
/// The connection uses WAL journaling, a 5000 ms busy timeout and enforced foreign keys.
///
/// Durability: `synchronous = NORMAL`, so every commit is in the write-ahead log before the call
/// returns and survives the process being killed at any point; a power cut can lose only the most
/// recent commits, never corrupt the file, and never keep a later commit while losing an earlier
/// one (the log is replayed as a checksummed prefix). Writes that must survive a power cut too run
/// inside `synced { }`, whose commits are flushed to disk (fsync) before it returns.
///
/// The write-ahead log stays when the last connection closes (`SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE`):
/// copying it back at every process's exit, then starting a new log at the next one's first write,
/// cost four flushes to disk (about 2 ms of a 1-step `skillbook run`'s 13). It is copied back by the
/// journal (past a few MB, and at a run's end past 1 MiB) and by SQLite's own automatic checkpoint.
/// So the state folder, not the `.sqlite` file alone, is what to copy: the `-wal` file beside it
/// holds the latest commits.
/// Opening never replaces an existing file: a file that is not a database is reported as a
/// `StoreError` of kind `.notADatabase` and left as it is.
public final class Database: @unchecked Sendable {
    /// The database file.
    public let url: URL
    public var path: String { url.path }

    private let handle: OpaquePointer
    private let lock = NSRecursiveLock()
    /// Open savepoints of nested `transaction` calls; guarded by `lock`.
    private var savepointDepth = 0

    /// Opens (creating it and its parent directories when missing) the database at `url`.
    public init(url: URL) throws(StoreError) {
        let path = url.path
        let directory = url.deletingLastPathComponent()
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), !isDirectory.boolValue {
            throw StoreError(
                .cannotOpen,
                message: "state directory \(directory.path) is not a folder (a file of that name is in the way); "
                    + StoreError.anotherStateDirectory,
                path: path)
        }
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw StoreError(
                .cannotOpen,
                message: "cannot create the directory \(directory.path) for state database \(path) "
                    + "(\(error.localizedDescription)); check its permissions or \(StoreError.anotherStateDirectory)",
                path: path)
        }

        var opened: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX
        let rc = sqlite3_open_v2(path, &opened, flags, nil)
        guard rc == SQLITE_OK, let db = opened else {
            let detail = opened.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(rc))
            sqlite3_close_v2(opened)
            throw StoreError.sqlite(code: rc, detail: detail, path: path, operation: "opening")
        }
        sqlite3_extended_result_codes(db, 1)
        sqlite3_busy_timeout(db, 5000)
        skb_sqlite3_keep_log_on_close(db)
        do throws(StoreError) {
            // Reading the header's version: a file that is not a database fails here with
            // SQLITE_NOTADB before anything has been written to it. (Not the schema: switching to
            // WAL next makes SQLite read it again, and parsing it is most of opening's cost.)
            try Self.execWaitingOutLocks(db, "PRAGMA user_version", path: path)
            // SQLite opens a file it may not write read-only without a word: say so before anything relies on writing.
            if sqlite3_db_readonly(db, "main") == 1 {
                throw StoreError.sqlite(code: 8, detail: "no permission to write it", path: path, operation: "opening")
            }
            try Self.execWaitingOutLocks(db, "PRAGMA journal_mode = WAL", path: path)
            try Self.exec(db, "PRAGMA foreign_keys = ON", path: path)
            try Self.exec(db, "PRAGMA synchronous = NORMAL", path: path)
        } catch {
            sqlite3_close_v2(db)
            throw error
        }
        self.url = url
        self.handle = db
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    /// Runs `body` with the connection held by this thread.
    func locked<T, E: Error>(_ body: (OpaquePointer) throws(E) -> T) throws(E) -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(handle)
    }

    /// Writes `text`'s UTF-8 bytes into the blob of `table`.`column` at `row` (made with a
    /// `zeroblob` of their length), a MiB at a time from the text's own storage: SQLite never holds
    /// a copy of the whole, as it does of a value bound to an `INSERT` (it builds the row in memory).
    func writeIncrementally(_ text: String, table: String, column: String, row: Int) throws(StoreError) {
        try locked { (db) throws(StoreError) in
            var blob: OpaquePointer?
            var rc = sqlite3_blob_open(db, "main", table, column, Int64(row), 1, &blob)
            guard rc == SQLITE_OK, let blob else { throw error(rc, "opening the blob of \(table) row \(row)") }
            defer { sqlite3_blob_close(blob) }
            var text = text
            rc = text.withUTF8 { bytes -> Int32 in
                var offset = 0
                while offset < bytes.count {
                    let count = min(1 << 20, bytes.count - offset)
                    let rc = sqlite3_blob_write(blob, bytes.baseAddress! + offset, Int32(count), Int32(offset))
                    if rc != SQLITE_OK { return rc }
                    offset += count
                }
                return SQLITE_OK
            }
            guard rc == SQLITE_OK else { throw error(rc, "writing the blob of \(table) row \(row)") }
        }
    }

    /// The error SQLite reports for `code` on this connection. Call while holding the lock.
    func error(_ code: Int32, _ operation: String) -> StoreError {
        StoreError.sqlite(code: code, detail: String(cString: sqlite3_errmsg(handle)), path: path, operation: operation)
    }

    private static func exec(_ db: OpaquePointer, _ sql: String, path: String) throws(StoreError) {
        var message: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(db, sql, nil, nil, &message)
        defer { sqlite3_free(message) }
        guard rc == SQLITE_OK else {
            let detail = message.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(db))
            throw StoreError.sqlite(code: rc, detail: detail, path: path, operation: "running \(brief(sql))")
        }
    }

    /// Runs `sql`, trying again while another connection holds a lock, for as long as the busy timeout.
    ///
    /// SQLite does not always call the busy handler: switching a new file to WAL, or opening while another
    /// process recovers the WAL index, can report `SQLITE_BUSY` at once where waiting could deadlock. Three
    /// processes opening one new state directory at the same instant meet exactly that; none of them holds
    /// a lock between these statements, so waiting and trying again is safe.
    private static func execWaitingOutLocks(_ db: OpaquePointer, _ sql: String, path: String) throws(StoreError) {
        let deadline = ContinuousClock.now.advanced(by: .seconds(5))
        while true {
            do {
                return try exec(db, sql, path: path)
            } catch where error.kind == .busy && ContinuousClock.now < deadline {
                usleep(5_000)
            }
        }
    }

    /// SQL shortened for a message.
    static func brief(_ sql: String) -> String {
        let oneLine = sql.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .joined(separator: " ")
        return "'" + (oneLine.count > 60 ? oneLine.prefix(57) + "..." : oneLine) + "'"
    }

    // MARK: Statements

    /// Runs one or more SQL statements without parameters (schema changes, pragmas).
    public func execute(_ sql: String) throws(StoreError) {
        try locked { (db) throws(StoreError) in try Self.exec(db, sql, path: path) }
    }

    /// Compiles one SQL statement for repeated use with different parameters.
    public func prepare(_ sql: String) throws(StoreError) -> Statement {
        try locked { (db) throws(StoreError) in
            var statement: OpaquePointer?
            let rc = sqlite3_prepare_v2(db, sql, -1, &statement, nil)
            guard rc == SQLITE_OK, let statement else {
                sqlite3_finalize(statement)
                throw error(rc, "preparing \(Self.brief(sql))")
            }
            return Statement(database: self, pointer: statement, sql: sql)
        }
    }

    /// Runs one statement with `parameters` bound to `?` (or `?NNN`) in order; returns the number of
    /// rows it changed.
    @discardableResult
    public func run(_ sql: String, _ parameters: [SQLValue] = []) throws(StoreError) -> Int {
        try locked { (_) throws(StoreError) in try prepare(sql).run(parameters) }
    }

    /// Runs one query with `parameters` bound in order and returns every row.
    public func query(_ sql: String, _ parameters: [SQLValue] = []) throws(StoreError) -> [Row] {
        try locked { (_) throws(StoreError) in try prepare(sql).query(parameters) }
    }

    /// Whether this connection is inside a transaction (of any thread: take the lock to be sure
    /// it is this thread's).
    public var isInTransaction: Bool {
        locked { sqlite3_get_autocommit($0) == 0 }
    }

    /// The rowid of the last row inserted on this connection.
    public var lastInsertRowID: Int {
        locked { Int(sqlite3_last_insert_rowid($0)) }
    }

    /// Runs `body` with this connection's foreign keys not enforced and deleted content not
    /// overwritten in pages that are freed whole (`secure_delete = FAST`): for pruning, which deletes a
    /// run's rows itself by ranges of indexes (see `RunSeqMigration`) and whose old runs' pages are
    /// freed whole. Both are set back afterwards. SQLite ignores `foreign_keys` inside a transaction,
    /// so outside one only: inside, `body` runs with the connection as it is.
    public func withoutForeignKeys<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        try locked { (db) throws(StoreError) -> T in
            guard sqlite3_get_autocommit(db) != 0 else { return try body() }
            let secureDelete = try query("PRAGMA secure_delete").first?[0].intValue ?? 1
            try Self.exec(db, "PRAGMA foreign_keys = OFF; PRAGMA secure_delete = FAST", path: path)
            defer { try? Self.exec(db, "PRAGMA foreign_keys = ON; PRAGMA secure_delete = \(secureDelete)", path: path) }
            return try body()
        }
    }

    /// Runs `body` with a page cache of at least `kibibytes` KiB (`PRAGMA cache_size`), then sets the
    /// previous size back, which frees what was cached beyond it. SQLite's default (2 MB) is smaller
    /// than the pages a transaction deleting thousands of runs changes: the rest spill to the WAL
    /// before the commit, and each is read back from it and written over its frame when changed
    /// again (100k runs in transactions of 10,000, in `sqlite3`: 4.4 s of CPU with the default
    /// cache, 3.7 s with 128 MB, and half the wall time). The cache grows only as pages are used.
    public func withPageCache<T>(kibibytes: Int, _ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        try locked { (db) throws(StoreError) -> T in
            let previous = try query("PRAGMA cache_size").first?[0].intValue ?? -2000
            // A negative size is in KiB, a positive one in pages (of 4 KiB here).
            let previousKiB = previous < 0 ? -previous : previous * 4
            guard kibibytes > previousKiB else { return try body() }
            try Self.exec(db, "PRAGMA cache_size = -\(kibibytes)", path: path)
            defer { try? Self.exec(db, "PRAGMA cache_size = \(previous)", path: path) }
            return try body()
        }
    }

    // MARK: Transactions

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
    ///
    /// The transaction takes the write lock at its start (`BEGIN IMMEDIATE`), so two processes never
    /// deadlock upgrading read locks. Other threads of this process wait until it ends. Calling
    /// `transaction` inside `body` opens a savepoint that rolls back on its own.
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        lock.lock()
        defer { lock.unlock() }
        if savepointDepth > 0 || sqlite3_get_autocommit(handle) == 0 {
            savepointDepth += 1
            defer { savepointDepth -= 1 }
            let name = "skillbook_\(savepointDepth)"
            try execute("SAVEPOINT \(name)")
            do {
                let result = try body()
                try execute("RELEASE \(name)")
                return result
            } catch {
                try? execute("ROLLBACK TO \(name)")
                try? execute("RELEASE \(name)")
                throw error
            }
        }
        try execute("BEGIN IMMEDIATE")
        let result: T
        do {
            result = try body()
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
        do {
            try execute("COMMIT")
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
        return result
    }

    /// Runs `body` with this connection's commits flushed to disk before they return
    /// (`synchronous = FULL`); other threads wait meanwhile. Flushing a commit also flushes every
    /// commit before it. Inside a transaction (where SQLite cannot change the setting) it only runs
    /// `body`.
    public func synced<T, E: Error>(_ body: () throws(E) -> T) throws -> T {
        lock.lock()
        defer { lock.unlock() }
        guard sqlite3_get_autocommit(handle) != 0 else { return try body() }
        try execute("PRAGMA synchronous = FULL")
        defer { try? execute("PRAGMA synchronous = NORMAL") }
        return try body()
    }

    // MARK: Schema versions

    /// The schema version stored in the file header (`PRAGMA user_version`).
    public func userVersion() throws(StoreError) -> Int {
        try query("PRAGMA user_version").first?[0].intValue ?? 0
    }

    /// Brings the schema up to date: applies, in one transaction, every step of `migrations` whose
    /// index is at or above the stored version, then stores `migrations.count` as the version.
    ///
    /// Steps are only ever appended: step `i` takes a version-`i` schema to version `i + 1`. A file
    /// with a version above `migrations.count` was written by a newer skillbook and is refused.
    ///
    /// An up-to-date file costs one `PRAGMA user_version` read and no transaction (the version is
    /// read again inside the transaction before any step is applied).
    public func migrate(_ migrations: [String]) throws(StoreError) {
        if try userVersion() == migrations.count { return }
        do {
            try transaction {
                let current = try userVersion()
                guard current <= migrations.count else {
                    throw StoreError(
                        .newerSchema,
                        message: "state database \(path) has schema version \(current), newer than this skillbook "
                            + "understands (\(migrations.count)); upgrade skillbook or \(StoreError.anotherStateDirectory)",
                        path: path)
                }
                guard current < migrations.count else { return }
                for step in migrations[current...] {
                    try execute(step)
                }
                try execute("PRAGMA user_version = \(migrations.count)")
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(.other, message: "state database \(path): migration failed (\(error))", path: path)
        }
    }
}
