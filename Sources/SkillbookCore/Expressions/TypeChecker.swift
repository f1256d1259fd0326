/// Finds the static type of an expression and every error in it.
///
/// After an error the offending part is `.any`, so one mistake is reported once.
struct TypeChecker {
    static let rootNames = "inputs, steps, item, index, run, env or this"
    static let runFields = [
        ObjectField(name: "id", type: .string), ObjectField(name: "playbook", type: .string),
        ObjectField(name: "started", type: .string), ObjectField(name: "workspace", type: .string),
    ]

    let scope: ExpressionScope
    private(set) var errors: [ExpressionError] = []
    /// Paths (`inputs.limit`) known not to be null here: the left side of `&&` compared them with
    /// `!= null` (or the left side of `||` with `== null`).
    var notNull: Set<String> = []

    init(scope: ExpressionScope) {
        self.scope = scope
    }

    /// Where a path has got to: roots with their own messages, or a plain value.
    private enum PathState {
        case value(ExprType)
        case inputs([ObjectField])
        case steps(offset: Int)
        case step(id: String, ExpressionScope.StepBinding, offset: Int)
        case stepOutput(skill: String, ExprType)
        case env
    }

    mutating func error(_ message: String, at offset: Int) {
        errors.append(ExpressionError(message, at: offset))
    }

    static func withHint(_ message: String, _ word: String, _ candidates: some Sequence<String>) -> String {
        Suggestion.hint(for: word, in: candidates).map { "\(message); \($0)" } ?? message
    }

    /// The type of `node`; `element` is the element type inside a projection body.
    mutating func type(of node: ExprNode, element: ExprType? = nil) -> ExprType {
        switch node {
        case .literal(let value, _):
            return Self.type(of: value)
        case .list(let items, _):
            var types: [ExprType] = []
            for item in items { types.append(type(of: item, element: element)) }
            return .array(types.isEmpty ? .any : ExprType.union(of: types))
        case .name, .member, .index:
            return finish(resolve(node, element: element))
        case .element:
            return element ?? .any
        case .projection(let base, let body, let offset):
            let baseType = type(of: base, element: element)
            let elementType: ExprType
            switch baseType {
            case .any, .object(fields: nil): elementType = .any
            case .array(let e): elementType = e
            case .object(let fields?): elementType = ExprType.union(of: fields.map(\.type))
            default:
                error("cannot use '.*' on \(baseType)", at: offset)
                _ = type(of: body, element: .any)
                return .any
            }
            return .array(type(of: body, element: elementType))
        case .call(let name, let arguments, let offset):
            return call(name, arguments, offset: offset, element: element)
        case .unary(.not, let operand, _):
            _ = type(of: operand, element: element)
            return .boolean
        case .unary(.negate, let operand, let offset):
            let operandType = type(of: operand, element: element)
            switch operandType {
            case .any, .integer, .number: return operandType
            default:
                error("operator '-' expects a number, got \(operandType)", at: offset)
                return .any
            }
        case .binary(let op, let left, let right, let offset):
            return binary(op, left, right, offset: offset, element: element)
        case .conditional(let condition, let then, let otherwise, let offset):
            return conditional(condition, then, otherwise, offset: offset, element: element)
        case .slice(let base, let from, let to, let offset):
            return slice(base, from: from, to: to, offset: offset, element: element)
        }
    }

    static func type(of value: Value) -> ExprType {
        switch value {
        case .null: .null
        case .bool: .boolean
        case .int: .integer
        case .double: .number
        case .string: .string
        case .array(let items): .array(items.isEmpty ? .any : ExprType.union(of: items.map(type(of:))))
        case .object(let object): .object(fields: object.map { ObjectField(name: $0.key, type: type(of: $0.value)) })
        }
    }

    // MARK: Paths

    private mutating func resolve(_ node: ExprNode, element: ExprType?) -> PathState {
        let state = resolveUnnarrowed(node, element: element)
        if case .value(let type) = state, let path = Self.pathKey(node), notNull.contains(path) {
            return .value(type.withoutNull)
        }
        return state
    }

