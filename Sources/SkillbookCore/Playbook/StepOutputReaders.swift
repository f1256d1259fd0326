/// When the engine may let go of each step's output: after the last step whose expressions read
/// it, unless something evaluated at the end of the run reads it.
///
/// Worked out from the playbook's references (`steps.ID…` in expressions): a step's `with`,
/// `when` and `foreach` read while the step starts; the playbook's `outputs:` when the steps are
/// done, and `rollback:` steps (of any step, in sub-playbooks too) when the run is undone, so the
/// outputs those read are kept to the end. An expression that reads `steps` as a whole
/// (`steps['a']`, `steps`) may read any output: then every output is kept. A sub-playbook's
/// steps read only its own steps (each execution keys its outputs under its own prefix), so each
/// (sub-)playbook is worked out on its own.
public struct StepOutputReaders: Sendable {
    /// For each step index: the steps (ids) whose outputs nothing reads once that step has read
    /// its expressions; empty lists when every output is kept.
    public let releasedAfter: [[String]]

    public init(_ playbook: Playbook) {
        let count = playbook.steps.count
        var kept = Self.names(read: playbook.outputs.map(\.value) + Self.rollbackValues(of: playbook))
        var lastReader: [String: Int] = [:]
        for (index, step) in playbook.steps.enumerated() {
            let read = Self.names(read: step.with.map(\.value) + [step.foreach, step.when].compactMap { $0 })
            if read == nil { kept = nil }
            for name in read ?? [] { lastReader[name] = index }
        }
        var released = [[String]](repeating: [], count: count)
        if let kept {
            for (index, step) in playbook.steps.enumerated() where !kept.contains(step.id) {
                released[max(index, lastReader[step.id] ?? index)].append(step.id)
            }
        }
        releasedAfter = released
    }

    /// The outputs to let go of once step `index` has read its expressions.
    public func released(after index: Int) -> [String] {
        releasedAfter.indices.contains(index) ? releasedAfter[index] : []
    }

    /// Every value `rollback:` steps evaluate, in `playbook` and its sub-playbooks (a sub-playbook's
    /// undo steps are evaluated with the whole run's outputs).
    private static func rollbackValues(of playbook: Playbook) -> [MappedValue] {
        var values: [MappedValue] = []
        for step in playbook.steps {
            for undo in step.rollback ?? [] {
                values += undo.with.map(\.value) + [undo.foreach, undo.when].compactMap { $0 }
            }
        }
        for sub in playbook.subPlaybooks.values { values += rollbackValues(of: sub) }
        return values
    }

    /// The step ids `values` read; `nil` when one of them reads `steps` as a whole.
    static func names(read values: [MappedValue]) -> Set<String>? {
        var names: Set<String> = []
        for value in values {
            for (template, _) in value.templates {
                for expression in template.expressions {
                    for reference in expression.references where reference.first == "steps" {
                        guard reference.count > 1 else { return nil }
                        names.insert(reference[1])
                    }
                }
            }
        }
        return names
    }
}
