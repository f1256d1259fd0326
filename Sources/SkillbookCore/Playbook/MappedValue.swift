/// A value written in a playbook that may contain `${{ … }}` expressions anywhere inside it.
public struct MappedValue: Sendable {
    public indirect enum Content: Sendable {
        /// No expression anywhere inside.
        case literal(Value)
        case template(TemplateString)
        case array([MappedValue])
        case object([(key: String, value: MappedValue)])
    }

    public var content: Content
    /// The YAML it came from, for diagnostics.
    public var range: SourceRange
    /// Where each character offset of a template's text sits in the file (for one-line scalars).
    public var textStart: SourceLocation?
    /// The YAML of a literal, so problems deep inside it can be pointed at exactly.
    public var source: YAMLNode?

    public init(_ content: Content, range: SourceRange, textStart: SourceLocation? = nil, source: YAMLNode? = nil) {
        self.content = content
        self.range = range
        self.textStart = textStart
        self.source = source
    }

    /// The position of a path inside a literal value (`[2].title`), as deep as the YAML goes.
    public func location(of path: some Collection<PathComponent>) -> SourceLocation {
        source?.node(at: Array(path)).location ?? range.start
    }

    public var location: SourceLocation { range.start }

    /// The position of a character offset inside this value's template text.
    public func location(ofOffset offset: Int) -> SourceLocation {
        textStart.map { $0.advanced(by: offset) } ?? range.start
    }

    /// The value when it holds no expression.
    public var literalValue: Value? {
        if case .literal(let value) = content { return value }
        return nil
    }

    /// Every template inside, in document order, with the mapped value holding it.
    public var templates: [(template: TemplateString, holder: MappedValue)] {
        switch content {
        case .literal: []
        case .template(let template): [(template, self)]
        case .array(let items): items.flatMap(\.templates)
        case .object(let members): members.flatMap(\.value.templates)
        }
    }

    /// Evaluates every expression inside, keeping the shape.
    public func evaluate(in context: EvaluationContext) throws(ExpressionError) -> Value {
        switch content {
        case .literal(let value):
            return value
        case .template(let template):
            do {
                return try template.evaluate(in: context)
            } catch let error where error.isStop {
                // Stopped, not wrong: say where the expression is, so its author can find it.
                var located = error
                located.message = "\(location(ofOffset: error.offset)): \(error.message)"
                throw located
            }
        case .array(let items):
            var values: [Value] = []
            values.reserveCapacity(items.count)
            for item in items { values.append(try item.evaluate(in: context)) }
            return .array(values)
        case .object(let members):
            var object = ValueObject()
            for member in members { object[member.key] = try member.value.evaluate(in: context) }
            return .object(object)
        }
    }
}
