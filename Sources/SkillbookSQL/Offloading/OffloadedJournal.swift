public import Foundation
public import SkillbookCore

/// A backend's `BlockingJournal` as the `RunJournal` the host uses: each call that waits for I/O
/// runs on the backend's `BlockingIO` threads, while the calling task waits without holding a
/// thread of the cooperative pool.
///
/// The records `RunRecorder` lets a journal write a little later — a read-only call's start and
/// result, a step's end — stay on the caller's thread while the backend only queues them in memory
/// (`writesNow` says when it would not: a full queue, say), since a hop for each would cost about as
/// much as the engine spends on a step. Everything else hops: the records made durable before they
/// return (a call with effects, a compensation, a run's start and end, an approval request), every
/// read, lease and prune.
public struct OffloadedJournal<Base: BlockingJournal>: RunJournal, ApprovalJournal {
    /// The backend's own journal, for the backend's own use (its resource locks share its connection).
    public let base: Base
    public let io: BlockingIO

    public init(_ base: Base, io: BlockingIO) {
        self.base = base
        self.io = io
    }

    public var location: String { base.location }

    public func setFile(_ path: String, forRun runID: String) async throws {
        try await io.run { [base] in try base.setFile(path, forRun: runID) }
    }

    public func setWorkspace(_ path: String, forRun runID: String) async throws {
        try await io.run { [base] in try base.setWorkspace(path, forRun: runID) }
    }

    public func setSource(_ source: String, forRun runID: String) async throws {
        try await io.run { [base] in try base.setSource(source, forRun: runID) }
    }

    // MARK: Recording

    public func runStarted(_ run: RunRecord) async throws {
        try await io.run { [base] in try base.runStarted(run) }
    }

    public func callStarted(_ call: CallRecord) async throws {
        guard call.hasEffects || base.writesNow(finishing: nil) else { return try base.callStarted(call) }
        try await io.run { [base] in try base.callStarted(call) }
    }

    public func callFinished(_ call: CallRecord, output: Value?, error: String?, finished: Date) async throws {
        guard call.hasEffects || base.writesNow(finishing: call) else {
            return try base.callFinished(call, output: output, error: error, finished: finished)
        }
        try await io.run { [base] in try base.callFinished(call, output: output, error: error, finished: finished) }
    }

    public func stepFinished(
        runID: String, step: String, status: StepStatus, output: Value?, outputMasked: Bool, error: String?
    ) async throws {
        guard base.writesNow(finishing: nil) else {
            return try base.stepFinished(runID: runID, step: step, status: status, output: output, outputMasked: outputMasked, error: error)
        }
        try await io.run { [base] in
            try base.stepFinished(runID: runID, step: step, status: status, output: output, outputMasked: outputMasked, error: error)
        }
    }

    public func compensationFinished(runID: String, key: CallKey, step: String, error: String?, finished: Date) async throws {
        try await io.run { [base] in
            try base.compensationFinished(runID: runID, key: key, step: step, error: error, finished: finished)
        }
    }

    public func runFinished(_ result: RunResult) async throws {
        try await io.run { [base] in try base.runFinished(result) }
    }

    public func approvalRequested(_ request: ApprovalRequest) async throws {
        try await io.run { [base] in try base.approvalRequested(request) }
    }

    // MARK: Reading

    public func runs(playbook: String?, status: JournalStatus?, limit: Int) async throws -> [JournalRun] {
        try await io.run { [base] in try base.runs(playbook: playbook, status: status, limit: limit) }
    }

    public func runs(_ filter: RunFilter, after cursor: RunCursor?, limit: Int) async throws -> RunPage {
        try await io.run { [base] in try base.runs(filter, after: cursor, limit: limit) }
    }

    public func latestRuns() async throws -> [JournalRun] {
        try await io.run { [base] in try base.latestRuns() }
    }

    public func run(_ id: String) async throws -> JournalRun? {
        try await io.run { [base] in try base.run(id) }
    }

    public func resolveRunID(_ prefix: String) async throws -> String {
        try await io.run { [base] in try base.resolveRunID(prefix) }
    }

    public func calls(of runID: String) async throws -> [JournalCall] {
        try await io.run { [base] in try base.calls(of: runID) }
    }

    public func calls(of runID: String, after position: Int64?, limit: Int) async throws -> CallPage {
        try await io.run { [base] in try base.calls(of: runID, after: position, limit: limit) }
    }

    public func storedCalls(of runID: String, after position: Int64?, limit: Int) async throws -> StoredCallPage {
        try await io.run { [base] in try base.storedCalls(of: runID, after: position, limit: limit) }
    }

    public func calls(of runID: String, excludingSkills excludedSkills: Set<String>) async throws -> [JournalCall] {
        try await io.run { [base] in try base.calls(of: runID, excludingSkills: excludedSkills) }
    }

