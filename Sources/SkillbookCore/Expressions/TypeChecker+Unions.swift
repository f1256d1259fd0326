/// Union types in the checker: fields of unions, ordering across alternatives, and the paths a
/// condition proves not null (for narrowing on the right of `&&` and `||`).
extension TypeChecker {
    /// A field of a union: an error only when it is certain that no alternative has it; the type
    /// is that of the alternatives that have it, or null where another alternative may not.
    mutating func member(ofAlternatives members: [ExprType], _ type: ExprType, _ name: String, offset: Int) -> ExprType {
        var found: [ExprType] = []
        var missing = false
        var objects: [[ObjectField]] = []
        for member in members {
            switch member {
            case .object(nil): found.append(.any)
            case .object(let fields?):
                objects.append(fields)
                if let field = fields.first(where: { $0.name == name }) { found.append(field.type) } else { missing = true }
            default: missing = true
            }
        }
        guard !found.isEmpty else {
            if objects.isEmpty {
                error("cannot access field '\(name)' of \(type)", at: offset)
            } else {
                let names = objects.flatMap { $0.map(\.name) }.reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
                error(Self.withHint("no field '\(name)' in any alternative of \(type) (fields: \(names.joined(separator: ", ")))", name, names), at: offset)
            }
            return .any
        }
        return ExprType.alternatives(found + (missing ? [.null] : []))
    }

    /// Whether `<` may compare some value of `a` with some value of `b` (null compares as false).
    static func orderable(_ a: ExprType, _ b: ExprType) -> Bool {
        let left = a.withoutNull.members
        let right = b.withoutNull.members
        return left.contains { x in
            right.contains { y in
                x == .any || y == .any || x == .null || y == .null || (x.isNumeric && y.isNumeric)
                    || (x == .string && y == .string)
            }
        }
    }

    /// `inputs.a.b` for a path of names and fields; `nil` for anything else.
    static func pathKey(_ node: ExprNode) -> String? {
        switch node {
        case .name(let name, _): name
        case .member(let base, let name, _): pathKey(base).map { "\($0).\(name)" }
        default: nil
        }
    }

    /// The paths that cannot be null once `condition` is known to be `holds`: `p != null`, `p`
    /// alone (null is falsy) and `&&` of those when it holds; `p == null`, `!p` and `||` of those when it fails.
    static func nonNullPaths(if condition: ExprNode, is holds: Bool) -> Set<String> {
        switch condition {
        case .binary(let op, let left, let right, _) where op == .notEqual || op == .equal:
            guard (op == .notEqual) == holds else { return [] }
            if case .literal(.null, _) = right, let path = pathKey(left) { return [path] }
            if case .literal(.null, _) = left, let path = pathKey(right) { return [path] }
            return []
        case .binary(.and, let left, let right, _) where holds,
            .binary(.or, let left, let right, _) where !holds:
            return nonNullPaths(if: left, is: holds).union(nonNullPaths(if: right, is: holds))
        case .unary(.not, let operand, _):
            return nonNullPaths(if: operand, is: !holds)
        default:
            return holds ? pathKey(condition).map { [$0] } ?? [] : []
        }
    }
}
