/// Checks a decoded playbook against the skills it calls, before anything runs.
///
/// Reports every problem in one pass: unknown skills, duplicate step ids, unknown or missing
/// parameters, literal values that break a parameter's schema, expressions that refer to unknown
/// inputs, unknown or later steps or undeclared output fields, expressions whose static type does
/// not fit the parameter they are mapped into, ambiguous batching, and — as a warning — an
/// irreversible action placed before steps that can still fail.
public struct PlaybookChecker: Sendable {
    public let registry: SkillRegistry
    /// The names of `secrets:` that `from:` and `secret('NAME')` may use; `nil`: not checked.
    public var secretNames: [String]?
    private let outputTypes = OutputTypeCache()

    public init(registry: SkillRegistry, secretNames: [String]? = nil) {
        self.registry = registry
        self.secretNames = secretNames
    }

    /// What a step calls: a skill's descriptor, or a sub-playbook seen as one.
    struct Target {
        var name: String
        var parameters: Schema
        var output: ExprType
        var descriptor: SkillDescriptor?
    }

    public func check(_ playbook: Playbook) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        let inputFields = playbook.inputs.map { ObjectField(name: $0.name, type: ExprType(schema: $0.schema)) }
        let secrets = checkDeclaredSecrets(playbook, &diagnostics)
        checkInputs(playbook, secrets: secrets, &diagnostics)
        checkSecretFlows(playbook, &diagnostics)

