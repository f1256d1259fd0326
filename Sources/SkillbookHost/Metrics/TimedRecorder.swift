import Foundation
import SkillbookCore

/// A journal's recorder as the engine uses it, timing each write into
/// `skillbook_journal_write_seconds` (labelled by the write) for `--metrics`. Everything else is the
/// journal's: a write that throws is timed too and rethrown, and whether a lease is still held is
/// the journal's answer (a journal without leases always holds them, as the engine assumes).
struct TimedRecorder: RunRecorder, LeaseHolding {
    let base: any RunRecorder
    let metrics: SkillbookMetrics

    private func timed<T>(_ write: String, _ body: () async throws -> T) async rethrows -> T {
        let start = ContinuousClock.now
        defer {
            let elapsed = ContinuousClock.now - start
            metrics.journalWrite(write, seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
        }
        return try await body()
    }

    func runStarted(_ run: RunRecord) async throws {
        try await timed("run_started") { try await base.runStarted(run) }
    }

    func callStarted(_ call: CallRecord) async throws {
        try await timed("call_started") { try await base.callStarted(call) }
    }

    func callFinished(_ call: CallRecord, output: Value?, error: String?, finished: Date) async throws {
        try await timed("call_finished") { try await base.callFinished(call, output: output, error: error, finished: finished) }
    }

    func stepFinished(runID: String, step: String, status: StepStatus, output: Value?, outputMasked: Bool, error: String?) async throws {
        try await timed("step_finished") {
            try await base.stepFinished(runID: runID, step: step, status: status, output: output, outputMasked: outputMasked, error: error)
        }
    }

    func compensationFinished(runID: String, key: CallKey, step: String, error: String?, finished: Date) async throws {
        try await timed("compensation_finished") {
            try await base.compensationFinished(runID: runID, key: key, step: step, error: error, finished: finished)
        }
    }

    func runFinished(_ result: RunResult) async throws {
        try await timed("run_finished") { try await base.runFinished(result) }
    }

    func approvalRequested(_ request: ApprovalRequest) async throws {
        try await timed("approval_requested") { try await base.approvalRequested(request) }
    }

    func holdsLease(_ runID: String) -> Bool {
        (base as? any LeaseHolding)?.holdsLease(runID) ?? true
    }
}
