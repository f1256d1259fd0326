internal import CPostgres
import Foundation
import SkillbookSQL

/// One libpq connection. Not thread-safe: `PostgresDatabase` lends it to one caller at a time
/// (hence `@unchecked Sendable`: it moves between threads, never shared by two at once).
///
/// Statements are always sent with `PQexecParams`: values travel as parameters (`$1`, `$2`…),
/// never inside the SQL text. Text values are sent untyped (the server infers their type from the
/// statement), integers as `int8`, reals as `float8`; a NULL whose type the statement does not fix
/// needs a cast in the SQL (`$1::text IS NULL`). Results come back as text and are read by column
/// type: integers and booleans (1/0) as `.integer`, floats and numerics as `.real`, the rest as `.text`.
final class PostgresConnection: @unchecked Sendable {
    let location: PostgresURL
    private let handle: OpaquePointer

    /// Connects (libpq's blocking connect, with a 10 s timeout unless the string sets one). libpq
    /// is loaded here, on the first connection of the process; without it this throws a
    /// `.connection` error naming the package to install.
    init(_ location: PostgresURL) throws(PostgresError) {
        self.location = location
        if let missing = skb_pq_load() {
            throw PostgresError(.connection, message: "cannot connect to state database \(location): \(String(cString: missing))")
        }
        // `dbname` holding a URL is expanded by libpq and overrides the keywords before it. Notices
        // (a shutdown's "terminating connection", `IF NOT EXISTS`) are not for the person at the
        // terminal: the server is asked not to send them (set at the connection's start, no
        // statement of its own) and the notice processor drops any that still come.
        let keywords = ["connect_timeout", "application_name", "options", "dbname"]
        let values = ["10", "skillbook", "-c client_min_messages=warning", location.connectionString]
        let connection = withCStrings(keywords) { keys in
            withCStrings(values) { vals in skb_pq_connectdb_params(keys, vals, 1) }
        }
        guard let connection else {
            throw PostgresError(.connection, message: "cannot connect to state database \(location): out of memory")
        }
        guard skb_pq_status(connection) == CONNECTION_OK else {
            let detail = location.scrub(String(cString: skb_pq_error_message(connection)).trimmingCharacters(in: .whitespacesAndNewlines))
            skb_pq_finish(connection)
            throw PostgresError(
                .connection,
                message: "cannot connect to state database \(location) (\(detail)); check that the server runs and the "
                    + "connection string is right, or pass --state DIR to use a local state directory",
                serverMessage: detail)
        }
        handle = connection
        skb_pq_set_notice_processor(connection, { _, _ in }, nil)
    }

    deinit { skb_pq_finish(handle) }

    /// The connection broke (the server restarted, the network dropped): it must not be reused.
    var isBroken: Bool { skb_pq_status(handle) != CONNECTION_OK }

    /// The socket, for waiting on notifications.
    var socket: Int32 { skb_pq_socket(handle) }

