/// Reads a `Schema` from YAML (playbook inputs, manifest parameters), reporting every problem
/// with its position.
public struct SchemaDecoder: Sendable {
    public static let keywords = [
        "type", "title", "description", "default", "enum", "minimum", "maximum", "minLength", "maxLength",
        "pattern", "format", "items", "minItems", "maxItems", "properties", "required",
        "additionalProperties", "examples", "secret",
    ]

    public init() {}

    /// `did you mean 'x'?` for a likely typo, else the list of what is accepted.
    static func expected(_ word: String, _ known: [String]) -> String {
        if let suggestion = Suggestion.closest(to: word, in: known) { return "did you mean '\(suggestion)'?" }
        return "expected one of \(known.joined(separator: ", "))"
    }

    /// The schema, or `nil` when it has errors (all of them appended to `diagnostics`).
    public func decode(_ node: YAMLNode, diagnostics: inout [Diagnostic]) -> Schema? {
        let before = diagnostics.filter { $0.severity == .error }.count
        let schema = decodeNode(node, &diagnostics)
        return diagnostics.filter({ $0.severity == .error }).count == before ? schema : nil
    }

    private func decodeNode(_ node: YAMLNode, _ diagnostics: inout [Diagnostic]) -> Schema {
        guard let pairs = node.mapping else {
            diagnostics.append(
                .error(
                    "a schema must be a mapping such as '{ type: string }', not a \(node.kindName)", at: node.location))
            return .any
        }
        var type: Schema.JSONType?
        var description: String?
        var defaultValue: Value?
        var enumValues: [Value]?
        var minimum: Double?
        var maximum: Double?
        var minLength: Int?
        var maxLength: Int?
        var pattern: String?
        var format: String?
        var items: Schema?
        var minItems: Int?
        var maxItems: Int?
        var properties: [(name: String, schema: Schema)] = []
        var required: [String] = []
        var additionalProperties: Bool?
        var examples: [Value] = []
        var secret = false

        func integer(_ value: YAMLNode, _ key: String) -> Int? {
            guard case .int(let i) = value.value, i >= 0 else {
                diagnostics.append(.error("'\(key)' must be a whole number of at least 0", at: value.location))
                return nil
            }
            return i
        }
        func number(_ value: YAMLNode, _ key: String) -> Double? {
            guard let d = value.value.doubleValue else {
                diagnostics.append(.error("'\(key)' must be a number", at: value.location))
                return nil
            }
            return d
        }
        func string(_ value: YAMLNode, _ key: String) -> String? {
            guard let text = value.scalar, case .string = value.value else {
                diagnostics.append(.error("'\(key)' must be text", at: value.location))
                return nil
            }
            return text
        }
        func bool(_ value: YAMLNode, _ key: String) -> Bool? {
            guard case .bool(let b) = value.value else {
                diagnostics.append(.error("'\(key)' must be true or false", at: value.location))
                return nil
            }
            return b
        }

        for pair in pairs {
            guard let key = pair.key.scalar else { continue }
            let value = pair.value
            switch key {
            case "type":
                guard let text = value.scalar else {
                    diagnostics.append(.error("'type' must be one of string, integer, number, boolean, array, object", at: value.location))
                    continue
                }
                if let known = Schema.JSONType(rawValue: text) {
                    type = known
                } else if text != "any" {
                    let names = Schema.JSONType.allCases.map(\.rawValue) + ["any"]
                    diagnostics.append(
                        .error("unknown type '\(text)'; \(Self.expected(text, names))", at: value.location))
                }
            case "title": _ = string(value, key)
            case "description": description = string(value, key)
            case "default": defaultValue = value.value
            case "enum":
                if let list = value.sequence, !list.isEmpty {
                    enumValues = list.map(\.value)
                } else {
                    diagnostics.append(.error("'enum' must be a non-empty list of allowed values", at: value.location))
                }
            case "minimum": minimum = number(value, key)
            case "maximum": maximum = number(value, key)
            case "minLength": minLength = integer(value, key)
            case "maxLength": maxLength = integer(value, key)
            case "pattern":
                pattern = string(value, key)
                if let text = pattern, (try? Regex(text)) == nil {
                    diagnostics.append(.error("'pattern' is not a valid regular expression: \(text)", at: value.location))
                }
            case "format":
                format = string(value, key)
                if let text = format, !FormatCheck.knownFormats.contains(text) {
                    let known = FormatCheck.knownFormats.sorted()
                    diagnostics.append(.error("unknown format '\(text)'; \(Self.expected(text, known))", at: value.location))
                }
            case "items": items = decodeNode(value, &diagnostics)
            case "minItems": minItems = integer(value, key)
            case "maxItems":
                maxItems = integer(value, key)
                if maxItems == 0 { diagnostics.append(.error("'maxItems' must be at least 1", at: value.location)) }
            case "properties":
                guard let propertyPairs = value.mapping else {
                    diagnostics.append(.error("'properties' must be a mapping of names to schemas", at: value.location))
                    continue
                }
                for property in propertyPairs {
                    guard let name = property.key.scalar else { continue }
                    properties.append((name, decodeNode(property.value, &diagnostics)))
                }
            case "required":
                guard let list = value.sequence, list.allSatisfy({ $0.scalar != nil }) else {
                    diagnostics.append(.error("'required' must be a list of property names", at: value.location))
                    continue
                }
                required = list.compactMap(\.scalar)
            case "additionalProperties": additionalProperties = bool(value, key)
            case "examples":
                guard let list = value.sequence else {
                    diagnostics.append(.error("'examples' must be a list", at: value.location))
                    continue
                }
                examples = list.map(\.value)
            case "secret": secret = bool(value, key) ?? false
            default:
                diagnostics.append(.error("unknown schema keyword '\(key)'; \(Self.expected(key, Self.keywords))", at: pair.key.location))
            }
        }
        for name in required where !properties.contains(where: { $0.name == name }) && !properties.isEmpty {
            diagnostics.append(.error("'required' names '\(name)', which is not in 'properties'", at: node["required"]?.location))
        }
        if let minimum, let maximum, minimum > maximum {
            diagnostics.append(.error("'minimum' (\(JSONText.number(minimum))) is greater than 'maximum' (\(JSONText.number(maximum)))", at: node.location))
        }
        return Schema(
            type: type, description: description, defaultValue: defaultValue, enumValues: enumValues,
            minimum: minimum, maximum: maximum, minLength: minLength, maxLength: maxLength, pattern: pattern,
            format: format, items: items, minItems: minItems, maxItems: maxItems, properties: properties,
            required: required, additionalProperties: additionalProperties, examples: examples, secret: secret)
    }
}
