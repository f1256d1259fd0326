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

    public init(aliasExpansionLimit: Int = Limits.yamlAliasNodes, depthLimit: Int = Limits.yamlDepth) {
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
            var event = yaml_event_t()  // libyaml clears it in `yaml_parser_parse` and `yaml_event_delete`
            while true {
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
///
/// The nodes of open collections wait in one `PendingNodes` stack, in document order, and are
/// moved (not copied) into their collection's array when it closes: each array is allocated once,
/// at its final size.
private struct TreeBuilder: ~Copyable {
    /// An open collection.
    struct Frame {
        enum Kind { case sequence, mapping }

        var kind: Kind
        /// 1-based line and column.
        var start: (line: Int, column: Int)
        var anchor: String?
        var tag: String?
        /// Where this collection's nodes begin in `pending`; a mapping's alternate key, value.
        var firstNode: Int
        /// Where each key was first written, kept only once a mapping is large: small ones are scanned.
        var seen: [String: SourceLocation]?
    }

    let file: String
    let aliasExpansionLimit: Int
    let depthLimit: Int
    var stack: [Frame] = []
    var pending = PendingNodes()
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
            let bytes = UnsafeBufferPointer(start: scalar.value, count: Int(scalar.length))
            let text = String(unsafeUninitializedCapacity: bytes.count) { $0.initialize(fromContentsOf: bytes) }
            let style: YAMLNode.ScalarStyle =
                switch scalar.style {
                case YAML_SINGLE_QUOTED_SCALAR_STYLE: .singleQuoted
                case YAML_DOUBLE_QUOTED_SCALAR_STYLE: .doubleQuoted
                case YAML_LITERAL_SCALAR_STYLE: .literal
                case YAML_FOLDED_SCALAR_STYLE: .folded
                default: .plain
                }
            pending.append(.scalar(text, style), file: file, start: startMark, end: endMark, tag: Self.string(scalar.tag))
            return completeLast(anchor: Self.string(scalar.anchor))
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
            pending.append(copy)
            return completeLast(anchor: nil)
        case YAML_SEQUENCE_START_EVENT:
            if stack.count >= depthLimit { return tooDeep(at: start) }
            let data = event.data.sequence_start
            open(.sequence, at: startMark, anchor: Self.string(data.anchor), tag: Self.string(data.tag))
        case YAML_MAPPING_START_EVENT:
            if stack.count >= depthLimit { return tooDeep(at: start) }
            let data = event.data.mapping_start
            open(.mapping, at: startMark, anchor: Self.string(data.anchor), tag: Self.string(data.tag))
        case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
            guard let frame = stack.popLast() else { return nil }
            let content: YAMLNode.Content =
                frame.kind == .sequence
                ? .sequence(pending.takeNodes(from: frame.firstNode)) : .mapping(pending.takePairs(from: frame.firstNode))
            pending.append(content, file: file, start: frame.start, end: endMark, tag: frame.tag)
            return completeLast(anchor: frame.anchor)
        default:
            break
        }
        return nil
    }

    mutating func open(_ kind: Frame.Kind, at start: (line: Int, column: Int), anchor: String?, tag: String?) {
        stack.append(Frame(kind: kind, start: start, anchor: anchor, tag: tag, firstNode: pending.count))
    }

    func tooDeep(at location: SourceLocation) -> Diagnostic {
        .error("YAML nesting deeper than \(depthLimit) levels", at: location)
    }

    /// Finishes the node just added to `pending`: records its anchor, makes it the root if no
    /// collection is open, and checks it if it is a mapping key.
    ///
    /// Nodes are built right on `pending` and looked at there, so they are moved, never copied.
    @inline(__always)
    mutating func completeLast(anchor: String?) -> Diagnostic? {
        let index = pending.count - 1
        if let anchor {
            anchors[anchor] = (pending[index], Self.size(of: pending[index]), Self.depth(of: pending[index]))
        }
        guard let top = stack.indices.last else {
            root = pending.removeLast()
            return nil
        }
        if stack[top].kind == .mapping, (index - stack[top].firstNode) % 2 == 0 {
            checkKey(at: index, of: top)
        }
        return nil
    }

    /// Reports the key at `index` in `pending` if it is not a scalar or if the mapping of frame
    /// `top` already has it.
    mutating func checkKey(at index: Int, of top: Int) {
        guard case .scalar(let text, _) = pending[index].content else {
            diagnostics.append(
                .error("a mapping key must be a plain value, not a \(pending[index].kindName)", at: pending[index].location))
            return
        }
        let firstKey = stack[top].firstNode
        if stack[top].seen == nil {
            guard index - firstKey >= 2 * Self.scannedKeys else {
                for i in stride(from: firstKey, to: index, by: 2) where pending[i].hasScalar(text) {
                    return reportDuplicate(at: index, firstAt: pending[i].location)
                }
                return
            }
            stack[top].seen = keyLocations(from: firstKey, to: index)
        }
        if let first = stack[top].seen?[text] { return reportDuplicate(at: index, firstAt: first) }
        let location = pending[index].location
        stack[top].seen?[text] = location
    }

    /// Mappings with fewer keys than this are searched key by key; larger ones get an index.
    static let scannedKeys = 16

    /// Where each scalar key in `pending[start..<end]` (keys and values alternating) was first written.
    func keyLocations(from start: Int, to end: Int) -> [String: SourceLocation] {
        var locations: [String: SourceLocation] = [:]
        for i in stride(from: start, to: end, by: 2) {
            if let key = pending[i].scalar, locations[key] == nil { locations[key] = pending[i].location }
        }
        return locations
    }

    mutating func reportDuplicate(at index: Int, firstAt first: SourceLocation) {
        guard let text = pending[index].scalar else { return }
        diagnostics.append(
            .error(
                "duplicate key '\(text)' (first defined at line \(first.line), column \(first.column))",
                at: pending[index].location))
    }

    /// Levels of collections in `node`: 0 for a scalar.
    static func depth(of node: borrowing YAMLNode) -> Int {
        switch node.content {
        case .scalar: 0
        case .sequence(let items): 1 + (items.map(depth(of:)).max() ?? 0)
        case .mapping(let pairs): 1 + (pairs.map { max(depth(of: $0.key), depth(of: $0.value)) }.max() ?? 0)
        }
    }

    static func size(of node: borrowing YAMLNode) -> Int {
        switch node.content {
        case .scalar: 1
        case .sequence(let items): items.reduce(1) { $0 + size(of: $1) }
        case .mapping(let pairs): pairs.reduce(1) { $0 + size(of: $1.key) + size(of: $1.value) }
        }
    }
}

