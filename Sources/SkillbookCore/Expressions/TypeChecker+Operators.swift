/// The type rules of the operators: `+ - * / %`, comparisons, `c ? a : b` and slices.
extension TypeChecker {
    mutating func binary(_ op: BinaryOperator, _ left: ExprNode, _ right: ExprNode, offset: Int, element: ExprType?) -> ExprType {
        let leftType = type(of: left, element: element)
        // `x != null && x.f` and `x == null || x.f`: the right side sees x without null.
        let saved = notNull
        if op == .and || op == .or { notNull.formUnion(Self.nonNullPaths(if: left, is: op == .and)) }
        let rightType = type(of: right, element: element)
        notNull = saved
        if op.isArithmetic {
            if let result = Arithmetic.type(op, leftType, rightType) { return result }
            error(Arithmetic.mismatch(op, leftType.description, rightType.description, offset: offset).message, at: offset)
            return .any
        }
        if op.isOrdering, !Self.orderable(leftType, rightType) {
            error("cannot compare \(leftType) with \(rightType)", at: offset)
        }
        if op == .equal || op == .notEqual, Self.neverEqual(leftType, rightType) {
            error("cannot compare \(leftType) with \(rightType): they are never equal", at: offset)
        }
        return .boolean
    }

    /// Both branches are checked; the condition must be a boolean (or unknown, or null).
    mutating func conditional(
        _ condition: ExprNode, _ then: ExprNode, _ otherwise: ExprNode, offset: Int, element: ExprType?
    ) -> ExprType {
        let conditionType = type(of: condition, element: element)
        if ![.any, .boolean, .null].contains(conditionType) {
            error("the condition of '?' must be a boolean, got \(conditionType)", at: offset)
        }
        return ExprType.alternatives([type(of: then, element: element), type(of: otherwise, element: element)])
    }

    /// A slice of an array or a string has the base's type; bounds are integers.
    mutating func slice(_ base: ExprNode, from: ExprNode?, to: ExprNode?, offset: Int, element: ExprType?) -> ExprType {
        let baseType = type(of: base, element: element)
        for bound in [from, to].compactMap({ $0 }) {
            let boundType = type(of: bound, element: element)
            if ![.any, .integer, .null].contains(boundType) {
                error("slice bounds must be integers, got \(boundType)", at: bound.startOffset)
            }
        }
        switch baseType {
        case .any, .null, .array, .string: return baseType
        default:
            error("cannot slice \(baseType); slices take an array or a string", at: offset)
            return .any
        }
    }

    /// A boolean against a string or a number: `==` is always false, so it is a mistake
    /// (`inputs.flag == 'true'`).
    static func neverEqual(_ a: ExprType, _ b: ExprType) -> Bool {
        func scalar(_ t: ExprType) -> Bool { t == .string || t.isNumeric }
        return (a == .boolean && scalar(b)) || (b == .boolean && scalar(a))
    }
}
