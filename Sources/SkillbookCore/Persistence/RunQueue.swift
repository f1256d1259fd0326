/// A run a worker claimed: the run as it was before, and whether it came from the queue (a first
/// start) or was taken over from a worker whose lease expired (a continuation).
public struct ClaimedRun: Sendable {
    public var run: JournalRun
    public var wasQueued: Bool
    /// The epoch of the lease this claim holds (each claim of a run takes the next one).
    public var epoch: Int
    /// The playbook's text recorded with the run.
    public var source: String

    public init(run: JournalRun, wasQueued: Bool, epoch: Int, source: String) {
        self.run = run
        self.wasQueued = wasQueued
        self.epoch = epoch
        self.source = source
    }
}

/// Runs queued for workers on a state shared by machines (`skillbook run --queue`, a schedule's
/// fires there), claimed by `skillbook worker`. The queue is the journal its runs are recorded in
/// and leased from: a claimed run is held by this journal, and every write of it is fenced by the
/// lease's epoch, so a worker that lost the lease cannot write.
///
/// A conformer must:
/// - make `claimNext` atomic across processes and machines: no two claimers get one run, and a
///   claimer does not wait for another's claim;
/// - hand out a run whose holder's lease expired as a continuation (`wasQueued` false), with the
///   next epoch, its last session ended `interrupted`;
/// - call the handler of `setLeaseLostHandler` when it learns that another process took a run it
///   holds (and forget the run: `holdsLease` turns `false`).
public protocol RunQueue: RunJournal, LeaseHolding {
    /// Records `run` as queued (nobody holds it; `started` is when it was queued) and wakes the
    /// waiting workers. `file` is the playbook file it comes from and `workspace` the workspace
    /// folder it was queued in, if any (see `RunJournal.setFile` and `setWorkspace`).
    func enqueue(_ run: RunRecord, file: String?, workspace: String?) async throws
    /// Claims the oldest queued run, else a run whose worker's lease expired; this journal becomes
    /// its holder. `nil` when there is nothing to claim.
    func claimNext() async throws -> ClaimedRun?
    /// How many runs wait in the queue.
    func queuedCount() async throws -> Int
    /// Throws `JournalError` `.refused` unless this journal still holds `runID`'s lease in the
    /// store (not only as far as it knows): what was read of the run before is still its own.
    func confirmLease(_ runID: String) async throws
    /// `handler` is called, from any task, with each run whose lease another process took.
    func setLeaseLostHandler(_ handler: @escaping @Sendable (String) -> Void)
    /// Gives a `waiting` run whose approval was decided back to the workers: the next claim takes
    /// it over as a continuation (`wasQueued` false) and it goes on under the resume rules. Throws
    /// `JournalError` `.refused` when the run no longer waits.
    func requeueDecided(_ runID: String) async throws
    /// Starts listening for runs being queued: the waiter wakes when one may have been.
    func queueWaiter() throws -> any RunQueueWaiter
}

/// Wakes a worker when a run may have been queued.
public protocol RunQueueWaiter: Sendable {
    /// Waits until a run may have been queued or `timeout` seconds passed; `true` when woken by
    /// the queue. Returns at once once stopped.
    func wait(timeout: Double) async -> Bool
    /// Stops listening (and wakes every waiter).
    func stop()
}
