public import Foundation
public import SkillbookCore
public import SkillbookSQL

extension PostgresJournal {
    public static let runColumns = """
        id, playbook, file, source_hash, inputs, trigger, status, interrupted, started, finished, pid, host, boot,
        process_start, heartbeat, error, outputs, scheduled_at, epoch, worker, queued, workspace,
        (lease_expires IS NOT NULL AND lease_expires < extract(epoch from clock_timestamp())) AS lease_lapsed,
        extract(epoch from clock_timestamp()) - heartbeat AS beat_age
        """

    public func runs(playbook: String? = nil, status: JournalStatus? = nil, limit: Int = 20) throws -> [JournalRun] {
        try runs(RunFilter(playbook: playbook, status: status), after: nil, limit: limit).runs
    }

    /// A page of runs newest first after `cursor`: a range of an index ending with (started, seq).
    public func runs(_ filter: RunFilter, after cursor: RunCursor?, limit: Int) throws -> RunPage {
        try RunPaging.page(filter, after: cursor, limit: limit) { after, count in
            let (sql, parameters) = Self.pageQuery(filter, after: after, count: count)
            let rows = try database.query(sql, parameters, doing: "listing runs")
            return try rows.map { row in
                (try journalRun(row), RunCursor(started: row.double("started") ?? 0, order: Int64(row.int("ord") ?? 0)))
            }
        }
    }

    /// The newest run of each playbook: one indexed read per playbook named in `run_counts`.
    public func latestRuns() throws -> [JournalRun] {
        let rows = try database.query(Self.latestQuery, doing: "reading the latest run of each playbook")
        return try rows.map { try journalRun($0) }
    }

    /// The statement of one page of the runs list (public for the tests of its query plan).
    public static func pageQuery(_ filter: RunFilter, after cursor: RunCursor?, count: Int) -> (sql: String, parameters: [SQLValue]) {
        let (conditions, parameters) = RunPaging.conditions(filter, after: cursor, order: "seq", placeholder: "$", rowValues: true)
        return ("SELECT seq AS ord, \(runColumns) FROM runs \(conditions) ORDER BY started DESC, seq DESC LIMIT \(count)", parameters)
    }

    /// The statement of `latestRuns`.
    public static let latestQuery = """
        SELECT latest.* FROM run_counts AS counts CROSS JOIN LATERAL (
            SELECT \(runColumns) FROM runs WHERE runs.playbook = counts.playbook ORDER BY started DESC, seq DESC LIMIT 1
        ) AS latest
        WHERE counts.runs > 0 ORDER BY counts.playbook
        """

    /// The statement of `resolveRunID`: $1 the prefix, $2 `RunPaging.prefixEnd` of it.
    /// Newest first, as the ambiguity message names them.
    public static let prefixQuery = """
        SELECT id, playbook FROM (
            SELECT id, playbook, started, seq FROM runs WHERE id COLLATE "C" >= $1 AND id COLLATE "C" < $2 ORDER BY id COLLATE "C" LIMIT 6
        ) AS found ORDER BY started DESC, seq DESC
        """

    public func run(_ id: String) throws -> JournalRun? {
        try database.query("SELECT \(Self.runColumns) FROM runs WHERE id = $1", [.text(id)], doing: "reading run \(id)").first
            .map { try journalRun($0) }
    }

    public func resolveRunID(_ prefix: String) throws -> String {
        try JournalRows.resolveRunID(prefix, in: location) { prefix in
            // A range of `runs_by_id_bytes`.
            try database.query(Self.prefixQuery, [.text(prefix), .text(RunPaging.prefixEnd(prefix))], doing: "finding run \(prefix)")
        }
    }

    public func calls(of runID: String) throws -> [JournalCall] {
        try calls(of: runID, excludingSkills: [])
    }

    /// The attempts of a run's calls of skills other than `excludedSkills`, in order of starting.
    public func calls(of runID: String, excludingSkills excludedSkills: Set<String>) throws -> [JournalCall] {
        let excluded = excludedSkills.isEmpty ? "" : " AND skill NOT IN (SELECT json_array_elements_text($2::json))"
        let rows = try database.query(
            "SELECT \(Self.callColumns) FROM calls WHERE run_seq = \(PostgresRunSeq.of("$1"))\(excluded) ORDER BY id",
            [.text(runID)] + (excludedSkills.isEmpty ? [] : [.text(JSONText.encode(.array(excludedSkills.sorted().map(Value.string))))]),
            doing: "reading the calls of run \(runID)")
        return try rows.map { row in try journalCall(row, of: runID) }
    }

