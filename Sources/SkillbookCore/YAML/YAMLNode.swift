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
    public var range: SourceRange
    public var tag: String?

    public init(_ content: Content, range: SourceRange, tag: String? = nil) {
        self.content = content
        self.range = range
        self.tag = tag
    }

    public var location: SourceLocation { range.start }

    public var scalar: String? {
        if case .scalar(let text, _) = content { return text }
        return nil
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
