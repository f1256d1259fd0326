import Foundation
import SkillbookCore
import SkillbookSQL

/// One call attempt, as the journal tracks it between its start and its result.
struct OpenCall: Equatable {
    var runID: String
    var key: CallKey
    var attempt: Int

    init(_ call: CallRecord) {
        runID = call.runID
        key = call.key
        attempt = call.attempt
    }
}

/// The row ids of calls whose start is written and whose result is not. A list searched from the
/// newest: a journal has one open call per running step, and a dictionary keyed by `OpenCall`
/// made the runtime scan the binary's conformance records for its `Hashable` at every run's first
/// call (~0.3 M instructions).
struct OpenCallRows {
    private var rows: [(call: OpenCall, rowID: Int)] = []

    subscript(call: OpenCall) -> Int? {
        get { rows.last { $0.call == call }?.rowID }
        set {
            _ = removeValue(forKey: call)
            if let newValue { rows.append((call, newValue)) }
        }
    }

    mutating func removeValue(forKey call: OpenCall) -> Int? {
        guard let index = rows.lastIndex(where: { $0.call == call }) else { return nil }
        return rows.remove(at: index).rowID
    }
}

/// Records of a journal waiting for a group commit (see `SQLiteJournal`, "Writes"), in the order
/// they are to be written.
struct DeferredQueue {
    struct Entry {
        var sql: String
        var parameters: [SQLValue]
        /// Set on the start of a call that has no result yet: the row the call's result goes to.
        var call: OpenCall?
        /// The long texts the row refers to (see `JournalBlobs`), written with it, for the run `run`.
        var blobs: [JournalBlob] = []
        var run = ""
    }

    private(set) var entries: [Entry] = []
    /// Why the last group commit of the background task failed, until a commit succeeds: the next
    /// record queued is then committed at once, so that a failure that lasts reaches the run.
    var failedCommit: StoreError?

    var count: Int { entries.count }

    mutating func append(_ entry: Entry) {
        entries.append(entry)
    }

    /// Gives the queued start of `call` its result and moves it to the end of the queue, so that
    /// rows are numbered in the order calls finished; `false` when its start is not queued (it was
    /// written already).
    mutating func finish(_ call: OpenCall, result: [SQLValue], blobs: [JournalBlob]) -> Bool {
        guard let index = entries.lastIndex(where: { $0.call == call }) else { return false }
        var entry = entries.remove(at: index)
        entry.parameters.replaceSubrange(CallRow.result, with: result)
        entry.blobs += blobs
        entry.call = nil
        entries.append(entry)
        return true
    }

    /// Drops the first `count` entries, once they are committed.
    mutating func removeFirst(_ count: Int) {
        entries.removeFirst(count)
    }

    /// Drops the entry appended last.
    mutating func removeLast() {
        entries.removeLast()
    }
}

/// The statements that write a call's row, started or finished, and a result of its own (see
/// `CallResultsMigration`), and their parameters.
enum CallRow {
    /// The next number of `seq` in the run `?run` (its calls numbered in the order they finished).
    private static func nextSeq(_ run: String) -> String {
        """
        (SELECT max(coalesce((SELECT max(seq) FROM calls WHERE run_seq = \(RunSeq.of(run))), 0),
            coalesce((SELECT max(seq) FROM call_results WHERE run_seq = \(RunSeq.of(run))), 0)) + 1)
        """
    }

    static let insert = """
        INSERT INTO calls (run, step, iteration, batch, skill, attempt, parameters, started, output, error, finished, masked, seq, run_seq)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, \(nextSeq("?1")), \(RunSeq.of("?1")))
        """

    /// The result of the call whose row is `?1`, in the run `?2`, written after its start: inserted
    /// once, not added to the call's row. A second result of the same attempt replaces the first.
    static let insertResult = """
        INSERT OR REPLACE INTO call_results (call, run, output, error, finished, masked, seq, run_seq)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, \(nextSeq("?2")), \(RunSeq.of("?2")))
        """

    /// Where `insert`'s parameters hold the result (output, error, finished, masked).
    static let result = 8..<12

    /// The parameters of `insert` for `call` (its result still empty), and the long texts they refer to.
    static func parameters(_ call: CallRecord) -> (values: [SQLValue], blobs: [JournalBlob]) {
        let (json, blobs) = JournalBlobs.encode(.object(call.parameters))
        let values: [SQLValue] = [
            .text(call.runID), .text(call.key.step.description), SQLValue(call.key.iteration), SQLValue(call.key.batch), .text(call.skill),
            .integer(call.attempt), .text(json), .real(call.started.timeIntervalSince1970), .null, .null, .null, .integer(0),
        ]
        return (values, blobs)
    }

    /// The parameters of `insertResult` for the call of row `rowID` in `runID`.
    static func resultParameters(rowID: Int, runID: String, result: [SQLValue]) -> [SQLValue] {
        [.integer(rowID), .text(runID)] + result
    }

    /// A result as `insert` and `insertResult` take it, and the long texts it refers to.
    static func result(output: Value?, error: String?, finished: Date, masked: Bool) -> (values: [SQLValue], blobs: [JournalBlob]) {
        let stored = output.map(JournalBlobs.encode)
        let values: [SQLValue] = [
            SQLValue(stored?.json), SQLValue(error), .real(finished.timeIntervalSince1970), .integer(masked ? 1 : 0),
        ]
        return (values, stored?.blobs ?? [])
    }
}