    /// At most `limit` attempts of a run's calls in order of starting, after the row `position`: a
    /// range of `calls_by_run_id`.
    public func calls(of runID: String, after position: Int64?, limit: Int) throws -> CallPage {
        let size = max(1, limit)
        let rows = try callPageRows(of: runID, after: position, size: size)
        let calls = try rows.map { row in try journalCall(row, of: runID) }
        let last = rows.last.flatMap { $0.int("id") }.map(Int64.init)
        return CallPage(calls: calls, next: rows.count < size ? nil : last)
    }

    /// The same page as `calls(of:after:limit:)`, the parameters and outputs as stored.
    public func storedCalls(of runID: String, after position: Int64?, limit: Int) throws -> StoredCallPage {
        let size = max(1, limit)
        let rows = try callPageRows(of: runID, after: position, size: size)
        let calls = try JournalRows.storedCalls(
            rows, decode: { (text, what) throws(PostgresError) in try decoded(text, what) }, malformed: { malformed($0, of: runID) })
        let last = rows.last.flatMap { $0.int("id") }.map(Int64.init)
        return StoredCallPage(calls: calls, next: rows.count < size ? nil : last)
    }

    static let callColumns = "id, step, iteration, batch, skill, attempt, parameters, output, error, started, finished, compensated, seq, masked"

    /// The statement of one page of a run's calls: $1 the run, $2 the last row read, $3 the page's size.
    /// The run's rows are bounded as a range of `(run_seq, id)` and ordered so, not as `run_seq = …`
    /// ordered by `id`: then only `calls_by_run_seq_id` gives the order. With an equality the planner
    /// knows `run_seq` is one value, and when its statistics say a run has many calls (a journal of a
    /// few big runs) it walks the primary key in `id` order and filters on the run: 200,000 rows
    /// read for a run of one call (92 ms).
    public static let callPageQuery = """
        SELECT \(callColumns) FROM calls
        WHERE (run_seq, id) > (\(PostgresRunSeq.of("$1")), $2) AND (run_seq, id) < (\(PostgresRunSeq.of("$1")) + 1, 0)
        ORDER BY run_seq, id LIMIT $3
        """

    /// What a page of calls is read with, for its transaction alone: no bitmap scan, no sort (whole or
    /// incremental, which the index on `run_seq` alone would need). The
    /// statistics of a run that has just written its calls (before autovacuum's `ANALYZE`) say it has
    /// a hundred, and PostgreSQL then reads all of the run's calls after the page's start and sorts
    /// them, for every page: 100,000 calls took 1.9 s, and the cost grew with the square of the run.
    /// Read in the order of `calls_by_run_seq_id`, a page costs its own size whatever the statistics.
    public static let callPageSettings = """
        SELECT set_config('enable_bitmapscan', 'off', true), set_config('enable_sort', 'off', true),
            set_config('enable_incremental_sort', 'off', true)
        """

    private func callPageRows(of runID: String, after position: Int64?, size: Int) throws -> [Row] {
        try database.transaction(doing: "reading the calls of run \(runID)") { transaction in
            try transaction.query(Self.callPageSettings)
            return try transaction.query(Self.callPageQuery, [.text(runID), .integer(Int(position ?? 0)), .integer(size)])
        }
    }

    private func journalCall(_ row: Row, of runID: String) throws -> JournalCall {
        guard let step = row.string("step"), let skill = row.string("skill"), let attempt = row.int("attempt"),
            let started = row.double("started"), let order = row.int("seq"),
            case .object(let parameters)? = try decode(row.string("parameters"), "call parameters")
        else { throw malformed("call", of: runID) }
        return JournalCall(
            key: CallKey(step: StepPath(parsing: step), iteration: row.int("iteration"), batch: row.int("batch")), skill: skill, attempt: attempt,
            parameters: parameters, output: try decode(row.string("output"), "call output"), error: row.string("error"),
            started: Date(timeIntervalSince1970: started), finished: row.double("finished").map(Date.init(timeIntervalSince1970:)),
            compensated: row.int("compensated") == 1, order: order, outputMasked: row.int("masked") == 1)
    }

    public func steps(of runID: String) throws -> [JournalStep] {
        let rows = try database.query(
            "SELECT step, status, output, error, finished, masked FROM steps WHERE run_seq = \(PostgresRunSeq.of("$1")) ORDER BY id", [.text(runID)],
            doing: "reading the steps of run \(runID)")
        return try rows.map { row in
            guard let step = row.string("step"), let status = row.string("status").flatMap(StepStatus.init(rawValue:)),
                let finished = row.double("finished")
            else { throw malformed("step", of: runID) }
            return JournalStep(
                step: step, status: status, output: try decode(row.string("output"), "step output"), error: row.string("error"),
                finished: Date(timeIntervalSince1970: finished), outputMasked: row.int("masked") == 1)
        }
    }

