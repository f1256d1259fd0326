public import Foundation
public import SkillbookCore
public import SkillbookSQL

extension SQLiteJournal {
    public static let runColumns = """
        id, playbook, file, source_hash, inputs, trigger, status, interrupted, started, finished, pid, host, boot,
        process_start, heartbeat, error, outputs, scheduled_at, workspace
        """

    /// Runs newest first, optionally only of one playbook or in one status (as reported: `interrupted`
    /// finds the runs whose process died), at most `limit`.
    public func runs(playbook: String? = nil, status: JournalStatus? = nil, limit: Int = 20) throws -> [JournalRun] {
        try runs(RunFilter(playbook: playbook, status: status), after: nil, limit: limit).runs
    }

    /// A page of runs newest first after `cursor`: a range of `runs_by_started`, or of the index
    /// of the filter's playbook, status or trigger (each ends with `started`, then the rowid).
    public func runs(_ filter: RunFilter, after cursor: RunCursor?, limit: Int) throws -> RunPage {
        let now = clock.now()
        return try RunPaging.page(filter, after: cursor, limit: limit) { after, count in
            let (sql, parameters) = Self.pageQuery(filter, after: after, count: count)
            let rows = try query(sql, parameters)
            return try rows.map { row throws(StoreError) in
                (try journalRun(row, now: now), RunCursor(started: row.double("started") ?? 0, order: Int64(row.int("ord") ?? 0)))
            }
        }
    }

    /// The newest run of each playbook: one indexed read per playbook named in `run_counts`.
    public func latestRuns() throws -> [JournalRun] {
        let now = clock.now()
        return try query(Self.latestQuery).map { row throws(StoreError) in try journalRun(row, now: now) }
    }

    /// The statement of one page of the runs list (public for the tests of its query plan).
    public static func pageQuery(_ filter: RunFilter, after cursor: RunCursor?, count: Int) -> (sql: String, parameters: [SQLValue]) {
        let (conditions, parameters) = RunPaging.conditions(filter, after: cursor, order: "rowid", placeholder: "?")
        return ("SELECT rowid AS ord, \(runColumns) FROM runs \(conditions) ORDER BY started DESC, rowid DESC LIMIT \(count)", parameters)
    }

    /// The statement of `latestRuns`.
    public static let latestQuery = """
        SELECT \(runColumns) FROM runs WHERE rowid IN (
            SELECT (SELECT rowid FROM runs AS latest WHERE latest.playbook = counts.playbook ORDER BY started DESC, rowid DESC LIMIT 1)
            FROM run_counts AS counts WHERE counts.runs > 0)
        ORDER BY playbook
        """

    /// The statement of `resolveRunID`: ?1 the prefix, ?2 `RunPaging.prefixEnd` of it.
    /// Newest first, as the ambiguity message names them.
    public static let prefixQuery = """
        SELECT id, playbook FROM (SELECT id, playbook, started FROM runs WHERE id >= ?1 AND id < ?2 ORDER BY id LIMIT 6)
        ORDER BY started DESC
        """

    /// The run with this id, if there is one.
    public func run(_ id: String) throws(StoreError) -> JournalRun? {
        try query("SELECT \(Self.runColumns) FROM runs WHERE id = ?1", [.text(id)]).first.map { row throws(StoreError) in
            try journalRun(row, now: clock.now())
        }
    }

    /// The full id of the run whose id is or starts with `prefix`.
    public func resolveRunID(_ prefix: String) throws -> String {
        try JournalRows.resolveRunID(prefix, in: database.path) { prefix in
            // A range of the primary key's index.
            try query(Self.prefixQuery, [.text(prefix), .text(RunPaging.prefixEnd(prefix))])
        }
    }

    /// Every attempt of every call of a run, in order of starting.
    public func calls(of runID: String) throws(StoreError) -> [JournalCall] {
        try calls(of: runID, excludingSkills: [])
    }

