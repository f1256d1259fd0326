internal import CSQLite
import Foundation
public import SkillbookSQL

/// A compiled statement of a `Database`.
///
/// Not `Sendable`: use it from the task that prepared it. Each call holds the database's lock, so
/// other tasks may use the same database meanwhile.
public final class Statement {
    public let sql: String
    private let database: Database
    private let pointer: OpaquePointer
    private let columnNames: [String]

    init(database: Database, pointer: OpaquePointer, sql: String) {
        self.database = database
        self.pointer = pointer
        self.sql = sql
        self.columnNames = (0..<sqlite3_column_count(pointer)).map { index in
            sqlite3_column_name(pointer, index).map { String(cString: $0) } ?? ""
        }
    }

    deinit {
        let pointer = self.pointer
        database.locked { _ in _ = sqlite3_finalize(pointer) }
    }

    /// Runs the statement with `parameters`; returns the number of rows it changed.
    @discardableResult
    public func run(_ parameters: [SQLValue] = []) throws(StoreError) -> Int {
        try database.locked { (db) throws(StoreError) in
            try withBindings(parameters) { () throws(StoreError) -> Int in
                while try stepRow() != nil {}
                return Int(sqlite3_changes(db))
            }
        }
    }

    /// Runs the statement with `parameters` and returns every row.
    public func query(_ parameters: [SQLValue] = []) throws(StoreError) -> [Row] {
        try database.locked { (_) throws(StoreError) in
            try withBindings(parameters) { () throws(StoreError) -> [Row] in
                var rows: [Row] = []
                while let row = try stepRow() { rows.append(row) }
                return rows
            }
        }
    }

    /// Resets the statement and binds `parameters` to `?1`, `?2`, … in order (SQLite keeps copies
    /// of texts and blobs: later `step` calls may use them).
    public func bind(_ parameters: [SQLValue]) throws(StoreError) {
        try database.locked { (_) throws(StoreError) in
            try resetBindings(count: parameters.count)
            for (offset, value) in parameters.enumerated() { try bind(value, at: offset) }
        }
    }

    /// Texts and blobs at least this long are bound in place by `run` and `query`: SQLite reads
    /// the value's own bytes while the statement steps, rather than a copy (a 30 MB text is
    /// copied once more into the row SQLite writes; a second copy at binding made it three).
    static let inPlaceBytes = 64 * 1024

    /// Binds `parameters` (the long texts and blobs in place), runs `body`, then resets the
    /// statement and clears its bindings, so that no binding outlives the value it points into.
    private func withBindings<T>(_ parameters: [SQLValue], _ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        try resetBindings(count: parameters.count)
        defer {
            sqlite3_reset(pointer)
            sqlite3_clear_bindings(pointer)
        }
        return try bindInPlace(parameters, from: 0, body)
    }

    /// Binds `parameters[start...]`, each long one inside the closure that lends its bytes, and
    /// runs `body` innermost, while every lent pointer is valid.
    private func bindInPlace<T>(
        _ parameters: [SQLValue], from start: Int, _ body: () throws(StoreError) -> T
    ) throws(StoreError) -> T {
        var offset = start
        while offset < parameters.count {
            let index = Int32(offset + 1)
            let next = offset + 1
            switch parameters[offset] {
            case .text(let text) where text.utf8.count >= Self.inPlaceBytes:
                let length = Int32(clamping: text.utf8.count)
                let result = text.withCString { (bytes) -> Result<T, StoreError> in
                    Result { () throws(StoreError) -> T in
                        try check(sqlite3_bind_text(pointer, index, bytes, length, nil), index)
                        return try bindInPlace(parameters, from: next, body)
                    }
                }
                return try result.get()
            case .blob(let data) where data.count >= Self.inPlaceBytes:
                let result = data.withUnsafeBytes { (bytes) -> Result<T, StoreError> in
                    Result { () throws(StoreError) -> T in
                        try check(sqlite3_bind_blob(pointer, index, bytes.baseAddress, Int32(clamping: bytes.count), nil), index)
                        return try bindInPlace(parameters, from: next, body)
                    }
                }
                return try result.get()
            case let value:
                try bind(value, at: offset)
            }
            offset = next
        }
        return try body()
    }

    /// Resets the statement, clears its bindings and checks that it takes `count` parameters.
    private func resetBindings(count: Int) throws(StoreError) {
        sqlite3_reset(pointer)
        sqlite3_clear_bindings(pointer)
        let expected = Int(sqlite3_bind_parameter_count(pointer))
        guard count == expected else {
            throw StoreError(
                .other,
                message: "state database \(database.path): \(Database.brief(sql)) takes \(expected) "
                    + "parameter(s), got \(count)",
                path: database.path)
        }
    }

    /// Binds one value to `?offset+1`, SQLite keeping its own copy of a text or blob.
    private func bind(_ value: SQLValue, at offset: Int) throws(StoreError) {
        let index = Int32(offset + 1)
        let rc: Int32
        switch value {
        case .null:
            rc = sqlite3_bind_null(pointer, index)
        case .integer(let i):
            rc = sqlite3_bind_int64(pointer, index, Int64(i))
        case .real(let d):
            rc = sqlite3_bind_double(pointer, index, d)
        case .text(let s):
            let length = Int32(clamping: s.utf8.count)
            rc = s.withCString { sqlite3_bind_text(pointer, index, $0, length, SQLITE_TRANSIENT) }
        case .blob(let data):
            if data.isEmpty {
                rc = sqlite3_bind_zeroblob(pointer, index, 0)
            } else {
                rc = data.withUnsafeBytes { bytes in
                    sqlite3_bind_blob(pointer, index, bytes.baseAddress, Int32(clamping: bytes.count), SQLITE_TRANSIENT)
                }
            }
        }
        try check(rc, index)
    }

    private func check(_ rc: Int32, _ index: Int32) throws(StoreError) {
        guard rc == SQLITE_OK else { throw database.error(rc, "binding parameter \(index) of \(Database.brief(sql))") }
    }

    /// Advances to the next row; `nil` when the statement has finished.
    public func step() throws(StoreError) -> Row? {
        try database.locked { (_) throws(StoreError) in try stepRow() }
    }

    /// Call while holding the database lock.
    private func stepRow() throws(StoreError) -> Row? {
        let rc = sqlite3_step(pointer)
        switch rc {
        case SQLITE_ROW:
            return Row(columns: columnNames, values: (0..<Int32(columnNames.count)).map(column))
        case SQLITE_DONE:
            return nil
        default:
            let error = database.error(rc, "running \(Database.brief(sql))")
            sqlite3_reset(pointer)
            throw error
        }
    }

    private func column(_ index: Int32) -> SQLValue {
        switch sqlite3_column_type(pointer, index) {
        case SQLITE_INTEGER:
            return .integer(Int(sqlite3_column_int64(pointer, index)))
        case SQLITE_FLOAT:
            return .real(sqlite3_column_double(pointer, index))
        case SQLITE_TEXT:
            guard let text = sqlite3_column_text(pointer, index) else { return .text("") }
            let count = Int(sqlite3_column_bytes(pointer, index))
            return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(pointer, index))
            guard count > 0, let bytes = sqlite3_column_blob(pointer, index) else { return .blob(Data()) }
            return .blob(Data(bytes: bytes, count: count))
        default:
            return .null
        }
    }
}
