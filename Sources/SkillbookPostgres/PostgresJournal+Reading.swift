public import Foundation
public import SkillbookCore
import SkillbookSQL

extension PostgresJournal {
    static let runColumns = """
        id, playbook, file, source_hash, inputs, trigger, status, interrupted, started, finished, pid, host, boot,
        process_start, heartbeat, error, outputs, scheduled_at, epoch, worker, queued, workspace,
        (lease_expires IS NOT NULL AND lease_expires < extract(epoch from clock_timestamp())) AS lease_lapsed,
        extract(epoch from clock_timestamp()) - heartbeat AS beat_age
        """

    public func runs(playbook: String? = nil, status: JournalStatus? = nil, limit: Int = 20) throws -> [JournalRun] {
        let liveness = status == .running || status == .interrupted
        let stored: [String]? = status.map { liveness ? ["running", "interrupted"] : [$0.rawValue] }
        let rows = try database.query(
            """
            SELECT \(Self.runColumns) FROM runs
            WHERE ($1::text IS NULL OR playbook = $1) AND ($2::text IS NULL OR status IN (SELECT json_array_elements_text($2::json)))
            ORDER BY started DESC, seq DESC
            LIMIT $3
            """,
            [
                SQLValue(playbook), SQLValue(stored.map { JSONText.encode(.array($0.map(Value.string))) }),
                liveness ? .null : .integer(max(0, limit)),
            ], doing: "listing runs")
        var runs: [JournalRun] = []
        for row in rows {
            let run = try journalRun(row)
            if let status, run.status != status { continue }
            runs.append(run)
            if runs.count >= limit { break }
        }
        return runs
    }

    public func run(_ id: String) throws -> JournalRun? {
        try database.query("SELECT \(Self.runColumns) FROM runs WHERE id = $1", [.text(id)], doing: "reading run \(id)").first
            .map { try journalRun($0) }
    }

    public func resolveRunID(_ prefix: String) throws -> String {
        try JournalRows.resolveRunID(prefix, in: location) { prefix in
            try database.query(
                "SELECT id, playbook FROM runs WHERE left(id, length($1)) = $1 ORDER BY started DESC LIMIT 6", [.text(prefix)],
                doing: "finding run \(prefix)")
        }
    }

    public func calls(of runID: String) throws -> [JournalCall] {
        let rows = try database.query(
            """
            SELECT step, iteration, batch, skill, attempt, parameters, output, error, started, finished, compensated, seq, masked
            FROM calls WHERE run = $1 ORDER BY id
            """, [.text(runID)], doing: "reading the calls of run \(runID)")
        return try rows.map { row in
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
    }

    public func steps(of runID: String) throws -> [JournalStep] {
        let rows = try database.query(
            "SELECT step, status, output, error, finished, masked FROM steps WHERE run = $1 ORDER BY id", [.text(runID)],
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
            "SELECT kind, pid, host, started, ended, outcome, trigger FROM sessions WHERE run = $1 ORDER BY id", [.text(runID)],
            doing: "reading the sessions of run \(runID)")
        return try rows.map { row throws(PostgresError) in try JournalRows.session(row) { malformed("session", of: runID) } }
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

    /// Deletes the runs that started before `cutoff` and all but the newest `keep`, never one
    /// that is running (by the rules of `journalRun`) or queued. Returns how many were deleted.
    @discardableResult
    public func prune(olderThan cutoff: Date?, keepingNewest keep: Int?) throws -> Int {
        if cutoff == nil, let keep {
            // The common case after every run: nothing to do unless over the cap.
            guard try (database.query("SELECT count(*) AS n FROM runs").first?.int("n") ?? 0) > keep else { return 0 }
        }
        var live: [Value] = []
        for row in try database.query("SELECT \(Self.runColumns) FROM runs WHERE status IN ('running', 'queued')") {
            let run = try journalRun(row)
            if run.status == .running || run.status == .queued { live.append(.string(run.id)) }
        }
        let keepIDs = SQLValue.text(JSONText.encode(.array(live)))
        var deleted = 0
        if let cutoff {
            deleted += try database.run(
                "DELETE FROM runs WHERE started < $1 AND id NOT IN (SELECT json_array_elements_text($2::json))",
                [.real(cutoff.timeIntervalSince1970), keepIDs])
        }
        if let keep {
            deleted += try database.run(
                """
                DELETE FROM runs
                WHERE id NOT IN (SELECT id FROM runs ORDER BY started DESC, seq DESC LIMIT $1)
                    AND id NOT IN (SELECT json_array_elements_text($2::json))
                """, [.integer(max(0, keep)), keepIDs])
        }
        return deleted
    }

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
