import Foundation
import SkillbookCore

/// One run (or sub-playbook run) of a playbook; its mutable parts live in the shared `RunState`.
///
/// The work is split by concern over the `RunExecution+*.swift` files: steps, skill steps, calls
/// and retry, batches, foreach, sub-playbooks, dry-run, resume and rollback.
struct RunExecution: Sendable {
    let engine: Engine
    let playbook: Playbook
    let inputs: ValueObject
    let runID: String
    let started: Date
    let deadline: Date?
    let dryRun: Bool
    let onEvent: RunEventHandler
    let state: RunState
    /// Inside a sub-playbook: the path of the step running it, so step paths stay unique.
    let scope: StepPath?
    /// `scope`'s text form and `/` (empty at the top): how this execution's step outputs are keyed.
    let prefix: String
    /// For a sub-playbook: the index of the top-level step running it (reports and rollback use it).
    let topIndex: Int?
    /// What an earlier process of this run already did.
    let resume: ResumeIndex?
    /// When each step's output is no longer read (see `releaseOutputs(after:)`).
    let readers: StepOutputReaders
    /// The run's result carries each step's output in its report (see `Engine.RunOptions.keepsStepOutputs`).
    let keepsStepOutputs: Bool

    init(
        engine: Engine, playbook: Playbook, inputs: ValueObject, runID: String, started: Date, deadline: Date?,
        dryRun: Bool, onEvent: @escaping RunEventHandler, state: RunState, scope: StepPath? = nil, topIndex: Int? = nil,
        resume: ResumeIndex?, keepsStepOutputs: Bool = true
    ) {
        self.engine = engine
        self.playbook = playbook
        self.inputs = inputs
        self.runID = runID
        self.started = started
        self.deadline = deadline
        self.dryRun = dryRun
        self.onEvent = onEvent
        self.state = state
        self.scope = scope
        self.prefix = scope.map { "\($0)/" } ?? ""
        self.topIndex = topIndex
        self.resume = resume
        self.readers = StepOutputReaders(playbook)
        self.keepsStepOutputs = keepsStepOutputs
    }

    /// Lets go of the outputs nothing reads once step `index` has read its expressions: a large
    /// value is then held no longer than a later step needs it. The journal keeps what it keeps
    /// (a resume restores finished steps' outputs from it), and the report keeps the output when
    /// the result is to carry it.
    func releaseOutputs(after index: Int) {
        let names = readers.released(after: index)
        guard !names.isEmpty else { return }
        state.update { contents in
            for name in names { contents.outputs[prefix + name] = nil }
        }
    }

    var isNested: Bool { topIndex != nil }

    /// Where a step of this (sub-)playbook is in the run.
    func path(of step: PlaybookStep) -> StepPath {
        scope?.appending(step.id) ?? StepPath(step: step.id)
    }

    /// The index of the report a step of this execution updates: its own, or the top-level step's.
    func reportIndex(_ index: Int) -> Int { topIndex ?? index }

    func evaluationContext(item: Value? = nil, index: Int? = nil) -> EvaluationContext {
        var run = ValueObject()
        run["id"] = .string(runID)
        run["playbook"] = .string(playbook.name)
        run["workspace"] = .string(state.workspace)
        run["started"] = .string(DateParser.formatDateTime(started, timeZone: engine.environment.timeZone))
        if playbook.isNotification, case .object(let subject)? = inputs[NotificationSubject.inputName] {
            // A notification's `run` is the run it reports.
            run = subject
        }
        let steps = state.read { contents in
            guard !prefix.isEmpty else { return contents.outputs }
            var steps: [String: Value] = [:]
            for (key, value) in contents.outputs where key.hasPrefix(prefix) { steps[String(key.dropFirst(prefix.count))] = value }
            return steps
        }
        var context = EvaluationContext(
            inputs: inputs, steps: steps, item: item, index: index,
            env: declaredVariables(), run: run,
            now: engine.environment.now(), timeZone: engine.environment.timeZone)
        if !state.taint.isEmpty { context.taint = state.taint }
        context.secrets = state.secretValues
        return context
    }

    /// The environment variables the playbook declares in `env:` and that are set.
    func declaredVariables() -> [String: String] {
        var variables: [String: String] = [:]
        for name in playbook.env { variables[name] = engine.environment.variables[name] }
        return variables
    }

    /// The playbook's `outputs:`, evaluated over what the steps produced.
    func evaluateOutputs(skipping unknown: Set<String> = []) throws(ExpressionError) -> ValueObject {
        let context = evaluationContext()
        var outputs = ValueObject()
        for output in playbook.outputs where !unknown.contains(output.name) {
            do {
                outputs[output.name] = try output.value.evaluate(in: context)
            } catch {
                throw ExpressionError(message: "output '\(output.name)': \(error.message)", offset: error.offset)
            }
        }
        return outputs
    }
}