    /// The attempts of a run's calls of skills other than `excludedSkills`, in order of starting.
    public func calls(of runID: String, excludingSkills excludedSkills: Set<String>) throws(StoreError) -> [JournalCall] {
        let excluded = excludedSkills.isEmpty ? "" : " AND skill NOT IN (SELECT value FROM json_each(?2))"
        let rows = try query(
            """
            SELECT \(Self.callColumns) FROM call_attempts WHERE id IN (SELECT id FROM calls WHERE run_seq = \(RunSeq.of("?1")))\(excluded)
            ORDER BY id
            """,
            [.text(runID)] + (excludedSkills.isEmpty ? [] : [.text(JSONText.encode(.array(excludedSkills.sorted().map(Value.string))))]))
        var calls: [JournalCall] = []
        calls.reserveCapacity(rows.count)
        for row in rows { calls.append(try journalCall(row, of: runID)) }
        return calls
    }

    /// At most `limit` attempts of a run's calls in order of starting, after `position`: a range of
    /// `calls_by_run_seq` (the run's `seq`, then `calls.seq`). A call's row takes the run's next `seq` when it is
    /// inserted, so within a run `calls.seq` goes in the order of the rows, as the ids do (a result
    /// stored apart in `call_results` has its own `seq`, the order of finishing that `JournalCall.order`
    /// reports). Paging by it needs no index beyond the one every insert already keeps.
    public func calls(of runID: String, after position: Int64?, limit: Int) throws(StoreError) -> CallPage {
        let size = max(1, limit)
        let rows = try query(Self.callPageQuery, [.text(runID), .integer(Int(position ?? 0)), .integer(size)])
        var calls: [JournalCall] = []
        calls.reserveCapacity(rows.count)
        for row in rows { calls.append(try journalCall(row, of: runID)) }
        let last = rows.last.flatMap { $0.int("position") }.map(Int64.init)
        return CallPage(calls: calls, next: rows.count < size ? nil : last)
    }

    /// The same page as `calls(of:after:limit:)`, the parameters and outputs as stored.
    public func storedCalls(of runID: String, after position: Int64?, limit: Int) throws(StoreError) -> StoredCallPage {
        let size = max(1, limit)
        let rows = try query(Self.callPageQuery, [.text(runID), .integer(Int(position ?? 0)), .integer(size)])
        let calls = try JournalRows.storedCalls(
            rows, decode: { (text, what) throws(StoreError) in try decoded(text, what) }, malformed: { malformed($0, of: runID) })
        let last = rows.last.flatMap { $0.int("position") }.map(Int64.init)
        return StoredCallPage(calls: calls, next: rows.count < size ? nil : last)
    }

    static let callColumns = "id, step, iteration, batch, skill, attempt, parameters, output, error, started, finished, compensated, seq, masked"

    /// The statement of one page of a run's calls: ?1 the run, ?2 the `calls.seq` of the last row
    /// read, ?3 the page's size. `call_attempts` with its `calls.seq` as `position`.
    public static let callPageQuery = """
        SELECT c.seq AS position, c.id, c.step, c.iteration, c.batch, c.skill, c.attempt, c.parameters, c.started, c.compensated,
            CASE WHEN r.call IS NULL THEN c.output ELSE r.output END AS output,
            CASE WHEN r.call IS NULL THEN c.error ELSE r.error END AS error,
            CASE WHEN r.call IS NULL THEN c.finished ELSE r.finished END AS finished,
            CASE WHEN r.call IS NULL THEN c.masked ELSE r.masked END AS masked,
            CASE WHEN r.call IS NULL THEN c.seq ELSE r.seq END AS seq
        FROM calls c LEFT JOIN call_results r ON r.call = c.id
        WHERE c.run_seq = \(RunSeq.of("?1")) AND c.seq > ?2 ORDER BY c.seq LIMIT ?3
        """

    private func journalCall(_ row: Row, of runID: String) throws(StoreError) -> JournalCall {
        guard let step = row.string("step"), let skill = row.string("skill"), let attempt = row.int("attempt"),
            let started = row.double("started"), let order = row.int("seq")
        else { throw malformed("call", of: runID) }
        let parameters = try decode(row.string("parameters"), "call parameters")
        guard case .object(let object)? = parameters else { throw malformed("call parameters", of: runID) }
        return JournalCall(
            key: CallKey(step: StepPath(parsing: step), iteration: row.int("iteration"), batch: row.int("batch")), skill: skill,
            attempt: attempt, parameters: object, output: try decode(row.string("output"), "call output"),
            error: row.string("error"), started: Date(timeIntervalSince1970: started),
            finished: row.double("finished").map(Date.init(timeIntervalSince1970:)),
            compensated: row.int("compensated") == 1, order: order, outputMasked: row.int("masked") == 1)
    }

