/// Builds the syntax tree of one expression from its tokens (the last token is `.end`).
///
/// Grammar, from lowest precedence:
/// ```
/// expression := or ('?' expression ':' expression)?
/// or       := and ('||' and)*
/// and      := equality ('&&' equality)*
/// equality := ordering (('==' | '!=') ordering)*
/// ordering := additive (('<' | '<=' | '>' | '>=') additive)*
/// additive := multiplicative (('+' | '-') multiplicative)*
/// multiplicative := unary (('*' | '/' | '%') unary)*
/// unary    := ('!' | '-') unary | postfix
/// postfix  := primary ('.' name | '[' expression ']' | '[' expression? ':' expression? ']' | '.' '*' path)*
/// primary  := literal | '[' (expression (',' expression)*)? ']' | '(' expression ')'
///           | name '(' arguments ')' | name
/// ```
/// A `-` between two name characters belongs to the name (`steps.fetch-pages`): write `a - 1`.
/// Trees deeper than `maximumDepth` are rejected, so checking and evaluating never recurse without bound.
struct Parser {
    static let maximumDepth = Limits.expressionDepth

    /// A node with the depth of its tree.
    private struct Parsed {
        var node: ExprNode
        var depth: Int
    }

    private let tokens: [Token]
    private var position = 0
    private var nesting = 0

    private init(tokens: [Token]) {
        self.tokens = tokens
    }

    static func parse(_ tokens: [Token]) throws(ExpressionError) -> ExprNode {
        guard tokens.last?.kind == .end else {
            throw ExpressionError("unterminated expression: '${{' without '}}'", at: tokens.first?.offset ?? 0)
        }
        var parser = Parser(tokens: tokens)
        let parsed = try parser.parseExpression()
        let next = parser.current
        guard next.kind == .end else {
            throw ExpressionError("unexpected \(next.quoted)", at: next.offset)
        }
        return parsed.node
    }

    // The last token is `.end`, and parsing never moves past it.
    private var current: Token { tokens[min(position, tokens.count - 1)] }

    private mutating func advance() {
        if position < tokens.count - 1 { position += 1 }
    }

    private func unexpected() -> ExpressionError {
        ExpressionError("unexpected \(current.quoted)", at: current.offset)
    }

    private func checked(_ node: ExprNode, depth: Int, at offset: Int) throws(ExpressionError) -> Parsed {
        guard depth <= Self.maximumDepth else {
            throw ExpressionError("expression is nested too deeply", at: offset)
        }
        return Parsed(node: node, depth: depth)
    }

    /// How many precedence levels binary operators have (see `binaryOperator(_:level:)`).
    private static let levelCount = 6

    /// The binary operator `kind` is at precedence `level` (0 is the lowest), or nil. A switch,
    /// not a table of dictionaries: building one keyed by `Token.Kind` made the runtime look up
    /// its `Hashable` conformance by scanning the binary's records, at every process's first
    /// expression.
    private static func binaryOperator(_ kind: Token.Kind, level: Int) -> BinaryOperator? {
        switch (level, kind) {
        case (0, .or): .or
        case (1, .and): .and
        case (2, .equal): .equal
        case (2, .notEqual): .notEqual
        case (3, .less): .less
        case (3, .lessOrEqual): .lessOrEqual
        case (3, .greater): .greater
        case (3, .greaterOrEqual): .greaterOrEqual
        case (4, .plus): .add
        case (4, .minus): .subtract
        case (5, .star): .multiply
        case (5, .slash): .divide
        case (5, .percent): .remainder
        default: nil
        }
    }

    /// Guards recursion before it happens: each nested `(`, `[`, call, unary operator or
    /// projection passes through here.
    private mutating func enter() throws(ExpressionError) {
        nesting += 1
        guard nesting <= Self.maximumDepth else {
            throw ExpressionError("expression is nested too deeply", at: current.offset)
        }
    }

    private mutating func parseExpression() throws(ExpressionError) -> Parsed {
        try enter()
        defer { nesting -= 1 }
        let condition = try parseBinary(level: 0)
        guard current.kind == .question else { return condition }
        let offset = current.offset
        advance()
        let then = try parseExpression()
        guard current.kind == .colon else {
            throw ExpressionError("expected ':' of 'condition ? then : else'", at: current.offset)
        }
        advance()
        let otherwise = try parseExpression()
        return try checked(
            .conditional(condition.node, then: then.node, else: otherwise.node, offset: offset),
            depth: max(condition.depth, then.depth, otherwise.depth) + 1, at: offset)
    }

    private mutating func parseBinary(level: Int) throws(ExpressionError) -> Parsed {
        guard level < Self.levelCount else { return try parseUnary() }
        var left = try parseBinary(level: level + 1)
        while let op = Self.binaryOperator(current.kind, level: level) {
            let offset = current.offset
            advance()
            let right = try parseBinary(level: level + 1)
            left = try checked(
                .binary(op, left.node, right.node, offset: offset), depth: max(left.depth, right.depth) + 1,
                at: offset)
        }
        return left
    }

