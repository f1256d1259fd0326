import Foundation

/// Where fires and each entry's state are kept, shared by every scheduler of one state (the
/// daemon, `schedule tick`, a second daemon): in the host, the `fires` and `schedule_entries`
/// tables of the state database.
///
/// A conformer must make `commit` atomic: the entry's new state, the skipped fires and the claims
/// are kept together or not at all (a kill in between can neither lose a fire nor double one), and
/// of any number of callers claiming one key, across processes, exactly one gets it.
public protocol FireLedger: Sendable {
    /// The saved state of an entry; a new `EntryState()` for one never decided.
    func state(playbook: String, entry: Int) async throws -> EntryState
    /// In one transaction: keeps `decision.state`, records `decision.skipped` as skipped and
    /// `decision.missed` with their reasons, and claims
    /// each fire of `decision.start`. Returns the fires claimed here, in order; a fire whose key was
    /// recorded before (by another scheduler) is left out and must not be started.
    func commit(_ decision: FireDecision, playbook: String, entry: Int) async throws -> [Fire]
}

/// A fire ledger as the scheduler of a host uses it: the `FireLedger` contract, plus adopting the
/// fires a dead process claimed but never started.
public protocol AdoptingFireLedger: FireLedger {
    /// Fires claimed by a process that is gone (`isAlive` says no, for a pid of this machine)
    /// before their run was journaled: each is taken over by this process and returned, to be
    /// started now.
    func adoptOrphans(isAlive: (Int32) -> Bool) async throws -> [Fire]
    /// What was decided, newest scheduled instant first, at most `limit`: fires started, fires
    /// skipped (`overlap`) and batches of missed fires (`catch_up`, `window`); of one playbook or all.
    func history(playbook: String?, limit: Int) async throws -> [FireRecord]
}