        var scope = ExpressionScope(inputs: inputFields, steps: [:], env: playbook.env)
        scope.notificationRun = playbook.isNotification
        scope.secrets = secrets.names
        scope.secretsListedByPlaybook = secrets.listedByPlaybook
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
            scope.steps[step.id] = .init(
                skill: step.playbook.map { "playbook \($0)" } ?? step.skill, output: outputType(of: step, in: playbook),
                visibility: .later)
        }

        for step in playbook.steps {
            let isFirstWithID = firstUse[step.id] == step.location
            if isFirstWithID { scope.steps[step.id]?.visibility = .current }
            checkStep(step, in: playbook, scope: scope, &diagnostics)
            if isFirstWithID { scope.steps[step.id]?.visibility = .earlier }
        }

        for output in playbook.outputs {
            typeCheck(output.value, scope: scope, &diagnostics)
            warnAboutJinja(in: output.value, schema: nil, &diagnostics)
        }
        warnAboutIrreversibleSteps(playbook, &diagnostics)
        diagnostics += ScheduleChecker().check(playbook)
        if !playbook.isNotification {
            // Each event's steps are checked as the playbook its notification runs.
            for rule in playbook.notify { diagnostics += check(playbook.notificationPlaybook(for: rule)) }
        }
        return diagnostics
    }

    func target(of step: PlaybookStep, in playbook: Playbook) -> Target? {
        if let name = step.playbook {
            guard let sub = playbook.subPlaybooks[name] else { return nil }
            let parameters = Schema(
                type: .object, properties: sub.inputs.map { ($0.name, $0.schema) },
                required: sub.inputs.filter(\.isRequired).map(\.name), additionalProperties: false)
            let output = ExprType.object(fields: sub.outputs.map { ObjectField(name: $0.name, type: .any) })
            return Target(name: "playbook '\(name)'", parameters: parameters, output: output, descriptor: nil)
        }
        guard let skill = registry[step.skill] else { return nil }
        let descriptor = skill.descriptor
        return Target(
            name: "skill '\(descriptor.id)'", parameters: descriptor.parameters, output: outputTypes.type(of: descriptor),
            descriptor: descriptor)
    }

    /// The static type of `steps.<id>.output`: per call, batched, or one per foreach element.
    func outputType(of step: PlaybookStep, in playbook: Playbook) -> ExprType {
        guard let target = target(of: step, in: playbook) else { return .any }
        var type = target.output
        if let descriptor = target.descriptor, case .success(_?) = step.batchDriver(for: descriptor) {
            type = .batched(type)
        }
        guard step.foreach != nil else { return type }
        if step.whenIsPerItem, case .object(let fields?) = type {
            // A skipped item's entry is `{ skipped: true }`: its other fields are absent (null).
            type = .object(fields: fields + [ObjectField(name: "skipped", type: .boolean)])
        }
        return .array(type)
    }

    private func checkInputs(_ playbook: Playbook, secrets: KnownSecrets, _ diagnostics: inout [Diagnostic]) {
        var seen: Set<String> = []
        for input in playbook.inputs {
            if !seen.insert(input.name).inserted {
                diagnostics.append(.error("duplicate input '\(input.name)'", at: input.location))
            }
            checkSecretSource(input, secrets: secrets, &diagnostics)
            // A literal default, or a relative date kept for the run: checked where it is written.
            if let value = input.schema.defaultValue ?? input.defaultExpression?.literalValue {
                let checked = RelativeDateLiterals.resolvedForChecking(value, schema: input.schema)
                for violation in SchemaValidator.validate(checked, against: input.schema) {
                    diagnostics.append(
                        .error(
                            "input '\(input.name)' default \(violation.predicate)",
                            at: input.defaultSource?.location(of: violation.path) ?? input.location))
                }
            }
            if let expression = input.defaultExpression, expression.literalValue == nil {
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

    /// `from: NAME` names a secret of `secrets:` and comes with `secret: true`.
    private func checkSecretSource(_ input: PlaybookInput, secrets: KnownSecrets, _ diagnostics: inout [Diagnostic]) {
        guard let name = input.schema.secretFrom else { return }
        let location = input.schema.secretFromLocation ?? input.location
        if !input.schema.secret {
            diagnostics.append(.error("input '\(input.name)' takes its value from the secret '\(name)': add 'secret: true'", at: location))
        }
        guard let known = secrets.names, !known.contains(name) else { return }
        diagnostics.append(
            .error(
                KnownSecrets.unknown("input '\(input.name)': unknown secret '\(name)'", name, known, listedByPlaybook: secrets.listedByPlaybook),
                at: location))
    }

    private func checkStep(
        _ step: PlaybookStep, in playbook: Playbook, scope outer: ExpressionScope, _ diagnostics: inout [Diagnostic]
    ) {
        let name = "step '\(step.id)'"
        var scope = outer
        if let foreach = step.foreach {
            switch typeCheck(foreach, scope: scope, &diagnostics) {
            case .array(let element)?: scope.item = element
            case .any?, nil: scope.item = .any
            case let other?:
                let bare = foreach.literalValue?.stringValue.flatMap(Self.bareExpression)
                diagnostics.append(
                    .error(
                        "\(name) 'foreach' expects a list, got \(other)", at: foreach.location,
                        hint: bare.map { "did you mean `${{ \($0) }}`?" }))
                scope.item = .any
            }
        }
        // Inside foreach, `when` sees `item` and `index` (it is then evaluated per item).
        if let when = step.when { checkWhen(when, step: step.id, scope: scope, &diagnostics) }
        for mapping in step.with {
            let schema = target(of: step, in: playbook)?.parameters.property(mapping.name)
            warnAboutJinja(in: mapping.value, schema: schema, &diagnostics)
        }

        guard !step.skill.isEmpty || step.playbook != nil else { return }
        guard let target = target(of: step, in: playbook) else {
            if step.playbook == nil {
                let suggestion = Suggestion.closest(to: step.skill, in: registry.ids).map { "; did you mean '\($0)'?" } ?? ""
                let prefix = step.skill.split(separator: ".", maxSplits: 1).first.map(String.init) ?? ""
                let note = registry.toolListNotes[prefix].map { "; \($0)" } ?? ""
                diagnostics.append(.error("\(name) uses unknown skill '\(step.skill)'\(suggestion)\(note)", at: step.skillLocation))
            }
            for mapping in step.with { typeCheck(mapping.value, scope: scope, &diagnostics) }
            return
        }
        if let descriptor = target.descriptor, case .unavailable(let reason) = descriptor.availability {
            diagnostics.append(
                .warning("\(name) uses skill '\(descriptor.id)', which is not available here: \(reason)", at: step.skillLocation))
        }
        var driver: BatchDriver?
        if let descriptor = target.descriptor {
            switch step.batchDriver(for: descriptor) {
            case .success(let found): driver = found
            case .failure(let problem): diagnostics.append(problem)
            }
        }

        let parameters = target.parameters
        var given: Set<String> = []
        for mapping in step.with {
            if !given.insert(mapping.name).inserted { continue }
            guard var schema = parameters.property(mapping.name) else {
                if parameters.additionalProperties == false {
                    let suggestion =
                        Suggestion.closest(to: mapping.name, in: parameters.properties.map(\.name))
                        .map { "; did you mean '\($0)'?" } ?? ""
                    diagnostics.append(
                        .error("\(name): \(target.name) has no parameter '\(mapping.name)'\(suggestion)", at: mapping.keyLocation))
                }
                typeCheck(mapping.value, scope: scope, &diagnostics)
                continue
            }
            if driver?.parameter == mapping.name { schema = schema.withoutMaxItems() }
            checkValue(mapping.value, against: schema, path: [.key(mapping.name)], step: step, scope: scope, &diagnostics)
        }
        for required in parameters.required where !given.contains(required) {
            diagnostics.append(
                .error("\(name) is missing required parameter '\(required)' of \(target.name)", at: step.withLocation))
        }
        for problem in parameters.presenceProblems(given: given) {
            diagnostics.append(.error("\(name): \(target.name) \(problem)", at: step.withLocation))
        }
        if let rollback = step.rollback {
            var undoScope = outer
            undoScope.steps[step.id]?.visibility = .earlier
            undoScope.this = (
                input: .object(fields: parameters.properties.map { ObjectField(name: $0.name, type: ExprType(schema: $0.schema)) }),
                output: target.output
            )
            for undo in rollback {
                checkStep(undo, in: playbook, scope: undoScope, &diagnostics)
            }
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
            let checked = RelativeDateLiterals.resolvedForChecking(literal, schema: schema)
            for violation in SchemaValidator.validate(checked, against: schema) {
                let place = violation.path.isEmpty ? subject : "step '\(step.id)' parameter '\((path + violation.path).rendered())'"
                diagnostics.append(.error("\(place) \(violation.predicate)", at: value.location(of: violation.path)))
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

    /// An action that cannot be undone, followed by steps that can still fail, defeats rollback.
    private func warnAboutIrreversibleSteps(_ playbook: Playbook, _ diagnostics: inout [Diagnostic]) {
        // For every step, the ids of the first three later steps that roll back: one pass from the end.
        var laterRollingBack = [[String]](repeating: [], count: playbook.steps.count)
        var next: [String] = []
        for index in playbook.steps.indices.reversed() {
            laterRollingBack[index] = next
            let step = playbook.steps[index]
            if (step.onFailure ?? playbook.onFailure) == .rollback { next = Array(([step.id] + next).prefix(3)) }
        }
        for (index, step) in playbook.steps.enumerated() {
            let rollingBack = laterRollingBack[index]
            guard !rollingBack.isEmpty, step.rollback == nil, let descriptor = registry[step.skill]?.descriptor,
                descriptor.kind == .action, !descriptor.reversible
            else { continue }
            let later = rollingBack.map { "'\($0)'" }.joined(separator: ", ")
            diagnostics.append(
                .warning(
                    "step '\(step.id)' (\(descriptor.id)) cannot be undone, but later steps (\(later)) can still fail; "
                        + "move it last or give it a 'rollback'",
                    at: step.location))
        }
    }

    /// Type-checks every expression inside a mapped value; returns the static type of a single
    /// template, `nil` when there were errors or the value is not one template.
    @discardableResult
    func typeCheck(_ value: MappedValue, scope: ExpressionScope, _ diagnostics: inout [Diagnostic]) -> ExprType? {
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
        if case .literal(let literal) = value.content { return ExprType(value: literal) }
        return nil
    }
}

extension ExprType {
    /// The static type of a literal value.
    init(value: Value) {
        switch value {
        case .null: self = .null
        case .bool: self = .boolean
        case .int: self = .integer
        case .double: self = .number
        case .string: self = .string
        case .array(let items): self = .array(items.first.map(ExprType.init(value:)) ?? .any)
        case .object(let object): self = .object(fields: object.map { ObjectField(name: $0.key, type: ExprType(value: $0.value)) })
        }
    }
}
