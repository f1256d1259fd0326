import SkillbookCore

extension RunExecution {
    /// In a dry-run: the earlier steps this step's mappings read whose outputs are unknown (actions not run).
    /// A `when` that reads them counts too: the step may or may not run, so it is only planned.
    func unknownReferences(of step: PlaybookStep) -> [String] {
        unknownSteps(read: step.with.map(\.value) + [step.foreach, step.when].compactMap { $0 })
    }

    /// In a dry-run: whether `step`'s `when` reads an output that is unknown (an action not run),
    /// so it cannot be decided: the step is planned, not skipped.
    func whenIsUnknown(_ step: PlaybookStep) -> Bool {
        guard dryRun, let when = step.when else { return false }
        return !unknownSteps(read: [when]).isEmpty
    }

    /// In a dry-run: the playbook's outputs that read steps it only planned.
    func unknownOutputs() -> [String] {
        let planned = state.read(\.planned)
        return playbook.outputs.filter { output in
            unknownSteps(read: [output.value]).contains { planned.contains(prefix + $0) }
        }.map(\.name)
    }

    /// The steps of this playbook that `values` read and that have no output yet.
    private func unknownSteps(read values: [MappedValue]) -> [String] {
        let known = state.read { $0.outputs }
        var unknown: [String] = []
        for value in values {
            for (template, _) in value.templates {
                for expression in template.expressions {
                    for reference in expression.references where reference.count > 1 && reference[0] == "steps" {
                        let name = reference[1]
                        if known[prefix + name] == nil, playbook.step(name) != nil, !unknown.contains(name) {
                            unknown.append(name)
                        }
                    }
                }
            }
        }
        return unknown
    }

    /// A dry-run's account of a step it does not run: an action, or a query reading unknown outputs.
    func plannedAction(_ step: PlaybookStep, _ descriptor: SkillDescriptor, _ plan: CallPlan) -> StepPlan {
        state.update { _ = $0.planned.insert(prefix + step.id) }
        let resolved = plan.unknown.isEmpty
        return StepPlan(
            step: path(of: step), skill: descriptor.id, kind: descriptor.kind, ran: false,
            parameters: plan.iterations.first.map(state.redactor.redact), unknownFrom: plan.unknown,
            iterations: step.foreach == nil ? nil : (resolved ? plan.iterations.count : nil),
            batches: plan.driver == nil ? nil : (resolved ? plan.calls : nil),
            confirm: step.confirm ?? descriptor.confirm, reversible: descriptor.reversible || step.rollback != nil)
    }

    /// A dry-run's account of a query it ran for real.
    func plannedQuery(_ step: PlaybookStep, _ descriptor: SkillDescriptor, _ plan: CallPlan) -> StepPlan {
        StepPlan(
            step: path(of: step), skill: descriptor.id, kind: descriptor.kind, ran: true,
            parameters: plan.iterations.first.map(state.redactor.redact), unknownFrom: [],
            iterations: step.foreach == nil ? nil : plan.iterations.count, batches: plan.driver == nil ? nil : plan.calls,
            confirm: false, reversible: true)
    }
}
