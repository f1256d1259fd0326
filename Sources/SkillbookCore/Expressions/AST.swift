/// A unary operator: `!` (logical not, by truthiness) or `-` (numeric negation).
public enum UnaryOperator: String, Sendable, Hashable {
    case not = "!"
    case negate = "-"
}

/// A binary operator, from lowest to highest precedence: `||`, `&&`, `== !=`, `< <= > >=`,
/// `+ -`, `* / %`.
public enum BinaryOperator: String, Sendable, Hashable {
    case or = "||"
    case and = "&&"
    case equal = "=="
    case notEqual = "!="
    case less = "<"
    case lessOrEqual = "<="
    case greater = ">"
    case greaterOrEqual = ">="
    /// Adds numbers, joins strings, concatenates arrays.
    case add = "+"
    case subtract = "-"
    case multiply = "*"
    /// Integer when both sides are integers and the quotient is exact, else a number.
    case divide = "/"
    /// The remainder of truncating division (the sign of the left side).
    case remainder = "%"

    var isArithmetic: Bool {
        switch self {
        case .add, .subtract, .multiply, .divide, .remainder: true
        default: false
        }
    }

    var isOrdering: Bool {
        switch self {
        case .less, .lessOrEqual, .greater, .greaterOrEqual: true
        default: false
        }
    }
}

/// The syntax tree of one expression. Every offset is a character offset in the template text.
public indirect enum ExprNode: Sendable, Hashable {
    /// `1`, `2.5`, `'text'`, `true`, `null`.
    case literal(Value, offset: Int)
    /// `[a, b]`; the offset of `[`.
    case list([ExprNode], offset: Int)
    /// A root name: `inputs`, `steps`, `item`, `index`, `run`, `env`, `this` (others are type errors).
    case name(String, offset: Int)
    /// `base.field` or `base['field']`; the offset of the field name.
    case member(ExprNode, String, offset: Int)
    /// `base[index]`; the offset of `[`.
    case index(ExprNode, ExprNode, offset: Int)
    /// `base.*<body>`: the body (a path starting at `.element`) applied to every element of the base.
    /// The offset of `*`.
    case projection(ExprNode, body: ExprNode, offset: Int)
    /// The current element inside a projection body.
    case element(offset: Int)
    /// `name(arguments…)`; the offset of the name.
    case call(String, [ExprNode], offset: Int)
    /// The offset of the operator.
    case unary(UnaryOperator, ExprNode, offset: Int)
    /// The offset of the operator.
    case binary(BinaryOperator, ExprNode, ExprNode, offset: Int)
    /// `condition ? then : else`; the offset of `?`.
    case conditional(ExprNode, then: ExprNode, else: ExprNode, offset: Int)
    /// `base[from:to]` of an array or a string, either bound optional; the offset of `[`.
    case slice(ExprNode, from: ExprNode?, to: ExprNode?, offset: Int)

    /// The offset of the token this node is about (the operator, the field name, the `[`).
    public var offset: Int {
        switch self {
        case .literal(_, let offset), .list(_, let offset), .name(_, let offset), .member(_, _, let offset),
            .index(_, _, let offset), .projection(_, _, let offset), .element(let offset), .call(_, _, let offset),
            .unary(_, _, let offset), .binary(_, _, _, let offset), .conditional(_, _, _, let offset),
            .slice(_, _, _, let offset):
            offset
        }
    }

    /// The offset of the node's first character.
    public var startOffset: Int {
        var node = self
        while true {
            switch node {
            case .member(let base, _, _), .index(let base, _, _), .projection(let base, _, _),
                .binary(_, let base, _, _), .conditional(let base, _, _, _), .slice(let base, _, _, _):
                node = base
            default:
                return node.offset
            }
        }
    }
}

/// One `${{ … }}` of a template string.
public struct Expression: Sendable, Hashable {
    /// The text between `${{` and `}}`, trimmed.
    public let source: String
    /// Character offset of the `${{` in the template's text.
    public let offset: Int
    public let node: ExprNode

    public init(source: String, offset: Int, node: ExprNode) {
        self.source = source
        self.offset = offset
        self.node = node
    }

    /// Every rooted reference, such as `["steps", "a", "output", "items"]`, for dependency analysis.
    ///
    /// A reference is the longest run of field accesses from a root name; an index or a
    /// projection ends it (`steps.a.output.items[0].id` gives `["steps", "a", "output", "items"]`).
    /// Duplicates are listed once, in order of appearance.
    public var references: [[String]] {
        var found: [[String]] = []
        Self.collectReferences(node, into: &found)
        var seen = Set<[String]>()
        return found.filter { seen.insert($0).inserted }
    }

    private static func rootedPath(_ node: ExprNode) -> [String]? {
        var names: [String] = []
        var current = node
        while true {
            switch current {
            case .name(let name, _):
                names.append(name)
                return names.reversed()
            case .member(let base, let name, _):
                names.append(name)
                current = base
            default:
                return nil
            }
        }
    }

    private static func collectReferences(_ node: ExprNode, into found: inout [[String]]) {
        if let path = rootedPath(node) {
            found.append(path)
            return
        }
        switch node {
        case .literal, .name, .element:
            break
        case .list(let items, _), .call(_, let items, _):
            for item in items { collectReferences(item, into: &found) }
        case .member(let base, _, _), .unary(_, let base, _):
            collectReferences(base, into: &found)
        case .index(let base, let other, _), .projection(let base, let other, _), .binary(_, let base, let other, _):
            collectReferences(base, into: &found)
            collectReferences(other, into: &found)
        case .conditional(let condition, let then, let otherwise, _):
            for part in [condition, then, otherwise] { collectReferences(part, into: &found) }
        case .slice(let base, let from, let to, _):
            for part in [base, from, to].compactMap({ $0 }) { collectReferences(part, into: &found) }
        }
    }
}
