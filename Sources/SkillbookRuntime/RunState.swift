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
        var redactor = Redactor()
    }

    private let contents: Mutex<Contents>

    init(reports: [StepReport]) {
        contents = Mutex(Contents(reports: reports))
    }

    func read<T>(_ body: (Contents) -> T) -> T {
        contents.withLock { body($0) }
    }

    func update<T>(_ body: (inout Contents) -> T) -> T {
        contents.withLock { body(&$0) }
    }

    var redactor: Redactor { read(\.redactor) }

    func complete(_ unit: CompletedUnit) {
        update { $0.completed.append(unit) }
    }

    func addSecrets(in value: Value, schema: Schema) {
        update { $0.redactor.addSecrets(in: value, schema: schema) }
    }

    func report(_ index: Int, _ change: (inout StepReport) -> Void) {
        update { change(&$0.reports[index]) }
    }
}
