import SkillbookCore
import Synchronization

/// A call that completed, as rollback needs it: what to undo and how.
struct CompletedUnit: Sendable {
    /// Index of the top-level step it belongs to (sub-playbook calls count for the step that ran them).
    var stepIndex: Int
    /// The step that made the call.
    var stepID: StepPath
    var key: CallKey
    var skill: any Skill
    var call: CompletedCall
    /// The step's own undo steps, which replace the skill's compensation.
    var rollback: [PlaybookStep]?
    /// The sub-playbook the call was made in, for evaluating its rollback steps.
    var playbook: Playbook
    /// The call failed (its skill undoes failed calls, so a partial effect is undone too).
    var failed = false

    /// A problem of this call as its step reports it: prefixed with the sub-step inside a sub-playbook.
    func describe(_ problem: String, in report: StepReport) -> String {
        stepID.depth == 0 ? problem : "\(stepID): \(problem)"
    }
}

/// The mutable state of one run, shared by the tasks of concurrent iterations and batches.
final class RunState: Sendable {
    struct Contents {
        var outputs: [String: Value] = [:]
        var reports: [StepReport]
        var completed: [CompletedUnit] = []
        /// Keys of the failed calls in `completed`: a completing call looks for its failed attempt
        /// only when there is one (going through every unit at every call made a run quadratic).
        var failedKeys: Set<CallKey> = []
        /// Dry-run: steps only planned (keyed like `outputs`), whose outputs are unknown.
        var planned: Set<String> = []
    }

    private let contents: Mutex<Contents>
    /// The releases of steps' resource locks still under way (a step lets go without waiting);
    /// a run that stops to wait for an approval waits for them first, so that it holds nothing.
    private let releases = Mutex<[Task<Void, Never>]>([])
    /// The run's workspace folder (`run.workspace`).
    let workspace: String
    /// The run's secrets and what expressions derived from them.
    let taint = SecretTaint()

    /// Keeps a release under way (see `releases`).
    func releasing(_ task: Task<Void, Never>) {
        releases.withLock { $0.append(task) }
    }

    /// Waits until every release kept so far has ended.
    func releasesEnded() async {
        for task in releases.withLock({ tasks in defer { tasks = [] }; return tasks }) { await task.value }
    }

    /// The values of the secrets named in `secrets:`, for `secret('NAME')`; each is masked.
    let secretValues: [String: String]

    init(reports: [StepReport], workspace: String = "", secretValues: [String: String] = [:]) {
        contents = Mutex(Contents(reports: reports))
        self.workspace = workspace
        self.secretValues = secretValues
        for value in secretValues.values { taint.add(value) }
    }

    func read<T>(_ body: (Contents) -> T) -> T {
        contents.withLock { body($0) }
    }

    func update<T>(_ body: (inout Contents) -> T) -> T {
        contents.withLock { body(&$0) }
    }

    var redactor: Redactor { taint.redactor }

    /// A call completed: it replaces a failed attempt of the same call kept for rollback.
    func complete(_ unit: CompletedUnit) {
        update { contents in
            if contents.failedKeys.remove(unit.key) != nil {
                contents.completed.removeAll { $0.failed && $0.key == unit.key }
            }
            contents.completed.append(unit)
        }
    }

    /// A call failed and its skill undoes failed calls: kept for rollback once (a later attempt
    /// that completes replaces it).
    func completeFailed(_ unit: CompletedUnit) {
        update { contents in
            guard !contents.completed.contains(where: { $0.key == unit.key }) else { return }
            contents.completed.append(unit)
            contents.failedKeys.insert(unit.key)
        }
    }

    func addSecrets(in value: Value, schema: Schema) {
        taint.addSecrets(in: value, schema: schema)
    }

    func report(_ index: Int, _ change: (inout StepReport) -> Void) {
        update { change(&$0.reports[index]) }
    }
}
