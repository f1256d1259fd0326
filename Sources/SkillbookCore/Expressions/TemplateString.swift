/// A string from YAML that may contain `${{ … }}` expressions.
///
/// A string that is exactly one expression keeps the expression's type (a list stays a list);
/// otherwise each expression's value is interpolated as text.
public struct TemplateString: Sendable, Hashable {
    public enum Segment: Sendable, Hashable {
        case text(String)
        case expression(Expression)
    }

    public let source: String
    public let segments: [Segment]

    public init(source: String, segments: [Segment]) {
        self.source = source
        self.segments = segments
    }

    /// The expression when the whole string is exactly one `${{ … }}` (no surrounding whitespace).
    public var singleExpression: Expression? {
        guard segments.count == 1, case .expression(let expression) = segments[0] else { return nil }
        return expression
    }

    public var hasExpressions: Bool {
        segments.contains { if case .expression = $0 { true } else { false } }
    }

    /// The expressions in order of appearance.
    public var expressions: [Expression] {
        segments.compactMap { if case .expression(let e) = $0 { e } else { nil } }
    }

    /// Parses `text`, throwing the first syntax error (unterminated `${{`, a bad token, a parse
    /// error) with its character offset in `text`.
    public static func parse(_ text: String) throws(ExpressionError) -> TemplateString {
        // Most strings hold no expression: seen in their UTF-8 at once, without splitting the text
        // into characters (the costly part of loading a playbook).
        guard text.utf8.containsDoubleBrace else {
            return TemplateString(source: text, segments: text.isEmpty ? [] : [.text(text)])
        }
        // Text that is all ASCII without a carriage return is lexed as bytes: they are its
        // characters one for one (so offsets stay character offsets), and comparing bytes is far
        // cheaper than comparing characters.
        if text.utf8.allSatisfy({ $0 < 0x80 && $0 != UInt8(ascii: "\r") }) {
            return TemplateString(source: text, segments: try segments(of: Array(text.utf8)))
        }
        return TemplateString(source: text, segments: try segments(of: Array(text)))
    }

    private static func segments<Unit: LexUnit>(of chars: [Unit]) throws(ExpressionError) -> [Segment] {
        var segments: [Segment] = []
        var literalStart = 0
        var i = 0
        while i < chars.count {
            guard chars[i].ascii == UInt8(ascii: "$"), i + 2 < chars.count, chars[i + 1].ascii == UInt8(ascii: "{"),
                chars[i + 2].ascii == UInt8(ascii: "{")
            else {
                i += 1
                continue
            }
            if literalStart < i { segments.append(.text(Unit.text(chars[literalStart..<i]))) }
            let opening = i
            guard hasClosing(chars, after: i + 3) else {
                throw ExpressionError("unterminated expression: '${{' without '}}'", at: opening)
            }
            let (tokens, end) = try Lexer.lex(chars, from: i + 3, opening: opening)
            guard tokens.count > 1 else { throw ExpressionError("empty expression", at: opening) }
            let node = try Parser.parse(tokens)
            let inside = Unit.text(chars[(i + 3)..<(end - 2)])
            segments.append(.expression(Expression(source: trimmed(inside), offset: opening, node: node)))
            i = end
            literalStart = i
        }
        if literalStart < chars.count { segments.append(.text(Unit.text(chars[literalStart...]))) }
        return segments
    }

    /// The single expression's value as is; otherwise the text with each expression's
    /// `interpolatedText` (null interpolates as nothing, lists and objects as JSON).
    public func evaluate(in context: EvaluationContext) throws(ExpressionError) -> Value {
        if let expression = singleExpression { return try expression.evaluate(in: context) }
        var text = ""
        var interpolated: [Value] = []
        for segment in segments {
            switch segment {
            case .text(let part): text += part
            case .expression(let expression):
                let value = try expression.evaluate(in: context)
                text += value.interpolatedText
                if context.taint != nil { interpolated.append(value) }
            }
        }
        context.taint?.derive(.string(text), from: interpolated)
        return .string(text)
    }

    /// The static type (the single expression's, else `.string`) and every type error.
    public func type(in scope: ExpressionScope) -> (type: ExprType, errors: [ExpressionError]) {
        var errors: [ExpressionError] = []
        var single: ExprType?
        for expression in expressions {
            let (type, found) = expression.type(in: scope)
            errors += found
            single = type
        }
        return (singleExpression == nil ? .string : single ?? .string, errors)
    }

    private static func hasClosing<Unit: LexUnit>(_ chars: [Unit], after start: Int) -> Bool {
        var i = start
        while i + 1 < chars.count {
            if chars[i].ascii == UInt8(ascii: "}") && chars[i + 1].ascii == UInt8(ascii: "}") { return true }
            i += 1
        }
        return false
    }

    private static func trimmed(_ text: String) -> String {
        let start = text.firstIndex { !$0.isWhitespace } ?? text.endIndex
        let end = text.lastIndex { !$0.isWhitespace }.map { text.index(after: $0) } ?? start
        return start < end ? String(text[start..<end]) : ""
    }
}

extension Expression {
    /// The static type of this expression and every type error in it.
    public func type(in scope: ExpressionScope) -> (type: ExprType, errors: [ExpressionError]) {
        var checker = TypeChecker(scope: scope)
        let type = checker.type(of: node)
        return (type, checker.errors)
    }

    /// The value of this expression, in at most `context.stepLimit` steps.
    public func evaluate(in context: EvaluationContext) throws(ExpressionError) -> Value {
        try Evaluator(context: context, start: offset).evaluate(node)
    }
}

// Byte scans for braces: `String.contains` searches by characters, ~10 k instructions a call.
extension String.UTF8View {
    /// Whether the bytes hold `{{` not preceded by `$` (a Jinja-style placeholder may be there).
    var containsBareDoubleBrace: Bool { containsDoubleBrace { $0 != UInt8(ascii: "$") } }

    /// Whether the bytes hold `${{`, the start of an expression.
    public var containsTemplateOpening: Bool { containsDoubleBrace { $0 == UInt8(ascii: "$") } }

    /// Whether the text contains `{{`, which every `${{ … }}` (and every Jinja-like `{{ … }}`) does.
    var containsDoubleBrace: Bool { containsDoubleBrace { _ in true } }

    /// Whether the bytes hold `{{` whose byte before (0 at the start) passes `before`.
    private func containsDoubleBrace(after before: (UInt8) -> Bool) -> Bool {
        var previous: UInt8 = 0
        var beforePrevious: UInt8 = 0
        for byte in self {
            if byte == UInt8(ascii: "{"), previous == UInt8(ascii: "{"), before(beforePrevious) { return true }
            beforePrevious = previous
            previous = byte
        }
        return false
    }
}
