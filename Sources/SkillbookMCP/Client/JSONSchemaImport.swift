import Foundation
public import SkillbookCore

/// Reads a JSON Schema from another program (an MCP tool's `inputSchema` or `outputSchema`)
/// into our subset, tolerating what the subset lacks.
///
/// Semantics: keywords of the subset are read as such; `const` becomes a one-value `enum`;
/// local `$ref`s (`#/$defs/X`, `#/definitions/X`) are resolved; `anyOf`/`oneOf` of one schema
/// and `null` (an optional value) becomes that schema; `type: [T, "null"]` becomes `T`. Any
/// other keyword — or a keyword of the subset with a value it cannot hold — is left out and
/// reported as a warning naming its path (`inputSchema.properties.x: 'not' is not checked`);
/// annotations (`title`, `$schema`, `$id`, `$comment`, `readOnly`, …) are dropped silently.
public struct JSONSchemaImport {
    public private(set) var warnings: [String] = []
    private let root: Value
    private static let silent: Set<String> = [
        "title", "$schema", "$id", "$comment", "$defs", "definitions", "readOnly", "writeOnly", "deprecated",
        "contentMediaType", "contentEncoding",
    ]

    private init(root: Value) {
        self.root = root
    }

    /// The schema and the warnings about what it could not keep.
    public static func read(_ value: Value, path: String) -> (schema: Schema, warnings: [String]) {
        var importer = JSONSchemaImport(root: value)
        let schema = importer.schema(value, path: path, depth: 0)
        return (schema, importer.warnings)
    }

    private mutating func warn(_ path: String, _ text: String) {
        warnings.append("\(path): \(text)")
    }

    private mutating func schema(_ value: Value, path: String, depth: Int) -> Schema {
        guard depth < 32 else {
            warn(path, "nested too deeply; any value is accepted here")
            return .any
        }
        if value == true { return .any }
        guard var object = value.objectValue else {
            warn(path, "a schema must be an object; any value is accepted here")
            return .any
        }
        if let reference = object["$ref"]?.stringValue {
            guard let target = resolve(reference) else {
                warn(path, "'$ref' \(reference) cannot be resolved; any value is accepted here")
                return .any
            }
            var merged = target.objectValue ?? [:]
            for (key, member) in object where key != "$ref" { merged[key] = member }
            object = merged
            object["$ref"] = nil
            return schema(.object(object), path: path, depth: depth + 1)
        }
        for keyword in ["anyOf", "oneOf"] {
            guard let options = object[keyword]?.arrayValue else { continue }
            let kept = options.filter { $0["type"] != "null" }
            object[keyword] = nil
            if kept.count == 1, var only = kept[0].objectValue {
                for (key, member) in object where only[key] == nil { only[key] = member }
                return schema(.object(only), path: path, depth: depth + 1)
            }
            warn(path, "'\(keyword)' of \(options.count) schemas is not checked; any value is accepted here")
            return Schema(description: object["description"]?.stringValue, defaultValue: object["default"])
        }
        return keywords(object, path: path, depth: depth)
    }

    private func resolve(_ reference: String) -> Value? {
        guard reference.hasPrefix("#/") else { return reference == "#" ? root : nil }
        var node = root
        for part in reference.dropFirst(2).split(separator: "/") {
            let key = part.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            guard let next = node[key] else { return nil }
            node = next
        }
        return node
    }

    private mutating func keywords(_ object: ValueObject, path: String, depth: Int) -> Schema {
        var type: Schema.JSONType?
        var properties: [(name: String, schema: Schema)] = []
        var items: Schema?
        var additional: Bool?
        var format: String?
        var enumValues: [Value]?
        var pattern: String?
        for (key, value) in object {
            switch key {
            case "type":
                let names = value.arrayValue?.compactMap(\.stringValue).filter { $0 != "null" } ?? [value.stringValue ?? ""]
                if names.count == 1, let known = Schema.JSONType(rawValue: names[0]) {
                    type = known
                } else {
                    warn(path, "'type' \(JSONText.encode(value)) is not checked; any type is accepted here")
                }
            case "properties":
                for (name, member) in value.objectValue ?? [:] {
                    properties.append((name, schema(member, path: "\(path).properties.\(name)", depth: depth + 1)))
                }
            case "items": items = schema(value, path: "\(path).items", depth: depth + 1)
            case "additionalProperties":
                if let flag = value.boolValue {
                    additional = flag
                } else if value != [:] {
                    warn(path, "'additionalProperties' as a schema is not checked; other properties are accepted")
                }
            case "format":
                if let name = value.stringValue, FormatCheck.knownFormats.contains(name) {
                    format = name
                } else {
                    warn(path, "'format' \(JSONText.encode(value)) is not checked")
                }
            case "enum": enumValues = value.arrayValue
            case "const": enumValues = [value]
            case "pattern":
                if let text = value.stringValue, (try? Regex(text)) != nil {
                    pattern = text
                } else {
                    warn(path, "'pattern' \(JSONText.encode(value)) is not a regular expression this program reads; not checked")
                }
            case "description", "default", "minimum", "maximum", "minLength", "maxLength", "minItems", "maxItems", "required",
                "examples", "secret":
                break
            case "exclusiveMinimum", "exclusiveMaximum":
                warn(path, "'\(key)' is checked as '\(key == "exclusiveMinimum" ? "minimum" : "maximum")' (inclusive)")
            case _ where Self.silent.contains(key) || key.hasPrefix("x-"):
                break
            default:
                warn(path, "'\(key)' is not checked")
            }
        }
        func count(_ key: String) -> Int? {
            guard let value = object[key]?.intValue, value >= 0 else { return nil }
            return value
        }
        let exclusiveMinimum = object["exclusiveMinimum"]?.doubleValue
        let exclusiveMaximum = object["exclusiveMaximum"]?.doubleValue
        let examples = object["examples"]?.arrayValue ?? []
        return Schema(
            type: type, description: object["description"]?.stringValue, defaultValue: object["default"],
            enumValues: enumValues, minimum: object["minimum"]?.doubleValue ?? exclusiveMinimum,
            maximum: object["maximum"]?.doubleValue ?? exclusiveMaximum, minLength: count("minLength"),
            maxLength: count("maxLength"), pattern: pattern, format: format, items: items, minItems: count("minItems"),
            maxItems: count("maxItems").flatMap { $0 > 0 ? $0 : nil }, properties: properties,
            required: object["required"]?.arrayValue?.compactMap(\.stringValue) ?? [], additionalProperties: additional,
            examples: examples, secret: object["secret"] == true)
    }
}
