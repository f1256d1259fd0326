/// Checks a decoded playbook against the skills it calls, before anything runs.
///
/// Reports every problem in one pass: unknown skills, duplicate step ids, unknown or missing
/// parameters, literal values that break a parameter's schema, expressions that refer to unknown
/// inputs, unknown or later steps or undeclared output fields, and expressions whose static type
/// does not fit the parameter they are mapped into.
public struct PlaybookChecker: Sendable {
    public let registry: SkillRegistry

    public init(registry: SkillRegistry) {
        self.registry = registry
    }

    public func check(_ playbook: Playbook) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        let inputFields = playbook.inputs.map { ObjectField(name: $0.name, type: ExprType(schema: $0.schema)) }
        checkInputs(playbook, &diagnostics)

        var scope = ExpressionScope(inputs: inputFields, steps: [:], env: playbook.env)
        var firstUse: [String: SourceLocation] = [:]
        for step in playbook.steps where !step.id.isEmpty {
            if let first = firstUse[step.id] {
                diagnostics.append(
                    .error(
                        "duplicate step id '\(step.id)' (first used at line \(first.line)); step ids must be unique",
                        at: step.location))
                continue
            }
            firstUse[step.id] = step.location
            let output = registry[step.skill].map { ExprType(schema: $0.descriptor.output) } ?? .any
            scope.steps[step.id] = .init(skill: step.skill, output: output, visibility: .later)
        }

        for step in playbook.steps {
            let isFirstWithID = firstUse[step.id] == step.location
            if isFirstWithID { scope.steps[step.id]?.visibility = .current }
            checkStep(step, scope: scope, &diagnostics)
            if isFirstWithID { scope.steps[step.id]?.visibility = .earlier }
        }

