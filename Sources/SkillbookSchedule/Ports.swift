import Foundation
public import SkillbookCore

/// Starts runs for fires (the engine in the host, trigger `schedule`, `scheduled_at` the fire's instant).
public protocol FireStarter: Sendable {
    /// Runs the playbook for `fire` with `inputs`; returns when the run has ended.
    func run(_ fire: Fire, inputs: [ScheduleInput]) async
    /// Fires that were not started (dropped by `catch_up` or its window, skipped by `overlap`),
    /// already recorded in the ledger: the host notifies `missed` for each batch.
    func missed(_ batches: [MissedFires]) async
}

extension FireStarter {
    /// A starter that reports nothing about fires it does not start.
    public func missed(_ batches: [MissedFires]) async {}
}

/// A playbook's schedule as the daemon knows it.
public struct ScheduledPlaybook: Sendable {
    public var name: String
    public var entries: [ScheduleEntry]

    public init(name: String, entries: [ScheduleEntry]) {
        self.name = name
        self.entries = entries
    }

    public init(_ playbook: Playbook) {
        self.init(name: playbook.name, entries: playbook.schedule)
    }
}
