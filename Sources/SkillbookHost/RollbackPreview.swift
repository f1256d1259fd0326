public import SkillbookCore

/// What undoing a recorded run will do, worked out from the journal before anything is undone:
/// the calls that will be compensated and those that cannot be, each newest completion first.
public struct RollbackPreview: Sendable {
    /// One completed call of the run.
    public struct Item: Sendable, Hashable {
        public var key: CallKey
        public var skill: String
        /// It is undone by its step's `rollback` steps rather than by the skill's compensation.
        public var byRollbackSteps: Bool

        public init(key: CallKey, skill: String, byRollbackSteps: Bool) {
            self.key = key
            self.skill = skill
            self.byRollbackSteps = byRollbackSteps
        }
    }

    /// The run as it is before the rollback.
    public var run: JournalRun
    /// What will be undone, newest completion first.
    public var undone: [Item]
    /// What stays done: its skill cannot be undone and its step has no `rollback` steps.
    public var irreversible: [Item]
    /// Actions whose result was never recorded (their process stopped during the call): nothing
    /// says what they did, so they cannot be undone either.
    public var uncertain: [JournalCall]

    /// A run that finished (`succeeded`, `succeeded_with_errors`) is undone only when approved:
    /// it did what was asked, and undoing it is a new decision.
    public var needsApproval: Bool { run.status == .succeeded || run.status == .succeededWithErrors }

    /// Sorts `completed` (in order of completion) into what will and will not be undone. Reads
    /// (query skills without `rollback` steps) have nothing to undo and are left out.
    static func make(
        run: JournalRun, playbook: Playbook, completed: [RecordedCall], uncertain: [JournalCall], registry: SkillRegistry
    ) -> RollbackPreview {
        var preview = RollbackPreview(run: run, undone: [], irreversible: [], uncertain: uncertain)
        for call in completed.reversed() {
            let hasSteps = step(call.key.step, in: playbook)?.rollback != nil
            let descriptor = registry[call.skill]?.descriptor
            if !hasSteps, descriptor?.kind == .query { continue }
            let item = Item(key: call.key, skill: call.skill, byRollbackSteps: hasSteps)
            if hasSteps || descriptor?.reversible == true {
                preview.undone.append(item)
            } else {
                preview.irreversible.append(item)
            }
        }
        return preview
    }

    /// The query skills no step with `rollback` steps calls (in `playbook` and its sub-playbooks):
    /// their calls have nothing to undo, and the preview need not read them.
    static func skillsWithNothingToUndo(_ playbook: Playbook, registry: SkillRegistry) -> Set<String> {
        var withSteps: Set<String> = []
        var seen: Set<String> = []
        func visit(_ playbook: Playbook) {
            guard seen.insert(playbook.name).inserted else { return }
            for step in playbook.steps where step.rollback != nil { withSteps.insert(step.skill) }
            for sub in playbook.subPlaybooks.values { visit(sub) }
        }
        visit(playbook)
        return Set(registry.descriptors.filter { $0.kind == .query }.map(\.id)).subtracting(withSteps)
    }

    /// The step a call's path names, through sub-playbooks.
    private static func step(_ path: StepPath, in playbook: Playbook) -> PlaybookStep? {
        var current = playbook
        var found: PlaybookStep?
        for (index, part) in path.components.enumerated() {
            if index > 0 {
                guard let name = found?.playbook, let sub = current.subPlaybooks[name] else { return nil }
                current = sub
            }
            guard let next = current.step(part) else { return nil }
            found = next
        }
        return found
    }
}

/// Who approves undoing a finished run (see `RollbackPreview.needsApproval`).
public enum RollbackApproval: Sendable {
    /// Approved without asking (`--yes`).
    case approveAll
    /// No one can be asked: the rollback is refused with `reason`, nothing undone.
    case refuse(reason: String)
    /// Asked with the preview; `true` approves.
    case ask(@Sendable (RollbackPreview) async -> Bool)
}

/// Which run to undo.
public enum RollbackTarget: Sendable, Hashable {
    /// A run id or a unique prefix of one.
    case run(String)
    /// The newest run of the journal that did something (see `rollback --last`): a notification
    /// or a run of read-only calls after it is passed over.
    case last
}
