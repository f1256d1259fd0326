internal import CYAML

/// Loads one YAML document into a `YAMLNode` tree with libyaml's event API.
///
/// Every problem becomes a `Diagnostic` with a 1-based position: libyaml's own syntax errors,
/// duplicate keys, unknown aliases, nesting that is too deep, and alias expansion beyond a
/// budget (so a "billion laughs" document fails fast instead of eating memory).
public struct YAMLLoader: Sendable {
    /// The most nodes that aliases may add to a document in total.
    public var aliasExpansionLimit: Int
    /// The deepest nesting of collections accepted.
    public var depthLimit: Int

    public init(aliasExpansionLimit: Int = 100_000, depthLimit: Int = 200) {
        self.aliasExpansionLimit = aliasExpansionLimit
        self.depthLimit = depthLimit
    }

    /// The document's root node, or `nil` for an empty document.
    public func load(_ text: String, file: String) throws(DiagnosticError) -> YAMLNode? {
        var text = text  // read in place: no copy of the bytes
        var builder = TreeBuilder(file: file, aliasExpansionLimit: aliasExpansionLimit, depthLimit: depthLimit)
        let failure: Diagnostic? = text.withUTF8 { buffer in
            var parser = yaml_parser_t()
            guard yaml_parser_initialize(&parser) == 1 else {
                return .error("YAML parser could not be initialised", at: SourceLocation(file: file, line: 1, column: 1))
            }
            defer { yaml_parser_delete(&parser) }
            yaml_parser_set_input_string(&parser, buffer.baseAddress ?? UnsafePointer(bitPattern: 1)!, buffer.count)
            while true {
                var event = yaml_event_t()
                guard yaml_parser_parse(&parser, &event) == 1 else {
                    return Self.syntaxError(parser, file: file, bytes: buffer)
                }
                defer { yaml_event_delete(&event) }
                if event.type == YAML_STREAM_END_EVENT { return nil }
                if let fatal = builder.handle(event) { return fatal }
            }
        }
        if let failure { throw DiagnosticError(builder.diagnostics + [failure]) }
        if !builder.diagnostics.isEmpty { throw DiagnosticError(builder.diagnostics) }
        // A document with nothing after `---` is as empty as a file with nothing in it.
        if let root = builder.root, case .scalar("", .plain) = root.content, root.tag == nil { return nil }
        return builder.root
    }

    private static func syntaxError(
        _ parser: yaml_parser_t, file: String, bytes: UnsafeBufferPointer<UInt8>
    ) -> Diagnostic {
        let problem = parser.problem.map { String(cString: $0) } ?? "invalid YAML"
        if parser.error == YAML_READER_ERROR {
            let location = Self.location(ofByte: parser.problem_offset, in: bytes, file: file)
            let note = problem.lowercased().contains("utf") ? " (the file must be UTF-8 text)" : ""
            return .error("YAML: \(problem)\(note)", at: location)
        }
        let mark = parser.problem_mark
        let location = SourceLocation(file: file, line: Int(mark.line) + 1, column: Int(mark.column) + 1)
        var message = "YAML syntax: \(problem)"
        if let context = parser.context.map({ String(cString: $0) }) {
            let contextMark = parser.context_mark
            message += " (\(context) at line \(contextMark.line + 1), column \(contextMark.column + 1))"
        }
        let hint = Self.character(atLine: location.line, column: location.column, in: bytes) == "\t"
            ? "YAML indents with spaces; this line has a tab" : nil
        return .error(message, at: location, hint: hint)
    }