    /// Every step end of a run, in order.
    public func steps(of runID: String) throws(StoreError) -> [JournalStep] {
        let rows = try query(
            "SELECT step, status, output, error, finished, masked FROM steps WHERE run_seq = \(RunSeq.of("?1")) ORDER BY id", [.text(runID)])
        var steps: [JournalStep] = []
        for row in rows {
            guard let step = row.string("step"), let status = row.string("status").flatMap(StepStatus.init(rawValue:)),
                let finished = row.double("finished")
            else { throw malformed("step", of: runID) }
            steps.append(
                JournalStep(
                    step: step, status: status, output: try decode(row.string("output"), "step output"), error: row.string("error"),
                    finished: Date(timeIntervalSince1970: finished), outputMasked: row.int("masked") == 1))
        }
        return steps
    }

    /// Every compensation of a run, in order.
    public func compensations(of runID: String) throws(StoreError) -> [JournalCompensation] {
        let rows = try query(
            "SELECT step, iteration, batch, error, finished FROM compensations WHERE run = ?1 ORDER BY id", [.text(runID)])
        return try rows.map { row throws(StoreError) in try JournalRows.compensation(row) { malformed("compensation", of: runID) } }
    }

    /// Who ran the run when: the first run, then each resume or rollback.
    public func sessions(of runID: String) throws(StoreError) -> [JournalSession] {
        let rows = try query("SELECT kind, pid, host, started, ended, outcome, trigger FROM sessions WHERE run_seq = \(RunSeq.of("?1")) ORDER BY id", [.text(runID)])
        return try rows.map { row throws(StoreError) in try JournalRows.session(row) { malformed("session", of: runID) } }
    }

    /// The playbook source a run was started from and its report.
    public func sourceAndReport(of runID: String) throws(StoreError) -> (source: String, report: Value?) {
        let row = try query("SELECT source, report FROM runs WHERE id = ?1", [.text(runID)]).first
        return (row?.string("source") ?? "", try decode(row?.string("report"), "run report"))
    }

    public func source(of runID: String) throws(StoreError) -> String {
        try query("SELECT source FROM runs WHERE id = ?1", [.text(runID)]).first?.string("source") ?? ""
    }

    /// The waits of a run's steps for resources other runs held, in order.
    public func waits(of runID: String) throws(StoreError) -> [JournalWait] {
        let rows = try query(
            "SELECT step, resources, held_by, started, ended, outcome FROM resource_waits WHERE run = ?1 ORDER BY id",
            [.text(runID)])
        return try rows.map { row throws(StoreError) in
            try JournalRows.wait(row, decode: decode) { malformed("resource wait", of: runID) }
        }
    }

    /// When the oldest run in the journal started; `nil` when it holds none.
    public func oldestRunStart() throws(StoreError) -> Date? {
        try query("SELECT min(started) FROM runs").first?[0].doubleValue.map(Date.init(timeIntervalSince1970:))
    }

    /// How many runs the journal holds, from `run_counts` (kept by triggers on `runs`).
    public func runCount() throws(StoreError) -> Int {
        try query(Self.runCountQuery).first?.int("runs") ?? 0
    }

    static let runCountQuery = "SELECT coalesce(sum(runs), 0) AS runs FROM run_counts"

    // MARK: Rows

    func journalRun(_ row: Row, now: Date) throws(StoreError) -> JournalRun {
        try JournalRows.run(row, decode: decode, malformed: { malformed($0, of: $1) }) { stored, holder in
            liveStatus(stored: stored, holder: holder, heartbeat: JournalRows.date(row, "heartbeat"), now: now)
        }
    }

    func malformed(_ what: String, of runID: String?) -> StoreError { .malformed(what, of: runID, in: database.path) }
}