    /// Runs one statement with `parameters` bound to `$1`, `$2`…; returns its rows (none for a
    /// command) and the number of rows it changed.
    @discardableResult
    func query(_ sql: String, _ parameters: [SQLValue] = [], doing operation: String = "a query") throws(PostgresError) -> (rows: [Row], changed: Int) {
        let texts: [String?] = parameters.map(Self.text)
        let types: [UInt32] = parameters.map(Self.type)
        let result: OpaquePointer? = withOptionalCStrings(texts) { values in
            types.withUnsafeBufferPointer { oids in
                skb_pq_exec_params(handle, sql, Int32(parameters.count), oids.baseAddress, values, nil, nil, 0)
            }
        }
        guard let result else {
            throw PostgresError(
                .connection, message: "state database \(location): \(operation) failed: \(errorText()); check that the server runs")
        }
        defer { skb_pq_clear(result) }
        switch skb_pq_result_status(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY:
            return (Self.rows(result), Int(String(cString: skb_pq_cmd_tuples(result))) ?? 0)
        default:
            let state = skb_pq_result_error_field(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
            let primary = skb_pq_result_error_field(result, Int32(UInt8(ascii: "M"))).map { String(cString: $0) }
            if isBroken {
                throw PostgresError(
                    .connection, message: "state database \(location): \(operation) failed: the connection was lost "
                        + "(\(location.scrub(primary ?? errorText()))); check that the server runs, then try again",
                    sqlState: state, serverMessage: primary)
            }
            throw PostgresError.server(state, primary ?? errorText(), location: location, doing: operation)
        }
    }

    /// Runs several statements without parameters (migrations); no rows.
    func execute(script sql: String, doing operation: String) throws(PostgresError) {
        guard let result = skb_pq_exec(handle, sql) else {
            throw PostgresError(.connection, message: "state database \(location): \(operation) failed: \(errorText())")
        }
        defer { skb_pq_clear(result) }
        let status = skb_pq_result_status(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK || status == PGRES_EMPTY_QUERY else {
            let state = skb_pq_result_error_field(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
            let primary = skb_pq_result_error_field(result, Int32(UInt8(ascii: "M"))).map { String(cString: $0) }
            throw PostgresError.server(state, primary ?? errorText(), location: location, doing: operation)
        }
    }

    // MARK: Notifications

    /// Reads what the server sent and returns the notifications received (channel, payload).
    func notifications() -> [(channel: String, payload: String)] {
        guard skb_pq_consume_input(handle) == 1 else { return [] }
        var received: [(String, String)] = []
        while let notify = skb_pq_notifies(handle) {
            received.append((String(cString: notify.pointee.relname), String(cString: notify.pointee.extra)))
            skb_pq_freemem(notify)
        }
        return received
    }

    // MARK: Values

    private func errorText() -> String {
        location.scrub(String(cString: skb_pq_error_message(handle)).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    private static func text(_ value: SQLValue) -> String? {
        switch value {
        case .null: nil
        case .integer(let int): String(int)
        case .real(let real): real.isFinite ? "\(real)" : (real.isNaN ? "NaN" : (real > 0 ? "Infinity" : "-Infinity"))
        case .text(let text): text
        case .blob(let data): "\\x" + data.map { String(format: "%02x", $0) }.joined()
        }
    }

    /// Type oids: int8 20, float8 701, bytea 17; text and NULL untyped (0), so the server infers them.
    private static func type(_ value: SQLValue) -> UInt32 {
        switch value {
        case .integer: 20
        case .real: 701
        case .blob: 17
        case .null, .text: 0
        }
    }

    private static func rows(_ result: OpaquePointer) -> [Row] {
        let count = Int(skb_pq_ntuples(result))
        let fields = Int(skb_pq_nfields(result))
        guard fields > 0 else { return [] }
        let names = (0..<fields).map { String(cString: skb_pq_fname(result, Int32($0))) }
        let types = (0..<fields).map { skb_pq_ftype(result, Int32($0)) }
        var rows: [Row] = []
        rows.reserveCapacity(count)
        for row in 0..<count {
            var values: [SQLValue] = []
            values.reserveCapacity(fields)
            for column in 0..<fields {
                if skb_pq_getisnull(result, Int32(row), Int32(column)) == 1 {
                    values.append(.null)
                    continue
                }
                let text = String(cString: skb_pq_getvalue(result, Int32(row), Int32(column)))
                switch types[column] {
                case 16: values.append(.integer(text == "t" ? 1 : 0))
                case 20, 21, 23, 26: values.append(Int(text).map(SQLValue.integer) ?? .text(text))
                case 700, 701, 1700: values.append(Double(text).map(SQLValue.real) ?? .text(text))
                default: values.append(.text(text))
                }
            }
            rows.append(Row(columns: names, values: values))
        }
        return rows
    }
}

/// Calls `body` with a NULL-terminated-free array of C strings (one per element) that live for the call.
private func withCStrings<T>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> T) -> T {
    withOptionalCStrings(strings.map { Optional($0) }) { pointers in
        var terminated = Array(UnsafeBufferPointer(start: pointers, count: strings.count))
        terminated.append(nil)
        return terminated.withUnsafeBufferPointer { body($0.baseAddress!) }
    }
}

/// Calls `body` with one C string per element (NULL for `nil`), valid for the call. Each is lent by
/// `withCString`, which gives a native string's own NUL-terminated bytes: a 50 MB parameter is not
/// copied on its way to libpq (which copies it once, into the message it sends).
private func withOptionalCStrings<T>(_ strings: [String?], _ body: (UnsafePointer<UnsafePointer<CChar>?>?) -> T) -> T {
    guard !strings.isEmpty else { return body(nil) }
    var pointers = [UnsafePointer<CChar>?](repeating: nil, count: strings.count)
    func lend(from index: Int) -> T {
        guard index < strings.count else { return pointers.withUnsafeBufferPointer { body($0.baseAddress) } }
        guard let string = strings[index] else { return lend(from: index + 1) }
        return string.withCString { pointer in
            pointers[index] = pointer
            return lend(from: index + 1)
        }
    }
    return lend(from: 0)
}