    /// The character at a 1-based line and column, if there is one.
    private static func character(atLine line: Int, column: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Character? {
        let text = String(decoding: bytes, as: UTF8.self)
        let lines = text.split(separator: "\n", maxSplits: line, omittingEmptySubsequences: false)
        guard line >= 1, line <= lines.count else { return nil }
        let characters = lines[line - 1].unicodeScalars
        guard column >= 1, column <= characters.count else { return nil }
        return Character(characters[characters.index(characters.startIndex, offsetBy: column - 1)])
    }

    private static func location(ofByte offset: Int, in bytes: UnsafeBufferPointer<UInt8>, file: String)
        -> SourceLocation
    {
        var line = 1
        var column = 1
        for byte in bytes.prefix(offset) {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return SourceLocation(file: file, line: line, column: column)
    }
}

/// Turns libyaml events into nodes; one frame per open collection.
private struct TreeBuilder {
    /// An open collection. Frames are changed in place on the stack, so appending to a long list
    /// never copies it.
    struct Frame {
        enum Kind { case sequence, mapping }

        var kind: Kind
        /// 1-based line and column.
        var start: (line: Int, column: Int)
        var anchor: String?
        var tag: String?
        var items: [YAMLNode] = []
        var pairs: [YAMLPair] = []
        var pendingKey: YAMLNode?
        /// Where each key was first written, kept only once a mapping is large: small ones are scanned.
        var seen: [String: SourceLocation]?

        /// Where key `text` was first written in this mapping, if it already was.
        mutating func firstLocation(ofKey text: String) -> SourceLocation? {
            if seen == nil, pairs.count >= 16 {
                var index: [String: SourceLocation] = [:]
                for pair in pairs {
                    if let key = pair.key.scalar, index[key] == nil { index[key] = pair.key.location }
                }
                seen = index
            }
            if let seen { return seen[text] }
            return pairs.first { $0.key.scalar == text }?.key.location
        }
    }

    let file: String
    let aliasExpansionLimit: Int
    let depthLimit: Int
    var stack: [Frame] = []
    var anchors: [String: (node: YAMLNode, size: Int, depth: Int)] = [:]
    var expandedByAliases = 0
    var documents = 0
    var root: YAMLNode?
    var diagnostics: [Diagnostic] = []

    init(file: String, aliasExpansionLimit: Int, depthLimit: Int) {
        self.file = file
        self.aliasExpansionLimit = aliasExpansionLimit
        self.depthLimit = depthLimit
    }

    func location(_ mark: yaml_mark_t) -> SourceLocation {
        SourceLocation(file: file, line: Int(mark.line) + 1, column: Int(mark.column) + 1)
    }

    /// The 1-based line and column of a mark.
    static func position(_ mark: yaml_mark_t) -> (line: Int, column: Int) {
        (Int(mark.line) + 1, Int(mark.column) + 1)
    }

    static func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        pointer.map { String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)) }
    }

    /// Handles one event; returns a diagnostic when loading cannot go on.
    mutating func handle(_ event: yaml_event_t) -> Diagnostic? {
        let startMark = Self.position(event.start_mark)
        let endMark = Self.position(event.end_mark)
        var start: SourceLocation { location(event.start_mark) }
        switch event.type {
        case YAML_DOCUMENT_START_EVENT:
            documents += 1
            if documents > 1 {
                return .error("a playbook file holds one YAML document; found a second '---'", at: start)
            }
        case YAML_SCALAR_EVENT:
            let scalar = event.data.scalar
            let text = String(
                decoding: UnsafeBufferPointer(start: scalar.value, count: Int(scalar.length)), as: UTF8.self)
            let style: YAMLNode.ScalarStyle =
                switch scalar.style {
                case YAML_SINGLE_QUOTED_SCALAR_STYLE: .singleQuoted
                case YAML_DOUBLE_QUOTED_SCALAR_STYLE: .doubleQuoted
                case YAML_LITERAL_SCALAR_STYLE: .literal
                case YAML_FOLDED_SCALAR_STYLE: .folded
                default: .plain
                }
            let node = YAMLNode(.scalar(text, style), file: file, start: startMark, end: endMark, tag: Self.string(scalar.tag))
            return complete(node, anchor: Self.string(scalar.anchor))
        case YAML_ALIAS_EVENT:
            let name = Self.string(event.data.alias.anchor) ?? ""
            guard let anchored = anchors[name] else {
                if stack.contains(where: { $0.anchor == name }) {
                    return .error("alias '*\(name)' refers to a collection that contains it", at: start)
                }
                return .error("unknown alias '*\(name)': no anchor '&\(name)' comes before it", at: start)
            }
            if stack.count + anchored.depth > depthLimit { return tooDeep(at: start) }
            expandedByAliases += anchored.size
            if expandedByAliases > aliasExpansionLimit {
                return .error(
                    "aliases expand to more than \(aliasExpansionLimit) nodes; refusing to expand '*\(name)'",
                    at: start, hint: "aliases that nest other aliases grow exponentially; write the values out")
            }
            var copy = anchored.node
            copy.range = SourceRange(start: start, end: location(event.end_mark))
            return complete(copy, anchor: nil)
        case YAML_SEQUENCE_START_EVENT:
            if stack.count >= depthLimit { return tooDeep(at: start) }
            let data = event.data.sequence_start
            stack.append(Frame(kind: .sequence, start: startMark, anchor: Self.string(data.anchor), tag: Self.string(data.tag)))
        case YAML_MAPPING_START_EVENT:
            if stack.count >= depthLimit { return tooDeep(at: start) }
            let data = event.data.mapping_start
            stack.append(Frame(kind: .mapping, start: startMark, anchor: Self.string(data.anchor), tag: Self.string(data.tag)))
        case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
            guard let frame = stack.popLast() else { return nil }
            let content: YAMLNode.Content = frame.kind == .sequence ? .sequence(frame.items) : .mapping(frame.pairs)
            return complete(YAMLNode(content, file: file, start: frame.start, end: endMark, tag: frame.tag), anchor: frame.anchor)
        default:
            break
        }
        return nil
    }

    func tooDeep(at location: SourceLocation) -> Diagnostic {
        .error("YAML nesting deeper than \(depthLimit) levels", at: location)
    }

    mutating func complete(_ node: consuming YAMLNode, anchor: String?) -> Diagnostic? {
        if let anchor {
            anchors[anchor] = (node, Self.size(of: node), Self.depth(of: node))
        }
        guard !stack.isEmpty else {
            root = node
            return nil
        }
        let top = stack.count - 1
        switch stack[top].kind {
        case .sequence:
            stack[top].items.append(node)
        case .mapping:
            if let key = stack[top].pendingKey.take() {
                stack[top].pairs.append(YAMLPair(key: key, value: node))
            } else {
                if let text = node.scalar {
                    if let first = stack[top].firstLocation(ofKey: text) {
                        diagnostics.append(
                            .error(
                                "duplicate key '\(text)' (first defined at line \(first.line), column \(first.column))",
                                at: node.location))
                    } else {
                        stack[top].seen?[text] = node.location
                    }
                } else {
                    diagnostics.append(.error("a mapping key must be a plain value, not a \(node.kindName)", at: node.location))
                }
                stack[top].pendingKey = node
            }
        }
        return nil
    }

    /// Levels of collections in `node`: 0 for a scalar.
    static func depth(of node: YAMLNode) -> Int {
        switch node.content {
        case .scalar: 0
        case .sequence(let items): 1 + (items.map(depth(of:)).max() ?? 0)
        case .mapping(let pairs): 1 + (pairs.map { max(depth(of: $0.key), depth(of: $0.value)) }.max() ?? 0)
        }
    }

    static func size(of node: YAMLNode) -> Int {
        switch node.content {
        case .scalar: 1
        case .sequence(let items): items.reduce(1) { $0 + size(of: $1) }
        case .mapping(let pairs): pairs.reduce(1) { $0 + size(of: $1.key) + size(of: $1.value) }
        }
    }
}