    public func compensations(of runID: String) throws -> [JournalCompensation] {
        let rows = try database.query(
            "SELECT step, iteration, batch, error, finished FROM compensations WHERE run = $1 ORDER BY id", [.text(runID)],
            doing: "reading the compensations of run \(runID)")
        return try rows.map { row throws(PostgresError) in try JournalRows.compensation(row) { malformed("compensation", of: runID) } }
    }

    public func sessions(of runID: String) throws -> [JournalSession] {
        let rows = try database.query(
            "SELECT kind, pid, host, started, ended, outcome, trigger FROM sessions WHERE run_seq = \(PostgresRunSeq.of("$1")) ORDER BY id", [.text(runID)],
            doing: "reading the sessions of run \(runID)")
        return try rows.map { row throws(PostgresError) in try JournalRows.session(row) { malformed("session", of: runID) } }
    }

    public func source(of runID: String) throws -> String {
        try database.query("SELECT source FROM runs WHERE id = $1", [.text(runID)]).first?.string("source") ?? ""
    }

    /// One statement where the generic reading takes two.
    public func runWithSource(_ runID: String, withReport: Bool) throws -> (run: JournalRun, source: String, report: Value?)? {
        let report = withReport ? "report" : "NULL AS report"
        guard
            let row = try database.query(
                "SELECT \(Self.runColumns), source, \(report) FROM runs WHERE id = $1", [.text(runID)], doing: "reading run \(runID)"
            ).first
        else { return nil }
        return (try journalRun(row), row.string("source") ?? "", try decode(row.string("report"), "run report"))
    }

    public func sourceAndReport(of runID: String) throws -> (source: String, report: Value?) {
        let row = try database.query("SELECT source, report FROM runs WHERE id = $1", [.text(runID)]).first
        return (row?.string("source") ?? "", try decode(row?.string("report"), "run report"))
    }

    public func waits(of runID: String) throws -> [JournalWait] {
        let rows = try database.query(
            "SELECT step, resources, held_by, started, ended, outcome FROM resource_waits WHERE run = $1 ORDER BY id", [.text(runID)],
            doing: "reading the waits of run \(runID)")
        return try rows.map { row throws(PostgresError) in
            try JournalRows.wait(row, decode: decode) { malformed("resource wait", of: runID) }
        }
    }

    public func oldestRunStart() throws -> Date? {
        try database.query("SELECT min(started) AS m FROM runs").first?.double("m").map(Date.init(timeIntervalSince1970:))
    }

    /// How many runs the journal holds, from `run_counts` (kept by statement triggers on `runs`).
    public func runCount() throws -> Int {
        try database.query(Self.runCountQuery, doing: "counting runs").first?.int("runs") ?? 0
    }

    static let runCountQuery = "SELECT coalesce(sum(runs), 0)::bigint AS runs FROM run_counts"

    // MARK: Rows

    /// A row of `runColumns` as reported: a `running` run whose holder is gone (same host) or
    /// whose lease lapsed is `interrupted`.
    func journalRun(_ row: Row) throws(PostgresError) -> JournalRun {
        try JournalRows.run(row, decode: decode, malformed: { malformed($0, of: $1) }) { stored, holder in
            liveStatus(stored: stored, holder: holder, row: row)
        }
    }

    private func liveStatus(stored: String, holder: ProcessIdentity?, row: Row) -> (JournalStatus, String?) {
        if stored == "queued" { return (.queued, nil) }
        guard let status = JournalStatus(rawValue: stored) else { return (.interrupted, "unknown status '\(stored)'") }
        guard status == .running else { return (status, nil) }
        guard let holder else { return (.interrupted, "no process holds it") }
        if case .gone(let reason) = probe.state(holder) { return (.interrupted, reason) }
        if row.int("lease_lapsed") == 1 {
            let age = row.double("beat_age").map { " for \(Int($0.rounded())) s" } ?? ""
            return (.interrupted, "its lease expired: no heartbeat from process \(holder.pid) on \(holder.host)\(age)")
        }
        return (.running, nil)
    }

    func malformed(_ what: String, of runID: String?) -> PostgresError { .malformed(what, of: runID, in: location) }
}
