public import SkillbookCore
public import SkillbookRuntime

/// A run, resume or rollback that passed every check and is ready to go: made by
/// `PlaybookHost.prepareRun`, `prepareResume` or `prepareRollback`, started by `PlaybookHost.execute` or `PlaybookHost.start`.
///
/// A prepared resume or rollback holds its run in the journal (no other process can take it):
/// execute it, or give it back with `PlaybookHost.abandon`.
public struct PreparedRun: Sendable {
    /// What executing it does.
    public enum Work: Sendable {
        /// A new run, or a resumed one (`options.resume`).
        case run(Engine.RunOptions)
        /// Undo `completed` newest first; `unrecorded` (actions whose result was never recorded)
        /// leaves the rollback incomplete whatever the compensations do.
        case rollback(completed: [RecordedCall], unrecorded: UnrecordedCalls?)
    }

    public let playbook: Playbook
    /// Resolved inputs (for a rollback: none).
    public let inputs: ValueObject
    public let registry: SkillRegistry
    /// Where the run is recorded; `nil` for a dry run.
    let journal: (any RunJournal)?
    public let runID: String
    public let work: Work
    /// The journal status to give the run back with when it is abandoned (resume, rollback).
    let heldStatus: JournalStatus?
    /// The playbook's workspace folder (`run.workspace`; see `WorkspaceFolder`); empty: the current folder.
    var workspace: String = ""

    /// Whether it is a dry run (nothing is recorded, actions only planned).
    public var isDryRun: Bool {
        if case .run(let options) = work { return options.dryRun }
        return false
    }

    /// Whether it is a new run (not a resume, not a rollback).
    var isNewRun: Bool {
        if case .run(let options) = work { return options.resume == nil }
        return false
    }
}
