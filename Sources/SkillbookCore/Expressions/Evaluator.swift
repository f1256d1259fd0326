/// Computes an expression's value. Total: every input gives a value or an `ExpressionError`.
///
/// Missing fields, absent steps and `item` outside `foreach` are null; using a value in a way its
/// type does not allow (a field of a string, `split` of a number, an index out of range) throws.
///
/// Bounded: each node evaluated is one step of `context.stepLimit` (`Limits.expressionSteps`),
/// shared by the whole evaluation; past it, or once the task is cancelled (checked every
/// `cancellationInterval` steps), evaluation stops with an error at the expression's start
/// (`start`): nested projections multiply the work by each level's length, so a short
/// expression could otherwise run for hours, deaf to SIGTERM.
struct Evaluator {
    let context: EvaluationContext
    /// Offset of the expression's `${{`, where a step-limit or cancellation error points.
    let start: Int
    private let budget: StepBudget

    /// Steps between two looks at `Task.isCancelled`.
    static let cancellationInterval = 4096

    init(context: EvaluationContext, start: Int = 0) {
        self.context = context
        self.start = start
        budget = StepBudget(remaining: context.stepLimit)
    }

    /// The steps left; a reference, so every recursive call draws on one count.
    private final class StepBudget {
        var remaining: Int
        init(remaining: Int) { self.remaining = remaining }
    }

    private func step() throws(ExpressionError) {
        budget.remaining -= 1
        if budget.remaining < 0 {
            throw ExpressionError(stop: "the expression needs more than \(context.stepLimit) evaluation steps, the limit; "
                + "nested projections multiply their work (simplify it, or compute the value in a step)", at: start)
        }
        if budget.remaining % Self.cancellationInterval == 0, Task.isCancelled {
            throw ExpressionError(stop: "evaluation was cancelled", at: start)
        }
    }

    /// The value of `node`; `element` is the current element inside a projection body.
    func evaluate(_ node: ExprNode, element: Value? = nil) throws(ExpressionError) -> Value {
        try step()
        switch node {
        case .literal(let value, _):
            return value
        case .list(let items, _):
            var values: [Value] = []
            values.reserveCapacity(items.count)
            for item in items { values.append(try evaluate(item, element: element)) }
            return .array(values)
        case .name(let name, let offset):
            return try root(name, offset: offset)
        case .member(.member(.name("steps", _), let id, _), "output", _):
            // `steps.<id>.output` reads one step, without building the object of every step.
            return context.steps[id] ?? .null
        case .member(.name("steps", _), let id, _):
            return context.steps[id].map { .object(ValueObject([("output", $0)])) } ?? .null
        case .member(let base, let name, let offset):
            return try Self.member(of: try evaluate(base, element: element), name, offset: offset)
        case .index(let base, let index, let offset):
            let container = try evaluate(base, element: element)
            let result = try Self.index(container, by: try evaluate(index, element: element), offset: offset)
            if case .string = container { context.taint?.derive(result, from: [container]) }
            return result
        case .element:
            return element ?? .null
        case .projection(let base, let body, let offset):
            let values: [Value]
            switch try evaluate(base, element: element) {
            case .array(let items): values = items
            case .object(let object): values = object.map(\.value)
            case .null: return .null
            case let other: throw ExpressionError("cannot use '.*' on \(other.typeName)", at: offset)
            }
            var results: [Value] = []
            results.reserveCapacity(values.count)
            for value in values { results.append(try evaluate(body, element: value)) }
            return .array(results)
        case .call(let name, let arguments, let offset):
            guard let function = BuiltinFunction(rawValue: name) else {
                throw ExpressionError("unknown function '\(name)'", at: offset)
            }
            var values: [Value] = []
            for argument in arguments { values.append(try evaluate(argument, element: element)) }
            let result = try function.evaluate(values, offsets: arguments.map(\.startOffset), at: offset, in: context)
            context.taint?.derive(result, from: values)
            return result
        case .unary(.not, let operand, _):
            return .bool(!(try evaluate(operand, element: element)).isTruthy)
        case .unary(.negate, let operand, let offset):
            switch try evaluate(operand, element: element) {
            case .int(let i):
                let (negated, overflow) = 0.subtractingReportingOverflow(i)
                guard !overflow else { throw ExpressionError("-(\(i)) is too large", at: offset) }
                return .int(negated)
            case .double(let d):
                return .double(-d)
            case .null:
                return .null
            case let other:
                throw ExpressionError("operator '-' expects a number, got \(other.typeName)", at: offset)
            }
        case .binary(.and, let left, let right, _):
            guard try evaluate(left, element: element).isTruthy else { return .bool(false) }
            return .bool(try evaluate(right, element: element).isTruthy)
        case .binary(.or, let left, let right, _):
            if try evaluate(left, element: element).isTruthy { return .bool(true) }
            return .bool(try evaluate(right, element: element).isTruthy)
        case .binary(let op, let left, let right, let offset):
            let l = try evaluate(left, element: element)
            let r = try evaluate(right, element: element)
            switch op {
            case .equal: return .bool(Self.dataEqual(l, r))
            case .notEqual: return .bool(!Self.dataEqual(l, r))
            case _ where op.isArithmetic:
                let result = try Arithmetic.apply(op, l, r, offset: offset)
                context.taint?.derive(result, from: [l, r])
                return result
            default: return .bool(try Self.order(op, l, r, offset: offset))
            }
        case .conditional(let condition, let then, let otherwise, let offset):
            let value = try evaluate(condition, element: element)
            guard let chosen = Self.condition(value) else {
                throw ExpressionError("the condition of '?' must be a boolean, got \(value.typeName)", at: offset)
            }
            return try evaluate(chosen ? then : otherwise, element: element)
        case .slice(let base, let from, let to, let offset):
            let container = try evaluate(base, element: element)
            let lower = try from.map { node throws(ExpressionError) in try evaluate(node, element: element) }
            let upper = try to.map { node throws(ExpressionError) in try evaluate(node, element: element) }
            let result = try Self.slice(container, from: lower, to: upper, offset: offset)
            context.taint?.derive(result, from: [container])
            return result
        }
    }

