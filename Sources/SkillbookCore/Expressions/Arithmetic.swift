import Foundation

/// The arithmetic operators on values: `+ - * / %`.
///
/// Integers stay integers where the result is exact (`7 / 2` is `3.5`, `6 / 3` is `2`); an
/// integer result that does not fit in 64 bits is an error, never a silent wrap. `+` also joins
/// two strings and concatenates two arrays. Anything else (null included) is an error naming the
/// operator and both types.
enum Arithmetic {
    static func apply(_ op: BinaryOperator, _ a: Value, _ b: Value, offset: Int) throws(ExpressionError) -> Value {
        switch (op, a, b) {
        case (.add, .string(let x), .string(let y)): return .string(x + y)
        case (.add, .array(let x), .array(let y)): return .array(x + y)
        case (_, .int(let x), .int(let y)): return try integer(op, x, y, offset: offset)
        default:
            guard let x = a.doubleValue, let y = b.doubleValue else { throw mismatch(op, a.typeName, b.typeName, offset: offset) }
            return try number(op, x, y, offset: offset)
        }
    }

    /// `operator '+' expects two numbers, two strings or two arrays, got string and integer`.
    static func mismatch(_ op: BinaryOperator, _ a: String, _ b: String, offset: Int) -> ExpressionError {
        let expected = op == .add ? "two numbers, two strings or two arrays" : "two numbers"
        return ExpressionError("operator '\(op.rawValue)' expects \(expected), got \(a) and \(b)", at: offset)
    }

    private static func integer(_ op: BinaryOperator, _ x: Int, _ y: Int, offset: Int) throws(ExpressionError) -> Value {
        let result: (partialValue: Int, overflow: Bool)
        switch op {
        case .add: result = x.addingReportingOverflow(y)
        case .subtract: result = x.subtractingReportingOverflow(y)
        case .multiply: result = x.multipliedReportingOverflow(by: y)
        case .divide:
            guard y != 0 else { throw ExpressionError("division by zero", at: offset) }
            if x % y != 0 || (x == .min && y == -1) { return try number(op, Double(x), Double(y), offset: offset) }
            return .int(x / y)
        case .remainder:
            guard y != 0 else { throw ExpressionError("division by zero", at: offset) }
            result = x.remainderReportingOverflow(dividingBy: y)
        default:
            throw mismatch(op, "integer", "integer", offset: offset)
        }
        guard !result.overflow else {
            throw ExpressionError("\(x) \(op.rawValue) \(y) does not fit in a 64-bit integer", at: offset)
        }
        return .int(result.partialValue)
    }

    private static func number(_ op: BinaryOperator, _ x: Double, _ y: Double, offset: Int) throws(ExpressionError) -> Value {
        let result: Double
        switch op {
        case .add: result = x + y
        case .subtract: result = x - y
        case .multiply: result = x * y
        case .divide:
            guard y != 0 else { throw ExpressionError("division by zero", at: offset) }
            result = x / y
        case .remainder:
            guard y != 0 else { throw ExpressionError("division by zero", at: offset) }
            result = x.truncatingRemainder(dividingBy: y)
        default:
            throw mismatch(op, "number", "number", offset: offset)
        }
        guard result.isFinite else { throw ExpressionError("the result of '\(op.rawValue)' is too large", at: offset) }
        return .double(result)
    }

    /// The static type of `a op b`; `nil` when the types cannot meet.
    static func type(_ op: BinaryOperator, _ a: ExprType, _ b: ExprType) -> ExprType? {
        switch (a, b) {
        case (.any, .any): return .any
        case (.any, let known), (let known, .any):
            // The unknown side must be of the known side's kind for the operator to work.
            switch known {
            case .integer, .number: return op == .divide || known == .number ? .number : .any
            case .string where op == .add: return .string
            case .array where op == .add: return .array(.any)
            default: break
            }
        case (.integer, .integer): return op == .divide ? .number : .integer
        case (.integer, .number), (.number, .integer), (.number, .number): return .number
        case (.string, .string) where op == .add: return .string
        case (.array(let x), .array(let y)) where op == .add: return .array(ExprType.union(x, y))
        default: break
        }
        return nil
    }
}

/// `sum`, `min`, `max`, `sort` and `round` on values.
enum ListMath {
    /// An integer while every element is one and the total fits; a number otherwise.
    static func sum(_ items: [Value], at offset: Int) throws(ExpressionError) -> Value {
        var total: Value = .int(0)
        for (index, item) in items.enumerated() {
            guard item.doubleValue != nil else {
                throw ExpressionError(
                    "function 'sum' expects an array of numbers, found \(item.typeName) at index \(index)", at: offset)
            }
            total = try Arithmetic.apply(.add, total, item, offset: offset)
        }
        return total
    }

    /// Numbers by value or strings in code-point order; a mix is an error.
    static func sorted(_ items: [Value], function: String, at offset: Int) throws(ExpressionError) -> [Value] {
        if items.allSatisfy({ $0.doubleValue != nil }) {
            return items.enumerated().sorted { l, r in
                let (x, y) = (l.element.doubleValue ?? 0, r.element.doubleValue ?? 0)
                return x < y || (x == y && l.offset < r.offset)
            }.map(\.element)
        }
        if items.allSatisfy({ $0.stringValue != nil }) {
            return items.sorted { ($0.stringValue ?? "").unicodeScalars.lexicographicallyPrecedes(($1.stringValue ?? "").unicodeScalars) }
        }
        let kinds = Set(items.map(\.typeName)).sorted().joined(separator: ", ")
        throw ExpressionError(
            "function '\(function)' expects an array of numbers or of strings, got an array of \(kinds)", at: offset)
    }

    /// Half away from zero: an integer without `digits`, a number with that many decimals.
    static func round(_ value: Value, digits: Int?, at offset: Int) throws(ExpressionError) -> Value {
        guard let x = value.doubleValue else { return value }
        guard let digits else {
            if case .int = value { return value }
            let rounded = x.rounded(.toNearestOrAwayFromZero)
            guard let integer = Int(exactly: rounded) else {
                throw ExpressionError("round(\(JSONText.number(x))) does not fit in a 64-bit integer", at: offset)
            }
            return .int(integer)
        }
        guard (0...15).contains(digits) else {
            throw ExpressionError("function 'round' takes 0 to 15 decimal digits, got \(digits)", at: offset)
        }
        let scale = pow(10, Double(digits))
        return .double((x * scale).rounded(.toNearestOrAwayFromZero) / scale)
    }
}