        for output in playbook.outputs {
            _ = typeCheck(output.value, scope: scope, &diagnostics)
        }
        return diagnostics
    }

    private func checkInputs(_ playbook: Playbook, _ diagnostics: inout [Diagnostic]) {
        var seen: Set<String> = []
        for input in playbook.inputs {
            if !seen.insert(input.name).inserted {
                diagnostics.append(.error("duplicate input '\(input.name)'", at: input.location))
            }
            if let value = input.schema.defaultValue, value != .null {
                for violation in SchemaValidator.validate(value, against: input.schema) {
                    diagnostics.append(
                        .error("input '\(input.name)' default \(violation.predicate)", at: input.location))
                }
            }
            if let expression = input.defaultExpression {
                var defaultsScope = ExpressionScope(inputs: nil, env: playbook.env)
                defaultsScope.hasRun = false
                let type = typeCheck(expression, scope: defaultsScope, &diagnostics)
                if let type, !type.isAssignable(to: input.schema) {
                    diagnostics.append(
                        .error(
                            "input '\(input.name)' default expects \(input.schema.typeDescription), got \(type)",
                            at: expression.location))
                }
            }
        }
    }

    private func checkStep(_ step: PlaybookStep, scope: ExpressionScope, _ diagnostics: inout [Diagnostic]) {
        let name = "step '\(step.id)'"
        if let when = step.when { _ = typeCheck(when, scope: scope, &diagnostics) }

        guard !step.skill.isEmpty else { return }
        guard let skill = registry[step.skill] else {
            let suggestion = Suggestion.closest(to: step.skill, in: registry.ids).map { "; did you mean '\($0)'?" } ?? ""
            diagnostics.append(.error("\(name) uses unknown skill '\(step.skill)'\(suggestion)", at: step.skillLocation))
            for mapping in step.with { _ = typeCheck(mapping.value, scope: scope, &diagnostics) }
            return
        }
        let descriptor = skill.descriptor
        if case .unavailable(let reason) = descriptor.availability {
            diagnostics.append(.warning("\(name) uses skill '\(descriptor.id)', which is not available here: \(reason)", at: step.skillLocation))
        }
        let parameters = descriptor.parameters
        var given: Set<String> = []
        for mapping in step.with {
            if !given.insert(mapping.name).inserted { continue }
            guard let schema = parameters.property(mapping.name) else {
                if parameters.additionalProperties == false {
                    let suggestion =
                        Suggestion.closest(to: mapping.name, in: parameters.properties.map(\.name))
                        .map { "; did you mean '\($0)'?" } ?? ""
                    diagnostics.append(
                        .error(
                            "\(name): skill '\(descriptor.id)' has no parameter '\(mapping.name)'\(suggestion)",
                            at: mapping.keyLocation))
                }
                _ = typeCheck(mapping.value, scope: scope, &diagnostics)
                continue
            }
            checkValue(mapping.value, against: schema, path: [.key(mapping.name)], step: step, scope: scope, &diagnostics)
        }
        for required in parameters.required where !given.contains(required) {
            diagnostics.append(
                .error(
                    "\(name) is missing required parameter '\(required)' of skill '\(descriptor.id)'",
                    at: step.withLocation))
        }
    }

    /// Checks a mapped value against a parameter schema, recursing into lists and objects that hold expressions.
    private func checkValue(
        _ value: MappedValue, against schema: Schema, path: [PathComponent], step: PlaybookStep,
        scope: ExpressionScope, _ diagnostics: inout [Diagnostic]
    ) {
        let subject = "step '\(step.id)' parameter '\(path.rendered())'"
        switch value.content {
        case .literal(let literal):
            for violation in SchemaValidator.validate(literal, against: schema) {
                let where_ = violation.path.isEmpty ? subject : "step '\(step.id)' parameter '\((path + violation.path).rendered())'"
                diagnostics.append(.error("\(where_) \(violation.predicate)", at: value.location(of: violation.path)))
            }
        case .template:
            guard let type = typeCheck(value, scope: scope, &diagnostics) else { return }
            if !type.isAssignable(to: schema) {
                diagnostics.append(.error("\(subject) expects \(schema.typeDescription), got \(type)", at: value.location))
            }
        case .array(let items):
            guard schema.type == nil || schema.type == .array else {
                diagnostics.append(.error("\(subject) expects \(schema.typeDescription), got array", at: value.location))
                return
            }
            for (index, item) in items.enumerated() {
                checkValue(item, against: schema.items ?? .any, path: path + [.index(index)], step: step, scope: scope, &diagnostics)
            }
        case .object(let members):
            guard schema.type == nil || schema.type == .object else {
                diagnostics.append(.error("\(subject) expects \(schema.typeDescription), got object", at: value.location))
                return
            }
            for member in members {
                let memberSchema = schema.property(member.key)
                if memberSchema == nil, schema.additionalProperties == false {
                    diagnostics.append(.error("\(subject) has unknown property '\(member.key)'", at: member.value.location))
                }
                checkValue(
                    member.value, against: memberSchema ?? .any, path: path + [.key(member.key)], step: step,
                    scope: scope, &diagnostics)
            }
            for required in schema.required where !members.contains(where: { $0.key == required }) {
                diagnostics.append(.error("\(subject) is missing required property '\(required)'", at: value.location))
            }
        }
    }

    /// Type-checks every expression inside a mapped value; returns the static type of a single
    /// template, `nil` when there were errors or the value is not one template.
    @discardableResult
    private func typeCheck(_ value: MappedValue, scope: ExpressionScope, _ diagnostics: inout [Diagnostic]) -> ExprType? {
        var result: ExprType?
        var failed = false
        for (template, holder) in value.templates {
            let (type, errors) = template.type(in: scope)
            for error in errors {
                diagnostics.append(.error(error.message, at: holder.location(ofOffset: error.offset)))
            }
            failed = failed || !errors.isEmpty
            result = type
        }
        if case .template = value.content, !failed { return result }
        return nil
    }
}