    private mutating func resolveUnnarrowed(_ node: ExprNode, element: ExprType?) -> PathState {
        switch node {
        case .name(let name, let offset):
            return root(name, offset: offset)
        case .member(let base, let name, let offset):
            return member(resolve(base, element: element), name, offset: offset)
        case .index(let base, let index, let offset):
            let state = resolve(base, element: element)
            let indexType = type(of: index, element: element)
            return self.index(state, indexType, offset: offset)
        default:
            return .value(type(of: node, element: element))
        }
    }

    private mutating func root(_ name: String, offset: Int) -> PathState {
        switch name {
        case "inputs":
            guard let inputs = scope.inputs else {
                error("inputs are not available here", at: offset)
                return .value(.any)
            }
            return .inputs(inputs)
        case "steps":
            return .steps(offset: offset)
        case "item":
            guard let item = scope.item else {
                error("item is only available inside foreach", at: offset)
                return .value(.any)
            }
            return .value(item)
        case "index":
            guard scope.item != nil else {
                error("index is only available inside foreach", at: offset)
                return .value(.any)
            }
            return .value(.integer)
        case "run":
            guard scope.hasRun else {
                error("run is not available here", at: offset)
                return .value(.any)
            }
            return .value(.object(fields: scope.notificationRun ? NotificationSubject.fields : Self.runFields))
        case "env":
            return .env
        case "this":
            guard let this = scope.this else {
                error("this is only available in rollback steps", at: offset)
                return .value(.any)
            }
            return .value(
                .object(fields: [ObjectField(name: "input", type: this.input), ObjectField(name: "output", type: this.output)]))
        default:
            error("unknown name '\(name)'; expressions start with \(Self.rootNames)", at: offset)
            return .value(.any)
        }
    }

    private mutating func member(_ state: PathState, _ name: String, offset: Int) -> PathState {
        switch state {
        case .value(let type):
            return .value(member(of: type, name, offset: offset))
        case .inputs(let fields):
            if let field = fields.first(where: { $0.name == name }) { return .value(field.type) }
            error(Self.withHint("unknown input '\(name)'", name, fields.map(\.name)), at: offset)
            return .value(.any)
        case .steps:
            guard let binding = scope.steps[name] else {
                error(Self.withHint("unknown step '\(name)'", name, scope.steps.keys.sorted()), at: offset)
                return .value(.any)
            }
            switch binding.visibility {
            case .earlier:
                return .step(id: name, binding, offset: offset)
            case .current:
                error("step '\(name)' cannot use its own output", at: offset)
            case .later:
                error("step '\(name)' runs later; only earlier steps' outputs can be used", at: offset)
            }
            return .value(.any)
        case .step(let id, let binding, _):
            guard name == "output" else {
                let hint = name == "outputs" ? "; did you mean 'output'?" : ""
                error("expected 'steps.\(id).output'\(hint)", at: offset)
                return .value(.any)
            }
            return .stepOutput(skill: binding.skill, binding.output)
        case .stepOutput(let skill, let type):
            if case .object(let fields?) = type, !fields.contains(where: { $0.name == name }) {
                let list = fields.isEmpty ? "no output fields" : "it has: " + fields.map(\.name).joined(separator: ", ")
                error("skill '\(skill)' has no output field '\(name)'; \(list)", at: offset)
                return .value(.any)
            }
            return .value(member(of: type, name, offset: offset))
        case .env:
            guard scope.env.contains(name) else {
                error("env '\(name)' is not declared", at: offset)
                return .value(.any)
            }
            return .value(.string)
        }
    }

    private mutating func member(of type: ExprType, _ name: String, offset: Int) -> ExprType {
        switch type {
        case .any, .object(fields: nil):
            return .any
        case .union(let members):
            return member(ofAlternatives: members, type, name, offset: offset)
        case .object(let fields?):
            if let field = fields.first(where: { $0.name == name }) { return field.type }
            let list = fields.isEmpty ? "no fields" : "fields: " + fields.map(\.name).joined(separator: ", ")
            error("no field '\(name)' in object with \(list)", at: offset)
            return .any
        default:
            error("cannot access field '\(name)' of \(type)", at: offset)
            return .any
        }
    }

