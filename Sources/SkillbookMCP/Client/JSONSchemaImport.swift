import Foundation
public import SkillbookCore

/// Reads a JSON Schema from another program (an MCP tool's `inputSchema` or `outputSchema`)
/// into our subset, tolerating what the subset lacks.
///
/// Semantics: keywords of the subset are read as such; `const` becomes a one-value `enum`;
/// local `$ref`s (`#/$defs/X`, `#/definitions/X`) are resolved, each subschema read once (by its
/// JSON pointer, as the playbook checker's `SchemaReader` does), and a `$ref` to a schema being read
/// (`{"$ref": "#"}` inside the root) is a cycle: one warning, and any value is accepted there;
/// `anyOf`/`oneOf` of one schema
/// and `null` (an optional value) becomes that schema; `type: [T, "null"]` becomes `T`. Any
/// other keyword — or a keyword of the subset with a value it cannot hold — is left out and
/// reported as a warning naming its path (`inputSchema.properties.x: 'not' is not checked`);
/// annotations (`title`, `$schema`, `$id`, `$comment`, `readOnly`, …) are dropped silently.
public struct JSONSchemaImport {
    public private(set) var warnings: [String] = []
    private let root: Value
    /// Subschemas already read, by JSON pointer (`#/$defs/node`).
    private var done: [String: Schema] = [:]
    /// Pointers being read, outermost first: a `$ref` to one of them is a cycle.
    private var reading: [String] = []
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
        let schema = importer.schema(value, path: path, depth: 0, pointer: "#")
        return (schema, importer.warnings)
    }

    private mutating func warn(_ path: String, _ text: String) {
        warnings.append("\(path): \(text)")
    }

    /// The subschema `value` at `pointer` of the document (`nil`: a merge of a `$ref`'s target
    /// with its siblings, which is no subschema of its own and is not remembered).
    private mutating func schema(_ value: Value, path: String, depth: Int, pointer: String?) -> Schema {
        if let pointer, let known = done[pointer] { return known }
        if let pointer { reading.append(pointer) }
        let schema = read(value, path: path, depth: depth, pointer: pointer)
        if let pointer {
            reading.removeLast()
            done[pointer] = schema
        }
        return schema
    }

    private mutating func read(_ value: Value, path: String, depth: Int, pointer: String?) -> Schema {
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
            let targetPointer = reference.hasSuffix("/") ? String(reference.dropLast()) : reference
            if let start = reading.firstIndex(of: targetPointer) {
                let chain = (reading[start...] + [targetPointer]).joined(separator: " → ")
                warn(path, "'$ref' \(reference) leads back to itself (\(chain)); recursive schemas are not supported; any value is accepted here")
                return .any
            }
            guard object.count > 1 else { return schema(target, path: path, depth: depth + 1, pointer: targetPointer) }
            var merged = target.objectValue ?? [:]
            for (key, member) in object where key != "$ref" { merged[key] = member }
            object = merged
            object["$ref"] = nil
            // The target is being read (its own `$ref`s back to it are cycles), merged with the siblings.
            reading.append(targetPointer)
            defer { reading.removeLast() }
            return schema(.object(object), path: path, depth: depth + 1, pointer: nil)
        }
        for keyword in ["anyOf", "oneOf"] {
            guard let options = object[keyword]?.arrayValue else { continue }
            let kept = options.filter { $0["type"] != "null" }
            object[keyword] = nil
            if kept.count == 1, var only = kept[0].objectValue {
                for (key, member) in object where only[key] == nil { only[key] = member }
                return schema(.object(only), path: path, depth: depth + 1, pointer: nil)
            }
            warn(path, "'\(keyword)' of \(options.count) schemas is not checked; any value is accepted here")
            return Schema(description: object["description"]?.stringValue, defaultValue: object["default"])
        }
        return keywords(object, path: path, depth: depth, pointer: pointer)
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

    /// A key as a JSON-pointer token (`~` → `~0`, `/` → `~1`).
    private static func escaped(_ key: String) -> String {
        key.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }

    private mutating func keywords(_ object: ValueObject, path: String, depth: Int, pointer: String?) -> Schema {
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
                    let at = pointer.map { "\($0)/properties/\(Self.escaped(name))" }
                    properties.append((name, schema(member, path: "\(path).properties.\(name)", depth: depth + 1, pointer: at)))
                }
            case "items": items = schema(value, path: "\(path).items", depth: depth + 1, pointer: pointer.map { "\($0)/items" })
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
