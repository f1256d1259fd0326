public import SkillbookCore
import SkillbookStore

/// A fire ledger as the scheduler of a host uses it: the `FireLedger` contract, plus adopting the
/// fires a dead process claimed but never started.
public protocol HostFireLedger: FireLedger {
    /// Fires claimed by a process that is gone (`isAlive` says no, for a pid of this machine)
    /// before their run was journaled: each is taken over by this process and returned, to be
    /// started now.
    func adoptOrphans(isAlive: (Int32) -> Bool) async throws -> [Fire]
}

extension SQLiteFireLedger: HostFireLedger {}