    private mutating func parseUnary() throws(ExpressionError) -> Parsed {
        let token = current
        let op: UnaryOperator
        switch token.kind {
        case .not: op = .not
        case .minus: op = .negate
        default: return try parsePostfix()
        }
        advance()
        try enter()
        defer { nesting -= 1 }
        let operand = try parseUnary()
        // `-2` and `-1.5` are literals.
        if op == .negate {
            switch operand.node {
            case .literal(.int(let i), _):
                return Parsed(node: .literal(.int(0 &- i), offset: token.offset), depth: operand.depth)
            case .literal(.double(let d), _):
                return Parsed(node: .literal(.double(-d), offset: token.offset), depth: operand.depth)
            default: break
            }
        }
        return try checked(.unary(op, operand.node, offset: token.offset), depth: operand.depth + 1, at: token.offset)
    }

    private mutating func parsePostfix() throws(ExpressionError) -> Parsed {
        try parsePath(from: try parsePrimary())
    }

    /// Field accesses, indexes and projections after `base`.
    private mutating func parsePath(from base: Parsed) throws(ExpressionError) -> Parsed {
        var result = base
        while true {
            switch current.kind {
            case .dot:
                advance()
                let token = current
                switch token.kind {
                case .identifier(let name):
                    advance()
                    result = try checked(
                        .member(result.node, name, offset: token.offset), depth: result.depth + 1, at: token.offset)
                case .star:
                    advance()
                    try enter()
                    defer { nesting -= 1 }
                    let body = try parsePath(from: Parsed(node: .element(offset: token.offset), depth: 1))
                    return try checked(
                        .projection(result.node, body: body.node, offset: token.offset),
                        depth: max(result.depth, body.depth) + 1, at: token.offset)
                default:
                    throw ExpressionError("expected a field name after '.'", at: token.offset)
                }
            case .leftBracket:
                let offset = current.offset
                advance()
                var from: Parsed?
                if current.kind != .colon { from = try parseExpression() }
                if current.kind == .colon {
                    advance()
                    var to: Parsed?
                    if current.kind != .rightBracket { to = try parseExpression() }
                    guard current.kind == .rightBracket else { throw ExpressionError("expected ']'", at: current.offset) }
                    advance()
                    let depth = max(result.depth, from?.depth ?? 0, to?.depth ?? 0) + 1
                    result = try checked(.slice(result.node, from: from?.node, to: to?.node, offset: offset), depth: depth, at: offset)
                    continue
                }
                guard let index = from, current.kind == .rightBracket else {
                    throw ExpressionError("expected ']'", at: current.offset)
                }
                advance()
                let node: ExprNode =
                    if case .literal(.string(let key), let keyOffset) = index.node {
                        .member(result.node, key, offset: keyOffset)
                    } else {
                        .index(result.node, index.node, offset: offset)
                    }
                result = try checked(node, depth: max(result.depth, index.depth) + 1, at: offset)
            default:
                return result
            }
        }
    }

    private mutating func parsePrimary() throws(ExpressionError) -> Parsed {
        let token = current
        switch token.kind {
        case .integer(let i):
            advance()
            return Parsed(node: .literal(.int(i), offset: token.offset), depth: 1)
        case .decimal(let d):
            advance()
            return Parsed(node: .literal(.double(d), offset: token.offset), depth: 1)
        case .string(let s):
            advance()
            return Parsed(node: .literal(.string(s), offset: token.offset), depth: 1)
        case .identifier(let name):
            advance()
            switch name {
            case "true": return Parsed(node: .literal(.bool(true), offset: token.offset), depth: 1)
            case "false": return Parsed(node: .literal(.bool(false), offset: token.offset), depth: 1)
            case "null": return Parsed(node: .literal(.null, offset: token.offset), depth: 1)
            default: break
            }
            guard current.kind == .leftParen else { return Parsed(node: .name(name, offset: token.offset), depth: 1) }
            advance()
            let (arguments, depth) = try parseList(closing: .rightParen, closingText: ")", opening: token.offset)
            return try checked(.call(name, arguments, offset: token.offset), depth: depth + 1, at: token.offset)
        case .leftBracket:
            advance()
            let (items, depth) = try parseList(closing: .rightBracket, closingText: "]", opening: token.offset)
            return try checked(.list(items, offset: token.offset), depth: depth + 1, at: token.offset)
        case .leftParen:
            advance()
            let inner = try parseExpression()
            guard current.kind == .rightParen else { throw ExpressionError("expected ')'", at: current.offset) }
            advance()
            return try checked(inner.node, depth: inner.depth + 1, at: token.offset)
        default:
            throw unexpected()
        }
    }

    /// Comma-separated expressions up to `closing`, which is consumed; their greatest depth.
    private mutating func parseList(
        closing: Token.Kind, closingText: String, opening: Int
    ) throws(ExpressionError) -> ([ExprNode], Int) {
        var items: [ExprNode] = []
        var depth = 0
        if current.kind == closing {
            advance()
            return (items, depth)
        }
        while true {
            let item = try parseExpression()
            items.append(item.node)
            depth = max(depth, item.depth)
            _ = try checked(item.node, depth: depth + 1, at: opening)
            switch current.kind {
            case .comma:
                advance()
            case closing:
                advance()
                return (items, depth)
            default:
                throw ExpressionError("expected ',' or '\(closingText)'", at: current.offset)
            }
        }
    }
}