    /// A boolean condition (`when`, `?`): a boolean, or null as false; `nil` for anything else.
    static func condition(_ value: Value) -> Bool? { value.conditionValue }

    /// `xs[from:to]` and `text[from:to]`: bounds count from the end when negative and are clamped
    /// to the length, as in Python; an absent bound is the start or the end.
    static func slice(_ container: Value, from: Value?, to: Value?, offset: Int) throws(ExpressionError) -> Value {
        func bound(_ value: Value?, _ count: Int, default fallback: Int) throws(ExpressionError) -> Int {
            guard let value, value != .null else { return fallback }
            guard let i = value.intValue else {
                throw ExpressionError("slice bounds must be integers, got \(value.typeName)", at: offset)
            }
            return Swift.min(Swift.max(i < 0 ? count + i : i, 0), count)
        }
        switch container {
        case .null:
            return .null
        case .array(let items):
            let lower = try bound(from, items.count, default: 0)
            let upper = try bound(to, items.count, default: items.count)
            return .array(lower < upper ? Array(items[lower..<upper]) : [])
        case .string(let text):
            let chars = Array(text)
            let lower = try bound(from, chars.count, default: 0)
            let upper = try bound(to, chars.count, default: chars.count)
            return .string(lower < upper ? String(chars[lower..<upper]) : "")
        default:
            throw ExpressionError("cannot slice \(container.typeName); slices take an array or a string", at: offset)
        }
    }

    private func root(_ name: String, offset: Int) throws(ExpressionError) -> Value {
        switch name {
        case "inputs":
            return .object(context.inputs)
        case "steps":
            var steps = ValueObject()
            for id in context.steps.keys.sorted() {
                steps[id] = .object(ValueObject([("output", context.steps[id] ?? .null)]))
            }
            return .object(steps)
        case "item":
            return context.item ?? .null
        case "index":
            return context.index.map(Value.int) ?? .null
        case "run":
            return .object(context.run)
        case "env":
            return .object(ValueObject(context.env.sorted { $0.key < $1.key }.map { ($0.key, Value.string($0.value)) }))
        case "this":
            return context.this.map(Value.object) ?? .null
        default:
            throw ExpressionError(
                "unknown name '\(name)'; expressions start with \(TypeChecker.rootNames)", at: offset)
        }
    }

