/// A node of a loaded YAML document, with the span it came from.
///
/// Mappings keep their key order; aliases are already expanded (within a budget) by the loader.
public struct YAMLNode: Sendable {
    public enum ScalarStyle: Sendable, Hashable {
        case plain, singleQuoted, doubleQuoted, literal, folded
    }

    public enum Content: Sendable {
        case scalar(String, ScalarStyle)
        case sequence([YAMLNode])
        case mapping([YAMLPair])
    }

    public var content: Content
    public var tag: String?
    // The span, kept compact: a large document has a great many nodes.
    private var file: String
    private var startLine: Int32
    private var startColumn: Int32
    private var endLine: Int32
    private var endColumn: Int32

    public var range: SourceRange {
        get {
            SourceRange(
                start: location,
                end: SourceLocation(file: file, line: Int(endLine), column: Int(endColumn)))
        }
        set {
            file = newValue.start.file
            startLine = Int32(clamping: newValue.start.line)
            startColumn = Int32(clamping: newValue.start.column)
            endLine = Int32(clamping: newValue.end.line)
            endColumn = Int32(clamping: newValue.end.column)
        }
    }

    public var location: SourceLocation { SourceLocation(file: file, line: Int(startLine), column: Int(startColumn)) }

    public var scalar: String? {
        if case .scalar(let text, _) = content { return text }
        return nil
    }

    /// Whether this is the scalar `text`; unlike `scalar == text`, copies no string.
    func hasScalar(_ text: String) -> Bool {
        if case .scalar(let own, _) = content { return own == text }
        return false
    }

    public var sequence: [YAMLNode]? {
        if case .sequence(let items) = content { return items }
        return nil
    }

    public var mapping: [YAMLPair]? {
        if case .mapping(let pairs) = content { return pairs }
        return nil
    }

    /// `mapping`, `sequence` or `scalar`, for messages.
    public var kindName: String {
        switch content {
        case .scalar: "scalar"
        case .sequence: "list"
        case .mapping: "mapping"
        }
    }

    /// The value under `key` in a mapping.
    public subscript(key: String) -> YAMLNode? {
        mapping?.first { $0.key.scalar == key }?.value
    }

    /// The node a value path leads to (`["with", "title"]`, `["items", 2]`), as far as it exists.
    public func node(at path: [PathComponent]) -> YAMLNode {
        var node = self
        for component in path {
            switch (component, node.content) {
            case (.key(let key), .mapping(let pairs)):
                guard let pair = pairs.first(where: { $0.key.scalar == key }) else { return node }
                node = pair.value
            case (.index(let i), .sequence(let items)) where items.indices.contains(i):
                node = items[i]
            default:
                return node
            }
        }
        return node
    }
}

// The initialisers live in an extension so that the struct keeps its memberwise initialiser,
// which they call: built field by field in an initialiser of its own, a node was copied once more
// after it was made (a retain and a release per string), and a large document makes a great many.
extension YAMLNode {
    public init(_ content: Content, range: SourceRange, tag: String? = nil) {
        self.init(
            content, file: range.start.file, start: (range.start.line, range.start.column),
            end: (range.end.line, range.end.column), tag: tag)
    }

    /// A node of `file` from 1-based `start` (line, column) to `end`.
    init(_ content: Content, file: String, start: (line: Int, column: Int), end: (line: Int, column: Int), tag: String?) {
        self.init(
            content: content, tag: tag, file: file,
            startLine: Int32(clamping: start.line), startColumn: Int32(clamping: start.column),
            endLine: Int32(clamping: end.line), endColumn: Int32(clamping: end.column))
    }
}

public struct YAMLPair: Sendable {
    public var key: YAMLNode
    public var value: YAMLNode

    public init(key: YAMLNode, value: YAMLNode) {
        self.key = key
        self.value = value
    }
}

/// One step in a path through a value: an object key or an array index.
public enum PathComponent: Sendable, Hashable, CustomStringConvertible {
    case key(String)
    case index(Int)

    public var description: String {
        switch self {
        case .key(let k): ".\(k)"
        case .index(let i): "[\(i)]"
        }
    }
}

extension [PathComponent] {
    /// `steps[2].with.count`, optionally under a root name.
    public func rendered(root: String = "") -> String {
        var text = root
        for component in self {
            switch component {
            case .key(let k): text += text.isEmpty ? k : ".\(k)"
            case .index(let i): text += "[\(i)]"
            }
        }
        return text
    }
}