/// The finished nodes of the open collections, in document order: a stack that hands a closing
/// collection its nodes by moving them into a new array of exactly their number.
private struct PendingNodes: ~Copyable {
    private var base: UnsafeMutablePointer<YAMLNode>
    private var capacity: Int
    private(set) var count = 0

    init(capacity: Int = 64) {
        self.capacity = capacity
        base = .allocate(capacity: capacity)
    }

    deinit {
        base.deinitialize(count: count)
        base.deallocate()
    }

    subscript(index: Int) -> YAMLNode {
        unsafeAddress {
            precondition(index >= 0 && index < count, "pending node index out of range")
            return UnsafePointer(base + index)
        }
    }

    /// Takes the last node off the stack.
    mutating func removeLast() -> YAMLNode {
        precondition(count > 0, "no pending node to remove")
        count -= 1
        return (base + count).move()
    }

    /// Adds a node made of these parts, built in place.
    mutating func append(
        _ content: consuming YAMLNode.Content, file: String, start: (line: Int, column: Int),
        end: (line: Int, column: Int), tag: String?
    ) {
        reserveOneMore()
        (base + count).initialize(to: YAMLNode(content, file: file, start: start, end: end, tag: tag))
        count += 1
    }

    mutating func append(_ node: consuming YAMLNode) {
        reserveOneMore()
        (base + count).initialize(to: node)
        count += 1
    }

    private mutating func reserveOneMore() {
        if count == capacity {
            let grown = UnsafeMutablePointer<YAMLNode>.allocate(capacity: capacity * 2)
            grown.moveInitialize(from: base, count: count)
            base.deallocate()
            base = grown
            capacity *= 2
        }
    }

    /// The nodes from index `first` on, as an array; they leave the stack.
    mutating func takeNodes(from first: Int) -> [YAMLNode] {
        let taken = count - first
        count = first
        // `reserveCapacity` and `append` are specialised for `YAMLNode` here, unlike
        // `Array(unsafeUninitializedCapacity:)`, which looks the storage type up at run time.
        var nodes: [YAMLNode] = []
        nodes.reserveCapacity(taken)
        for i in 0..<taken { nodes.append((base + first + i).move()) }
        return nodes
    }

    /// The nodes from index `first` on, alternately key and value, as pairs; they leave the stack.
    mutating func takePairs(from first: Int) -> [YAMLPair] {
        precondition((count - first) % 2 == 0, "a mapping closed after a key without a value")
        let taken = (count - first) / 2
        count = first
        var pairs: [YAMLPair] = []
        pairs.reserveCapacity(taken)
        for i in 0..<taken {
            pairs.append(YAMLPair(key: (base + first + 2 * i).move(), value: (base + first + 2 * i + 1).move()))
        }
        return pairs
    }
}
