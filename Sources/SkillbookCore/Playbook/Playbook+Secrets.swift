extension Playbook {
    /// Every secret name the playbook and its sub-playbooks read from a provider: inputs'
    /// `from:` and `secret('NAME')` in any expression, each once, in order of appearance.
    public var secretNames: [String] {
        var names: [String] = []
        collectSecretNames(into: &names)
        var seen: Set<String> = []
        return names.filter { seen.insert($0).inserted }
    }

    private func collectSecretNames(into names: inout [String]) {
        names += inputs.compactMap(\.schema.secretFrom)
        func visit(_ steps: [PlaybookStep]) {
            for step in steps {
                for mapping in step.with { names += mapping.value.secretNames }
                names += (step.when?.secretNames ?? []) + (step.foreach?.secretNames ?? [])
                visit(step.rollback ?? [])
            }
        }
        visit(steps)
        for output in outputs { names += output.value.secretNames }
        for name in subPlaybooks.keys.sorted() { subPlaybooks[name]?.collectSecretNames(into: &names) }
    }
}

extension MappedValue {
    /// The names `secret('NAME')` reads in this value's expressions.
    public var secretNames: [String] {
        templates.flatMap { $0.template.secretNames }
    }

    /// Whether an expression here reads a secret: a secret input, `secret('NAME')`, or `this`
    /// (`secretInputs` names the playbook's secret inputs).
    public func readsSecret(secretInputs: Set<String>) -> String? {
        for (template, _) in templates {
            for segment in template.segments {
                guard case .expression(let expression) = segment else { continue }
                if let name = expression.node.secretNames.first { return "secret('\(name)')" }
                for reference in expression.references where reference.count > 1 && reference[0] == "inputs" {
                    if secretInputs.contains(reference[1]) { return "inputs.\(reference[1])" }
                }
            }
        }
        return nil
    }
}

extension TemplateString {
    var secretNames: [String] {
        segments.flatMap { segment -> [String] in
            guard case .expression(let expression) = segment else { return [] }
            return expression.node.secretNames
        }
    }
}

extension ExprNode {
    /// The literal names of `secret('NAME')` calls in this expression.
    var secretNames: [String] {
        var names: [String] = []
        Self.collectSecretNames(self, into: &names)
        return names
    }

    private static func collectSecretNames(_ node: ExprNode, into names: inout [String]) {
        switch node {
        case .literal, .name, .element:
            break
        case .call(let function, let items, _):
            if function == BuiltinFunction.secret.rawValue, case .literal(.string(let name), _)? = items.first { names.append(name) }
            for item in items { collectSecretNames(item, into: &names) }
        case .list(let items, _):
            for item in items { collectSecretNames(item, into: &names) }
        case .member(let base, _, _), .unary(_, let base, _):
            collectSecretNames(base, into: &names)
        case .index(let base, let other, _), .projection(let base, let other, _), .binary(_, let base, let other, _):
            collectSecretNames(base, into: &names)
            collectSecretNames(other, into: &names)
        case .conditional(let condition, let then, let otherwise, _):
            for part in [condition, then, otherwise] { collectSecretNames(part, into: &names) }
        case .slice(let base, let from, let to, _):
            for part in [base, from, to].compactMap({ $0 }) { collectSecretNames(part, into: &names) }
        }
    }
}
