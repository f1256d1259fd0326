import Foundation
public import SkillbookCore

/// Starts runs for fires (the engine in the host, trigger `schedule`, `scheduled_at` the fire's instant).
public protocol FireStarter: Sendable {
    /// Runs the playbook for `fire` with `inputs`; returns when the run has ended.
    func run(_ fire: Fire, inputs: [ScheduleInput]) async
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