    public func sourceAndReport(of runID: String) async throws -> (source: String, report: Value?) {
        try await io.run { [base] in try base.sourceAndReport(of: runID) }
    }

    public func steps(of runID: String) async throws -> [JournalStep] {
        try await io.run { [base] in try base.steps(of: runID) }
    }

    public func compensations(of runID: String) async throws -> [JournalCompensation] {
        try await io.run { [base] in try base.compensations(of: runID) }
    }

    public func sessions(of runID: String) async throws -> [JournalSession] {
        try await io.run { [base] in try base.sessions(of: runID) }
    }

    public func timeline(_ runID: String) async throws -> RunTimeline? {
        try await io.run { [base] in try base.timeline(runID) }
    }

    public func timelineWithoutCalls(_ runID: String, withReport: Bool) async throws -> RunTimeline? {
        try await io.run { [base] in try base.timelineWithoutCalls(runID, withReport: withReport) }
    }

    public func oldestRunStart() async throws -> Date? {
        try await io.run { [base] in try base.oldestRunStart() }
    }

    public func runCount() async throws -> Int {
        try await io.run { [base] in try base.runCount() }
    }

    public func journaledCalls(of runID: String) async throws -> [JournaledCall] {
        try await io.run { [base] in try base.journaledCalls(of: runID) }
    }

    public func journaledSteps(of runID: String) async throws -> [JournaledStep] {
        try await io.run { [base] in try base.journaledSteps(of: runID) }
    }

    // MARK: Leases and retention

    public func takeOver(
        _ runID: String, for purpose: RunTakeover, trigger: RunTrigger, check: (JournalRun) throws(JournalError) -> Void
    ) async throws -> JournalRun {
        // `check` is called only while this call waits for the result, so it never outlives it.
        try await withoutActuallyEscaping(check) { check in
            let borrowed = BorrowedCheck(check: check)
            return try await io.run { [base] in
                try base.takeOver(runID, for: purpose, trigger: trigger, check: borrowed.check)
            }
        }
    }

    public func release(_ runID: String, status: JournalStatus) async throws {
        try await io.run { [base] in try base.release(runID, status: status) }
    }

    public func stillRunningMessage(_ run: JournalRun) -> String {
        base.stillRunningMessage(run)
    }

    public func prune(olderThan cutoff: Date?, keepingNewest keep: Int?) async throws -> Int {
        try await io.run { [base] in try base.prune(olderThan: cutoff, keepingNewest: keep) }
    }

    public func pruneBatch(_ rules: RetentionRules, now: Date, limit: Int) async throws -> Int {
        try await io.run { [base] in try base.pruneBatch(rules, now: now, limit: limit) }
    }

    // MARK: Approvals

    public func pendingApprovals() async throws -> [ApprovalRecord] {
        try await io.run { [base] in try base.pendingApprovals() }
    }

    public func approvals(ofRun runID: String) async throws -> [ApprovalRecord] {
        try await io.run { [base] in try base.approvals(ofRun: runID) }
    }

    public func decidedWaiting() async throws -> [ApprovalRecord] {
        try await io.run { [base] in try base.decidedWaiting() }
    }

    public func decide(_ runID: String, step: StepPath?, _ decision: ApprovalDecision) async throws -> ApprovalRecord {
        try await io.run { [base] in try base.decide(runID, step: step, decision) }
    }
}

/// A caller's check, lent to the backend's thread for the duration of one call the caller awaits.
private struct BorrowedCheck: @unchecked Sendable {
    let check: (JournalRun) throws(JournalError) -> Void
}

extension OffloadedJournal: LeaseHolding where Base: BlockingRunQueue {
    public func holdsLease(_ runID: String) -> Bool {
        base.holdsLease(runID)
    }
}

extension OffloadedJournal: RunQueue where Base: BlockingRunQueue {
    public func enqueue(_ run: RunRecord, file: String?, workspace: String?) async throws {
        try await io.run { [base] in try base.enqueue(run, file: file, workspace: workspace) }
    }

    public func claimNext() async throws -> ClaimedRun? {
        try await io.run { [base] in try base.claimNext() }
    }

    public func queuedCount() async throws -> Int {
        try await io.run { [base] in try base.queuedCount() }
    }

    public func confirmLease(_ runID: String) async throws {
        try await io.run { [base] in try base.confirmLease(runID) }
    }

    public func setLeaseLostHandler(_ handler: @escaping @Sendable (String) -> Void) {
        base.setLeaseLostHandler(handler)
    }

    public func requeueDecided(_ runID: String) async throws {
        try await io.run { [base] in try base.requeueDecided(runID) }
    }

    public func queueWaiter() throws -> any RunQueueWaiter {
        try base.queueWaiter()
    }
}
