/// A recorder whose runs are held by leases that another process can take over (the PostgreSQL
/// journal): once a run's lease is lost, this process must neither call skills for it nor undo
/// what it did — the new holder continues (or rolls back) the run from the journal.
///
/// The engine asks before compensating: a run whose lease is lost stops without rollback.
public protocol LeaseHolding: Sendable {
    /// Whether this process still holds the lease of `runID` (as far as it knows: a write that
    /// finds the lease gone makes this `false`).
    func holdsLease(_ runID: String) -> Bool
}
