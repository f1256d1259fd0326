/// Reads a `Schema` from YAML (playbook inputs, manifest parameters) or JSON, reporting every
/// problem with its position, and resolves every local `$ref` once, refusing cycles.
public struct SchemaDecoder: Sendable {
    /// Keywords that assert something about a value.
    public static let assertionKeywords = [
        "type", "enum", "const", "minimum", "maximum", "minLength", "maxLength", "pattern", "format", "items",
        "prefixItems", "minItems", "maxItems", "properties", "patternProperties", "required",
        "additionalProperties", "propertyNames", "dependentRequired", "allOf", "anyOf", "oneOf", "not", "$defs",
        "$ref", "secret", "from", "access", "relativeTo",
    ]
    /// Keywords kept for export and documentation that assert nothing.
    public static let annotationKeywords: Set<String> = [
        "$schema", "$id", "$comment", "title", "description", "default", "examples", "deprecated", "readOnly",
        "writeOnly",
    ]
    /// Every keyword a schema may use.
    public static let keywords = assertionKeywords + annotationKeywords.sorted()

    public init() {}

    /// `did you mean 'x'?` for a likely typo, else the list of what is accepted.
    static func expected(_ word: String, _ known: [String]) -> String {
        if let suggestion = Suggestion.closest(to: word, in: known) { return "did you mean '\(suggestion)'?" }
        return "expected one of \(known.joined(separator: ", "))"
    }

    /// The schema, or `nil` when it has errors (all of them appended to `diagnostics`).
    public func decode(_ node: YAMLNode, diagnostics: inout [Diagnostic]) -> Schema? {
        let reader = SchemaReader(root: node)
        let schema = reader.schema(node, at: "#")
        diagnostics += reader.diagnostics
        return reader.diagnostics.hasErrors ? nil : schema
    }

    /// A schema written as JSON data (an MCP tool's `inputSchema`, a test suite case); positions
    /// in messages name `file` and the path inside the value.
    public func decode(_ value: Value, file: String = "<schema>", diagnostics: inout [Diagnostic]) -> Schema? {
        decode(YAMLNode(value: value, file: file), diagnostics: &diagnostics)
    }
}

extension YAMLNode {
    /// A node holding `value`; scalars are written so that `value` reads them back unchanged.
    /// Positions count nodes (line = depth-first index), which is all a value without text has.
    init(value: Value, file: String) {
        var counter = 0
        self = YAMLNode.build(value, file: file, counter: &counter)
    }

    private static func build(_ value: Value, file: String, counter: inout Int) -> YAMLNode {
        counter += 1
        let line = counter
        let content: Content
        switch value {
        case .null: content = .scalar("null", .plain)
        case .bool(let b): content = .scalar(b ? "true" : "false", .plain)
        case .int(let i): content = .scalar(String(i), .plain)
        case .double(let d): content = .scalar(d.isFinite ? "\(d)" : (d.isNaN ? ".nan" : (d > 0 ? ".inf" : "-.inf")), .plain)
        case .string(let s): content = .scalar(s, .doubleQuoted)
        case .array(let items): content = .sequence(items.map { build($0, file: file, counter: &counter) })
        case .object(let object):
            content = .mapping(
                object.map { key, member in
                    counter += 1
                    let keyNode = YAMLNode(.scalar(key, .doubleQuoted), file: file, start: (counter, 1), end: (counter, 1), tag: nil)
                    return YAMLPair(key: keyNode, value: build(member, file: file, counter: &counter))
                })
        }
        return YAMLNode(content, file: file, start: (line, 1), end: (line, 1), tag: nil)
    }
}
