import Foundation
public import SkillbookCore

/// Where fires and each entry's state are kept, shared by every scheduler of one state (the
/// daemon, `schedule tick`, a second daemon): the SQLite journal in the host.
///
/// A conformer must make `claim` atomic: of any number of callers claiming one key, across
/// processes, exactly one gets `true`, and the key stays recorded across restarts.
public protocol FireLedger: Sendable {
    /// The saved state of an entry; a new `EntryState()` for one never decided.
    func state(playbook: String, entry: Int) async throws -> EntryState
    func save(_ state: EntryState, playbook: String, entry: Int) async throws
    /// Records the fire as started; `false` when its key was recorded before (do not start it).
    func claim(_ fire: Fire) async throws -> Bool
    /// Records a fire that was not started because the previous run still ran.
    func recordSkipped(_ fire: Fire) async throws
}

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
