public import SkillbookCore

/// A fire ledger as the scheduler of a host uses it (see `AdoptingFireLedger`).
public typealias HostFireLedger = AdoptingFireLedger
