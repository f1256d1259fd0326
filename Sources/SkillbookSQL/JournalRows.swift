public import Foundation
public import SkillbookCore

/// Rows of the journal's tables as records, the same on every SQL backend: the tables have the
/// same columns (times as seconds since 1970, values as JSON text). What differs is passed in:
/// how a backend decodes JSON and names a malformed row (its own error), and how it judges whether
/// a `running` run's holder is still there.
public enum JournalRows {
    /// The process that holds the run of `row` (columns `pid`, `host`, `boot`, `process_start`).
    public static func holder(_ row: Row) -> ProcessIdentity? {
        guard let pid = row.int("pid"), let host = row.string("host") else { return nil }
        return ProcessIdentity(pid: Int32(truncatingIfNeeded: pid), host: host, boot: row.string("boot"), start: row.string("process_start"))
    }

    /// A row of `runs` as reported: `liveStatus` turns the stored status and the holder into the
    /// status to report and, for a run reported `interrupted`, why.
    public static func run<Failure: Error>(
        _ row: Row, decode: (_ text: String?, _ what: String) throws(Failure) -> Value?,
        malformed: (_ what: String, _ runID: String?) -> Failure,
        liveStatus: (_ stored: String, _ holder: ProcessIdentity?) -> (JournalStatus, String?)
    ) throws(Failure) -> JournalRun {
        guard let id = row.string("id"), let playbook = row.string("playbook"), let stored = row.string("status"),
            let started = row.double("started")
        else { throw malformed("run", row.string("id")) }
        let holder = holder(row)
        let (status, reason) = liveStatus(stored, holder)
        guard case .object(let inputs)? = try decode(row.string("inputs") ?? "{}", "run's inputs") else {
            throw malformed("run's inputs", id)
        }
        var outputs: ValueObject?
        if let text = row.string("outputs") {
            guard case .object(let object)? = try decode(text, "run's outputs") else { throw malformed("run's outputs", id) }
            outputs = object
        }
        var run = JournalRun(
            id: id, playbook: playbook, file: row.string("file"), sourceHash: row.string("source_hash") ?? "", inputs: inputs,
            trigger: row.string("trigger").map(RunTrigger.init(rawValue:)) ?? .cli, status: status,
            interruption: reason ?? (stored == "interrupted" ? "its process ended before it finished" : nil),
            interruptedBySignal: row.int("interrupted") == 1, started: Date(timeIntervalSince1970: started),
            finished: date(row, "finished"), holder: holder, heartbeat: date(row, "heartbeat"), error: row.string("error"),
            outputs: outputs)
        run.scheduledAt = date(row, "scheduled_at")
        run.workspace = row.string("workspace")
        run.worker = row.string("worker")
        return run
    }

    /// A column of seconds since 1970 as a date.
    public static func date(_ row: Row, _ column: String) -> Date? {
        row.double(column).map(Date.init(timeIntervalSince1970:))
    }

    /// The full id of the run whose id is or starts with `prefix` (lowercased); `JournalError`
    /// `.notFound` or `.ambiguous` otherwise. `candidates` returns, for the lowercased prefix, up
    /// to six rows (`id`, `playbook`) of runs whose id starts with it, newest first; `location`
    /// names the journal in the message.
    public static func resolveRunID(_ prefix: String, in location: String, candidates: (String) throws -> [Row]) throws -> String {
        let prefix = prefix.lowercased()
        guard !prefix.isEmpty else { throw JournalError(.notFound, "no run id given") }
        let rows = try candidates(prefix)
        if let exact = rows.first(where: { $0.string("id") == prefix }) { return exact.string("id") ?? prefix }
        guard let first = rows.first else {
            throw JournalError(.notFound, "no run '\(prefix)' in \(location); 'skillbook runs' lists the runs")
        }
        guard rows.count == 1 else {
            let names = rows.prefix(5).map { "\($0.string("id") ?? "?") (\($0.string("playbook") ?? "?"))" }
            throw JournalError(
                .ambiguous,
                "run prefix '\(prefix)' matches more than one run: \(names.joined(separator: ", "))"
                    + (rows.count > 5 ? ", …" : "") + "; give more characters")
        }
        return first.string("id") ?? prefix
    }

