import Foundation
public import SkillbookCore
import SkillbookSQL
import Synchronization

/// Journal records of a run kept in memory until the run's next write that must be durable at
/// once (see `PostgresJournal`'s "Batched writes"), then written in the same round trip as it.
struct PendingWrites: Sendable {
    var calls: [PendingCall] = []
    var steps: [PendingStep] = []
    /// The long texts the pending records refer to (see `JournalBlobs`), written before them.
    var blobs: [JournalBlob] = []

    var isEmpty: Bool { calls.isEmpty && steps.isEmpty }

    /// The calls as the JSON array the batch statements read (`$3`), in the order they started.
    var callsJSON: String {
        JSONText.encode(.array(calls.enumerated().map { index, call in call.value(order: index + 1) }))
    }

    /// The step ends as the JSON array the batch statements read (`$4`), in the order they ended.
    var stepsJSON: String { JSONText.encode(.array(steps.map(\.value))) }
}

/// A call attempt not written yet: its start, and its end once it returned.
struct PendingCall: Sendable {
    var record: CallRecord
    /// The parameters as their column holds them (see `JournalBlobs`).
    var parameters: String
    var output: String?
    var error: String?
    var finished: Double?
    var masked = false

    func value(order: Int) -> Value {
        .object(
            ValueObject([
                ("step", .string(record.key.step.description)), ("iteration", record.key.iteration.map(Value.int) ?? .null),
                ("batch", record.key.batch.map(Value.int) ?? .null), ("skill", .string(record.skill)), ("attempt", .int(record.attempt)),
                ("parameters", .string(parameters)), ("output", output.map(Value.string) ?? .null),
                ("error", error.map(Value.string) ?? .null), ("started", .double(record.started.timeIntervalSince1970)),
                ("finished", finished.map(Value.double) ?? .null), ("masked", .bool(masked)), ("n", .int(order)),
            ]))
    }
}

/// A step's end not written yet.
struct PendingStep: Sendable {
    var step: String
    var status: String
    var output: String?
    var error: String?
    var finished: Double
    var masked: Bool

    var value: Value {
        .object(
            ValueObject([
                ("step", .string(step)), ("status", .string(status)), ("output", output.map(Value.string) ?? .null),
                ("error", error.map(Value.string) ?? .null), ("finished", .double(finished)), ("masked", .bool(masked)),
            ]))
    }
}

extension PostgresJournal {
    /// The inserts of a batch, as common table expressions applied only when the CTE `fence`
    /// (defined by the statement) has a row: `$1` the run, `$3` the calls, `$4` the step ends.
    static let pendingInserts = """
        pending_calls AS (
            INSERT INTO calls (run, step, iteration, batch, skill, attempt, parameters, output, error, started, finished, masked, seq)
            SELECT $1, c.step, c.iteration, c.batch, c.skill, c.attempt, c.parameters, c.output, c.error, c.started, c.finished,
                c.masked, (SELECT coalesce(max(seq), 0) FROM calls WHERE run_seq = \(PostgresRunSeq.of("$1"))) + c.n
            FROM json_to_recordset($3::json) AS c(step text, iteration integer, batch integer, skill text, attempt integer,
                parameters text, output text, error text, started double precision, finished double precision, masked boolean, n bigint)
            WHERE EXISTS (SELECT 1 FROM fence)
        ),
        pending_steps AS (
            INSERT INTO steps (run, step, status, output, error, finished, masked)
            SELECT $1, s.step, s.status, s.output, s.error, s.finished, s.masked
            FROM json_to_recordset($4::json) AS s(step text, status text, output text, error text, finished double precision, masked boolean)
            WHERE EXISTS (SELECT 1 FROM fence)
        )
        """

    /// Keeps `change` of `runID`'s pending records.
    func pend(_ runID: String, _ change: (inout PendingWrites) -> Void) {
        pending.withLock { all in change(&all[runID, default: PendingWrites()]) }
    }

    /// Takes (and forgets) `runID`'s pending records.
    func takePending(_ runID: String) -> PendingWrites {
        pending.withLock { $0.removeValue(forKey: runID) } ?? PendingWrites()
    }

    /// Writes `runID`'s pending records now, fenced by `epoch` (one round trip; none when there is
    /// nothing pending). A refused batch is lost with the lease.
    func flush(_ runID: String, epoch: Int) throws {
        let batch = takePending(runID)
        guard !batch.isEmpty else { return }
        try keep(batch.blobs, forRun: runID)
        let rows = try database.query(
            """
            WITH fence AS (SELECT id FROM runs WHERE id = $1 AND epoch = $2 AND status = 'running' FOR SHARE),
            \(Self.pendingInserts)
            SELECT count(*) AS n FROM fence
            """, [.text(runID), .integer(epoch), .text(batch.callsJSON), .text(batch.stepsJSON)],
            doing: "recording the steps of run \(runID)")
        if rows.first?.int("n") ?? 0 == 0 { throw leaseLost(runID) }
    }

    /// Records a call's end in its pending start, if the start is still pending; `false` when it
    /// was written already.
    /// Whether a read-only call's end (`finishing`) would be an update of its written start rather
    /// than a change to the pending records; every other record of a read-only call or a step's end
    /// only pends.
    public func writesNow(finishing call: CallRecord?) -> Bool {
        guard let call else { return false }
        return !pending.withLock { all in
            all[call.runID]?.calls.contains { $0.record.key == call.key && $0.record.attempt == call.attempt && $0.finished == nil }
                ?? false
        }
    }

    func finishPending(_ call: CallRecord, output: String?, blobs: [JournalBlob], error: String?, finished: Double) -> Bool {
        pending.withLock { all -> Bool in
            guard
                let index = all[call.runID]?.calls.lastIndex(where: {
                    $0.record.key == call.key && $0.record.attempt == call.attempt && $0.finished == nil
                })
            else { return false }
            all[call.runID]?.calls[index].output = output
            all[call.runID]?.calls[index].error = error
            all[call.runID]?.calls[index].finished = finished
            all[call.runID]?.calls[index].masked = call.outputMasked
            all[call.runID]?.blobs += blobs
            return true
        }
    }
}
