public import Foundation
public import SkillbookCore

/// A journal as a SQL backend implements it: `RunJournal`'s calls, synchronous, each blocking the
/// calling thread for its I/O. `OffloadedJournal` turns one into the `RunJournal` the host uses,
/// with that I/O on the backend's own threads (`BlockingIO`).
public protocol BlockingJournal: Sendable {
    var location: String { get }
    func setFile(_ path: String, forRun runID: String) throws
    func setWorkspace(_ path: String, forRun runID: String) throws
    func setSource(_ source: String, forRun runID: String) throws

    /// Whether recording a read-only call's end (`finishing`), or a read-only call's start or a
    /// step's end (`nil`), would write to the state now rather than only queue in memory (a full
    /// queue, a failed group commit, a call whose start was written already).
    func writesNow(finishing call: CallRecord?) -> Bool

    func runStarted(_ run: RunRecord) throws
    func callStarted(_ call: CallRecord) throws
    func callFinished(_ call: CallRecord, output: Value?, error: String?, finished: Date) throws
    func stepFinished(runID: String, step: String, status: StepStatus, output: Value?, outputMasked: Bool, error: String?) throws
    func compensationFinished(runID: String, key: CallKey, step: String, error: String?, finished: Date) throws
    func runFinished(_ result: RunResult) throws
    func approvalRequested(_ request: ApprovalRequest) throws

    func runs(playbook: String?, status: JournalStatus?, limit: Int) throws -> [JournalRun]
    func runs(_ filter: RunFilter, after cursor: RunCursor?, limit: Int) throws -> RunPage
    func latestRuns() throws -> [JournalRun]
    func run(_ id: String) throws -> JournalRun?
    func resolveRunID(_ prefix: String) throws -> String
    func calls(of runID: String) throws -> [JournalCall]
    func calls(of runID: String, after position: Int64?, limit: Int) throws -> CallPage
    func storedCalls(of runID: String, after position: Int64?, limit: Int) throws -> StoredCallPage
    func calls(of runID: String, excludingSkills excludedSkills: Set<String>) throws -> [JournalCall]
    func sourceAndReport(of runID: String) throws -> (source: String, report: Value?)
    func steps(of runID: String) throws -> [JournalStep]
    func compensations(of runID: String) throws -> [JournalCompensation]
    func sessions(of runID: String) throws -> [JournalSession]
    func timeline(_ runID: String) throws -> RunTimeline?
    func timelineWithoutCalls(_ runID: String, withReport: Bool) throws -> RunTimeline?
    func oldestRunStart() throws -> Date?
    func runCount() throws -> Int
    func journaledCalls(of runID: String) throws -> [JournaledCall]
    func journaledSteps(of runID: String) throws -> [JournaledStep]

    func takeOver(
        _ runID: String, for purpose: RunTakeover, trigger: RunTrigger, check: (JournalRun) throws(JournalError) -> Void
    ) throws -> JournalRun
    func release(_ runID: String, status: JournalStatus) throws
    func stillRunningMessage(_ run: JournalRun) -> String
    func prune(olderThan cutoff: Date?, keepingNewest keep: Int?) throws -> Int
    func pruneBatch(_ rules: RetentionRules, now: Date, limit: Int) throws -> Int

    func pendingApprovals() throws -> [ApprovalRecord]
    func approvals(ofRun runID: String) throws -> [ApprovalRecord]
    func decidedWaiting() throws -> [ApprovalRecord]
    func decide(_ runID: String, step: StepPath?, _ decision: ApprovalDecision) throws -> ApprovalRecord
}

/// A queue of runs for workers, as a SQL backend implements it (see `BlockingJournal`).
public protocol BlockingRunQueue: BlockingJournal, LeaseHolding {
    func enqueue(_ run: RunRecord, file: String?, workspace: String?) throws
    func claimNext() throws -> ClaimedRun?
    func queuedCount() throws -> Int
    func confirmLease(_ runID: String) throws
    func setLeaseLostHandler(_ handler: @escaping @Sendable (String) -> Void)
    func requeueDecided(_ runID: String) throws
    func queueWaiter() throws -> any RunQueueWaiter
}