    /// A row of `sessions`; `invalid` is the backend's error for a malformed one.
    public static func session<Failure: Error>(_ row: Row, invalid: () -> Failure) throws(Failure) -> JournalSession {
        guard let kind = row.string("kind"), let pid = row.int("pid"), let host = row.string("host"), let started = row.double("started")
        else { throw invalid() }
        return JournalSession(
            kind: kind, pid: Int32(truncatingIfNeeded: pid), host: host, started: Date(timeIntervalSince1970: started),
            ended: date(row, "ended"), outcome: row.string("outcome"))
    }

    /// A row of `compensations`.
    public static func compensation<Failure: Error>(_ row: Row, invalid: () -> Failure) throws(Failure) -> JournalCompensation {
        guard let step = row.string("step"), let finished = row.double("finished") else { throw invalid() }
        return JournalCompensation(
            key: CallKey(step: StepPath(parsing: step), iteration: row.int("iteration"), batch: row.int("batch")), error: row.string("error"),
            finished: Date(timeIntervalSince1970: finished))
    }

    /// A row of `resource_waits`; `decode` reads its JSON list of resources.
    public static func wait<Failure: Error>(
        _ row: Row, decode: (_ text: String?, _ what: String) throws(Failure) -> Value?, invalid: () -> Failure
    ) throws(Failure) -> JournalWait {
        guard let step = row.string("step"), let started = row.double("started"),
            case .array(let names)? = try decode(row.string("resources"), "resource wait")
        else { throw invalid() }
        return JournalWait(
            step: step, wait: ResourceWait(resources: names.compactMap(\.stringValue), heldBy: row.string("held_by")),
            started: Date(timeIntervalSince1970: started), ended: date(row, "ended"), outcome: row.string("outcome"))
    }

    /// A row of `fires` (`playbook`, `entry`, `scheduled_ms`, `catch_up`) as the fire it records.
    public static func fire(_ row: Row) -> Fire? {
        guard let playbook = row.string("playbook"), let entry = row.int("entry"), let ms = row.int("scheduled_ms") else { return nil }
        return Fire(
            key: FireKey(playbook: playbook, entry: entry, scheduledAt: Date(timeIntervalSince1970: Double(ms) / 1000)),
            isCatchUp: row.int("catch_up") == 1)
    }
}

/// The rules of taking over a run, the same on every SQL backend.
public enum RunTakeovers {
    /// The run a takeover may take, as it is now: refuses one that is not there (`.notFound`), one
    /// a live holder runs or a queue holds (`.busy`, with `stillRunning`), and whatever `check` refuses.
    public static func admit(
        _ current: JournalRun?, runID: String, in location: String, check: (JournalRun) throws(JournalError) -> Void,
        stillRunning: (JournalRun) -> String
    ) throws(JournalError) -> JournalRun {
        guard let current else { throw JournalError(.notFound, "no run \(runID) in \(location)") }
        if current.status == .running || current.status == .queued { throw JournalError(.busy, stillRunning(current)) }
        try check(current)
        return current
    }

    /// Why a run held by a live process (or waiting in the queue) cannot be taken: it names the
    /// process, and its machine when that is not `host`.
    public static func stillRunningMessage(_ run: JournalRun, host: String) -> String {
        if run.status == .queued {
            return "run \(run.id) (\(run.playbook)) is queued; a worker will run it ('skillbook worker' on a machine sharing the state)"
        }
        var holder = ""
        if let process = run.holder { holder = " in process \(process.pid)" + (process.host == host ? "" : " on \(process.host)") }
        return "run \(run.id) (\(run.playbook)) is still running\(holder); wait for it to finish or stop that process first"
    }
}
