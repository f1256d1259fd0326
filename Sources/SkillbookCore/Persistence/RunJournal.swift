public import Foundation

/// What a process does with a run it takes over.
public enum RunTakeover: String, Sendable {
    case resume
    case rollback
}

/// The run journal: where runs are recorded as they happen (`RunRecorder`), read back (`runs`,
/// `timeline`, the plan of a resume) and leased (which process holds a running run).
///
/// The SQLite journal of the state directory is one conformer (see `StateBackend`);
/// a database shared by several machines can be another. A conformer must keep the contract of
/// `RunRecorder` for writes, be safe to use from concurrent tasks and from several processes on
/// the same store, and report a `running` run whose holder is known to be gone as `interrupted`
/// (with the reason in `JournalRun.interruption`), never a live holder's run because of time alone.
///
/// Failures: reads and writes throw the store's own error (its message names the store and what to
/// do); lease refusals throw `JournalError`.
public protocol RunJournal: RunRecorder {
    /// Where the records are kept, for messages (`/home/me/.local/state/skillbook/skillbook.sqlite`).
    var location: String { get }

    /// Records which playbook file the run comes from (before or after it starts), so a resume finds it again.
    func setFile(_ path: String, forRun runID: String) async throws
    /// Records the workspace folder the run was started in (before or after it starts), so that a
    /// resume or rollback loads the same skills from anywhere.
    func setWorkspace(_ path: String, forRun runID: String) async throws
    /// Replaces the recorded playbook text of a run (and its hash), when a resume runs a changed file.
    func setSource(_ source: String, forRun runID: String) async throws

    // MARK: Reading

    /// Runs newest first, optionally only of one playbook or in one status (as reported:
    /// `interrupted` finds the runs whose process died), at most `limit`: the first page of `runs(_:after:limit:)`.
    func runs(playbook: String?, status: JournalStatus?, limit: Int) async throws -> [JournalRun]
    /// A page of at most `limit` runs that pass `filter`, newest first, starting after `cursor`
    /// (from the newest when `nil`). An indexed range read: its cost does not grow with the history.
    func runs(_ filter: RunFilter, after cursor: RunCursor?, limit: Int) async throws -> RunPage
    /// The newest run of each playbook the journal holds, by playbook name.
    func latestRuns() async throws -> [JournalRun]
    /// The run with this id, if there is one.
    func run(_ id: String) async throws -> JournalRun?
    /// The full id of the run whose id is or starts with `prefix`; `JournalError` `.notFound` or
    /// `.ambiguous` otherwise.
    func resolveRunID(_ prefix: String) async throws -> String
    /// Every attempt of every call of a run, in order of starting.
    func calls(of runID: String) async throws -> [JournalCall]
    /// At most `limit` attempts of a run's calls in order of starting, after the one at `position`
    /// (`CallPage.next`; from the first when `nil`): an indexed range of the run's calls. See
    /// `forEachCallPage`.
    func calls(of runID: String, after position: Int64?, limit: Int) async throws -> CallPage
    /// The same page, each attempt's parameters and output as stored (`StoredCall`): for a reader
    /// that only writes them out again (`runs show --json`), canonical texts are not decoded. See
    /// `forEachStoredCallPage`.
    func storedCalls(of runID: String, after position: Int64?, limit: Int) async throws -> StoredCallPage
    /// The attempts of a run's calls of skills other than `excludedSkills`, in order of starting:
    /// what a rollback preview reads (the calls of reads are left in the journal, not decoded).
    func calls(of runID: String, excludingSkills excludedSkills: Set<String>) async throws -> [JournalCall]
    /// The playbook source a run was started from and its report (`nil` until it ended).
    func sourceAndReport(of runID: String) async throws -> (source: String, report: Value?)
    /// Every step end of a run, in order.
    func steps(of runID: String) async throws -> [JournalStep]
    /// Every compensation of a run, in order.
    func compensations(of runID: String) async throws -> [JournalCompensation]
    /// Who ran the run when: the first run, then each resume or rollback.
    func sessions(of runID: String) async throws -> [JournalSession]
    /// Everything the journal holds of a run; `nil` when there is no such run.
    func timeline(_ runID: String) async throws -> RunTimeline?
    /// Everything the journal holds of a run but its calls (`calls` empty): read those in pages
    /// (`forEachCallPage`); without `withReport`, not the run's report either (`report` nil: a
    /// big run's report is as big as its steps). `nil` when there is no such run.
    func timelineWithoutCalls(_ runID: String, withReport: Bool) async throws -> RunTimeline?
    /// When the oldest run in the journal started; `nil` when it holds none.
    func oldestRunStart() async throws -> Date?
    /// How many runs the journal holds: one small read (the kept count of each playbook's runs),
    /// however long the history.
    func runCount() async throws -> Int
    /// The calls of a run as `ResumePlan.from` takes them: attempts numbered again in order of
    /// starting, so that an attempt made by a resume counts as later than those before it.
    func journaledCalls(of runID: String) async throws -> [JournaledCall]
    func journaledSteps(of runID: String) async throws -> [JournaledStep]

    // MARK: Leases

    /// Takes over an ended or interrupted run for `purpose`, atomically: refuses (`JournalError`
    /// `.busy`) when a live process holds it, lets `check` refuse based on the run as it is now,
    /// then makes this process the holder (`running`, heartbeat on) and opens a session recording
    /// `trigger` (where the resume or rollback was asked: `cli`, `console`). Returns the run as it
    /// was before. Call `runFinished` (through the engine) or `release` when done.
    @discardableResult
    func takeOver(
        _ runID: String, for purpose: RunTakeover, trigger: RunTrigger, check: (JournalRun) throws(JournalError) -> Void
    ) async throws -> JournalRun
    /// Gives back a run taken over without running it: it returns to `status` and this process's
    /// session ends as `abandoned`.
    func release(_ runID: String, status: JournalStatus) async throws
    /// Why a run held by a live process cannot be taken: it names the process.
    func stillRunningMessage(_ run: JournalRun) -> String

    // MARK: Retention

    /// Deletes the runs that started before `olderThan` and all but the newest `keepingNewest`,
    /// never one a live process holds. Returns how many were deleted.
    @discardableResult
    func prune(olderThan cutoff: Date?, keepingNewest keep: Int?) async throws -> Int
    /// One small pass of background pruning by `rules` (see `RetentionPolicy`): deletes at most
    /// `limit` runs that are finished and past their time or over a cap, oldest first, each with
    /// all its rows. Returns how many were deleted.
    @discardableResult
    func pruneBatch(_ rules: RetentionRules, now: Date, limit: Int) async throws -> Int
}

extension RunJournal {
    /// Everything the journal holds of a run but its calls, its report included.
    public func timelineWithoutCalls(_ runID: String) async throws -> RunTimeline? {
        try await timelineWithoutCalls(runID, withReport: true)
    }

    /// The plan a resume of `runID` starts from; `decide` chooses for each call whose process died
    /// during it, `isReadOnly` says which skills run again rather than reuse a masked output (see
    /// `ResumePlan.from`).
    public func resumePlan(
        _ runID: String, isReadOnly: (_ skill: String) -> Bool = { _ in false },
        decide: (JournaledCall) -> ResumePlan.Uncertain
    ) async throws -> ResumePlan {
        ResumePlan.from(
            calls: try await journaledCalls(of: runID), steps: try await journaledSteps(of: runID), isReadOnly: isReadOnly,
            decide: decide)
    }
}
