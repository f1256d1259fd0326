import Foundation
public import SkillbookCore

/// The runs list as pages, the same on every SQL backend: a backend reads rows of `runs` newest
/// first after a cursor, with the filter's conditions in SQL (each on an index); what is put
/// together here is the page (a `running` run whose holder is gone is reported `interrupted`, so a
/// filter on either is finished once the rows are read) and its cursor.
public enum RunPaging {
    /// The stored statuses a reported status can come from: `running` and `interrupted` are told
    /// apart only by looking at the holder.
    public static func storedStatuses(_ status: JournalStatus) -> [String] {
        status == .running || status == .interrupted ? [JournalStatus.running.rawValue, JournalStatus.interrupted.rawValue] : [status.rawValue]
    }

    /// A page of at most `limit` runs; `fetch` reads up to `count` rows after a cursor (all of the
    /// filter's conditions applied but the live status), each run with its own cursor.
    public static func page(
        _ filter: RunFilter, after cursor: RunCursor?, limit: Int,
        fetch: (_ after: RunCursor?, _ count: Int) throws -> [(run: JournalRun, cursor: RunCursor)]
    ) throws -> RunPage {
        let limit = max(0, limit)
        var runs: [JournalRun] = []
        var position = cursor
        var last: RunCursor?
        while true {
            // One row past the page, to know whether there is a next one (no overflow at `Int.max`).
            let count = limit - runs.count == Int.max ? Int.max : limit - runs.count + 1
            let rows = try fetch(position, count)
            for row in rows {
                position = row.cursor
                if let status = filter.status, row.run.status != status { continue }
                // One more than the page holds: there is a next page, after the page's last run.
                if runs.count == limit { return RunPage(runs: runs, next: last) }
                runs.append(row.run)
                last = row.cursor
            }
            if rows.count < count { return RunPage(runs: runs, next: nil) }
        }
    }

    /// The conditions of `filter` (but the live status) and of the cursor as SQL, `started` and the
    /// order column named as given, parameters numbered from `first` with `placeholder` (`?` or
    /// `$`); the statuses as literals, which are this build's own names.
    public static func conditions(
        _ filter: RunFilter, after cursor: RunCursor?, order: String, placeholder: String, first: Int = 1, rowValues: Bool = false
    ) -> (sql: String, parameters: [SQLValue]) {
        var clauses: [String] = []
        var parameters: [SQLValue] = []
        func next(_ value: SQLValue) -> String {
            parameters.append(value)
            return "\(placeholder)\(first + parameters.count - 1)"
        }
        if let playbook = filter.playbook { clauses.append("playbook = \(next(.text(playbook)))") }
        if let status = filter.status {
            let stored = storedStatuses(status)
            clauses.append(
                stored.count == 1 ? "status = '\(stored[0])'" : "status IN (\(stored.map { "'\($0)'" }.joined(separator: ", ")))")
        }
        if let trigger = filter.trigger { clauses.append("trigger = \(next(.text(trigger.rawValue)))") }
        if let from = filter.startedFrom { clauses.append("started >= \(next(.real(from.timeIntervalSince1970)))") }
        if let before = filter.startedBefore { clauses.append("started < \(next(.real(before.timeIntervalSince1970)))") }
        if let cursor {
            // A range on `started` (which every index of `runs` used here ends with), the tie on the order.
            let started = next(.real(cursor.started))
            let position = next(.integer(Int(cursor.order)))
            // PostgreSQL reads a row comparison as one range of an index on (…, started, seq).
            clauses.append(
                rowValues
                    ? "(started, \(order)) < (\(started), \(position))"
                    : "started <= \(started) AND (started < \(started) OR \(order) < \(position))")
        }
        return (clauses.isEmpty ? "" : "WHERE " + clauses.joined(separator: " AND "), parameters)
    }

    /// The upper end of the ids that start with `prefix` (under a byte-wise collation): no run id
    /// holds U+10FFFF.
    public static func prefixEnd(_ prefix: String) -> String { prefix + "\u{10FFFF}" }
}
