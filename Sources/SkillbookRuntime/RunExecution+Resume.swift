import SkillbookCore

/// A resume plan indexed for lookups during the run.
struct ResumeIndex: Sendable {
    let plan: ResumePlan
    let completed: [CallKey: RecordedCall]

    init(_ plan: ResumePlan) {
        self.plan = plan
        var completed: [CallKey: RecordedCall] = [:]
        for call in plan.completed { completed[call.key] = call }
        self.completed = completed
    }
}

/// Where a call key's step is: the top-level step it belongs to, and the (sub-)playbook holding it.
struct LocatedStep: Sendable {
    /// Index of the top-level step.
    var index: Int
    var step: PlaybookStep
    var playbook: Playbook
}

extension RunExecution {
    /// Takes over what an earlier process of this run did: finished steps' outputs and every
    /// completed call (in order of completion), so rollback covers them too.
    func restore(_ plan: ResumePlan) {
        let redactor = state.redactor
        state.update { contents in
            for (id, finished) in plan.finishedSteps {
                if let output = finished.output { contents.outputs[id] = output }
                if let index = playbook.steps.firstIndex(where: { $0.id == id }) {
                    contents.reports[index].status = finished.status
                    contents.reports[index].output = keepsStepOutputs ? finished.output.map(redactor.redact) : nil
                }
            }
        }
        for recorded in plan.completed {
            guard let unit = unit(for: recorded) else { continue }
            state.complete(unit)
        }
    }

    /// The step a call key names, with the top-level index and the (sub-)playbook it is in.
    func locate(_ path: StepPath) -> LocatedStep? {
        let parts = path.components
        guard let first = parts.first, let index = playbook.steps.firstIndex(where: { $0.id == first }) else { return nil }
        var current = playbook
        var step = playbook.steps[index]
        for part in parts.dropFirst() {
            guard let name = step.playbook, let sub = current.subPlaybooks[name], let next = sub.step(part) else { return nil }
            current = sub
            step = next
        }
        return LocatedStep(index: index, step: step, playbook: current)
    }

    func unit(for recorded: RecordedCall) -> CompletedUnit? {
        let path = recorded.key.step
        guard let skill = engine.registry[recorded.skill], let located = locate(path) else { return nil }
        return CompletedUnit(
            stepIndex: located.index, stepID: path, key: recorded.key, skill: skill, call: recorded.call,
            rollback: located.step.rollback, playbook: located.playbook)
    }
}