    static func member(of value: Value, _ name: String, offset: Int) throws(ExpressionError) -> Value {
        switch value {
        case .object(let object): return object[name] ?? .null
        case .null: return .null
        default: throw ExpressionError("cannot access field '\(name)' of \(value.typeName)", at: offset)
        }
    }

    /// `list[i]` (negative counts from the end) or `object[key]`.
    static func index(_ container: Value, by index: Value, offset: Int) throws(ExpressionError) -> Value {
        switch (container, index) {
        case (.null, _):
            return .null
        case (.array(let items), _):
            guard let i = index.intValue else {
                throw ExpressionError("array index must be an integer, got \(index.typeName)", at: offset)
            }
            let position = i < 0 ? items.count + i : i
            guard position >= 0, position < items.count else {
                throw ExpressionError(
                    "index \(i) is out of range for an array of \(items.count) item\(items.count == 1 ? "" : "s")",
                    at: offset)
            }
            return items[position]
        case (.string(let text), _):
            guard let i = index.intValue else {
                throw ExpressionError("string index must be an integer, got \(index.typeName)", at: offset)
            }
            let chars = Array(text)
            let position = i < 0 ? chars.count + i : i
            guard position >= 0, position < chars.count else {
                throw ExpressionError(
                    "index \(i) is out of range for a string of \(chars.count) character\(chars.count == 1 ? "" : "s")",
                    at: offset)
            }
            return .string(String(chars[position]))
        case (.object(let object), .string(let key)):
            return object[key] ?? .null
        case (.object, _):
            throw ExpressionError("cannot index object with \(index.typeName)", at: offset)
        default:
            throw ExpressionError("cannot index \(container.typeName)", at: offset)
        }
    }

    /// Equality of data: numbers by value (`1 == 1.0`), arrays and objects member by member.
    static func dataEqual(_ a: Value, _ b: Value) -> Bool {
        switch (a, b) {
        case (.int(let x), .double(let y)), (.double(let y), .int(let x)):
            return Int(exactly: y) == x
        case (.array(let x), .array(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { dataEqual($0, $1) }
        case (.object(let x), .object(let y)):
            return x.count == y.count
                && x.allSatisfy { member in y[member.key].map { dataEqual(member.value, $0) } ?? false }
        default:
            return a == b
        }
    }

    /// `< <= > >=`: numbers numerically, strings lexicographically; false when either side is null.
    static func order(_ op: BinaryOperator, _ a: Value, _ b: Value, offset: Int) throws(ExpressionError) -> Bool {
        switch (a, b) {
        case (.null, _), (_, .null):
            return false
        case (.int(let x), .int(let y)):
            return compare(op, x, y)
        case (.string(let x), .string(let y)):
            return compare(op, x, y)
        default:
            guard let x = a.doubleValue, let y = b.doubleValue else {
                throw ExpressionError("cannot compare \(a.typeName) with \(b.typeName)", at: offset)
            }
            return compare(op, x, y)
        }
    }

    private static func compare<T: Comparable>(_ op: BinaryOperator, _ x: T, _ y: T) -> Bool {
        switch op {
        case .less: x < y
        case .lessOrEqual: x <= y
        case .greater: x > y
        case .greaterOrEqual: x >= y
        case .equal: x == y
        case .notEqual: x != y
        default: false
        }
    }
}

extension Value {
    /// The value as a condition (`when`, `c ? a : b`): a boolean, or null as false; `nil` for
    /// anything else, which is an error — a string is not "truthy" here.
    public var conditionValue: Bool? {
        switch self {
        case .bool(let b): b
        case .null: false
        default: nil
        }
    }
}