    private mutating func index(_ state: PathState, _ indexType: ExprType, offset: Int) -> PathState {
        switch state {
        case .value(let type), .stepOutput(_, let type):
            return .value(index(of: type, indexType, offset: offset))
        case .inputs(let fields):
            return .value(index(of: .object(fields: fields), indexType, offset: offset))
        case .steps:
            error("expected 'steps.<id>.output'", at: offset)
            return .value(.any)
        case .step(let id, _, _):
            error("expected 'steps.\(id).output'", at: offset)
            return .value(.any)
        case .env:
            guard indexType == .any || indexType == .string else {
                error("cannot index object with \(indexType)", at: offset)
                return .value(.any)
            }
            return .value(.string)
        }
    }

    private mutating func index(of type: ExprType, _ indexType: ExprType, offset: Int) -> ExprType {
        switch type {
        case .any:
            return .any
        case .union(let members):
            let indexable = members.filter { if case .array = $0 { true } else if case .object = $0 { true } else { false } }
            guard !indexable.isEmpty else {
                error("cannot index \(type)", at: offset)
                return .any
            }
            let results = indexable.map { index(of: $0, indexType, offset: offset) }
            return ExprType.alternatives(results + (indexable.count < members.count ? [.null] : []))
        case .array(let element):
            guard indexType == .any || indexType.isNumeric else {
                error("array index must be an integer, got \(indexType)", at: offset)
                return .any
            }
            return element
        case .string:
            guard indexType == .any || indexType.isNumeric else {
                error("string index must be an integer, got \(indexType)", at: offset)
                return .any
            }
            return .string
        case .object:
            guard indexType == .any || indexType == .string else {
                error("cannot index object with \(indexType)", at: offset)
                return .any
            }
            return .any
        default:
            error("cannot index \(type)", at: offset)
            return .any
        }
    }

    /// The type of a finished path; roots that are not values by themselves are errors.
    private mutating func finish(_ state: PathState) -> ExprType {
        switch state {
        case .value(let type), .stepOutput(_, let type):
            return type
        case .inputs(let fields):
            return .object(fields: fields)
        case .steps(let offset):
            error("expected 'steps.<id>.output'", at: offset)
            return .any
        case .step(let id, _, let offset):
            error("expected 'steps.\(id).output'", at: offset)
            return .any
        case .env:
            return .object(fields: scope.env.map { ObjectField(name: $0, type: .string) })
        }
    }

    // MARK: Calls

    private mutating func call(_ name: String, _ arguments: [ExprNode], offset: Int, element: ExprType?) -> ExprType {
        var types: [ExprType] = []
        for argument in arguments { types.append(type(of: argument, element: element)) }
        guard let function = BuiltinFunction(rawValue: name) else {
            error(BuiltinFunction.unknownMessage(name), at: offset)
            return .any
        }
        guard (function.requiredCount...function.parameters.count).contains(arguments.count) else {
            error(function.arityMessage(got: arguments.count), at: offset)
            return function.resultType(types)
        }
        var fits = true
        for (i, argumentType) in types.enumerated() where !function.parameters[i].accepts(argumentType) {
            var message = function.argumentMessage(i, got: argumentType.description)
            if argumentType.isNullable, function.parameters[i].accepts(argumentType.withoutNull) {
                message += "; it may be null: use default(…, …) or check it with '!= null &&' first"
            }
            error(message, at: arguments[i].startOffset)
            fits = false
        }
        if fits, let problem = function.elementProblem(types) {
            error(problem, at: arguments[0].startOffset)
        }
        if function == .default { return ExprType.defaulted(types[0], types[1]) }
        if function == .secret { checkSecretName(arguments[0]) }
        return function.resultType(types)
    }

    /// `secret('NAME')` names a secret of `secrets:` with a literal text.
    private mutating func checkSecretName(_ argument: ExprNode) {
        guard case .literal(.string(let name), let offset) = argument else {
            error("function 'secret' takes the secret's name as a quoted text, like secret('api_token')", at: argument.startOffset)
            return
        }
        guard let known = scope.secrets, !known.contains(name) else { return }
        error(KnownSecrets.unknown("unknown secret '\(name)'", name, known, listedByPlaybook: scope.secretsListedByPlaybook), at: offset)
    }
}
