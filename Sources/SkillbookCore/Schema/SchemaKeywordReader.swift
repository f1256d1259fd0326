/// Reads the keywords of one schema node (its subschemas through the `SchemaReader`).
struct SchemaKeywordReader {
    let reader: SchemaReader
    let node: YAMLNode
    let pointer: String

    private func error(_ message: String, at node: YAMLNode?) { reader.error(message, at: node) }

    private func child(_ node: YAMLNode, _ tokens: String...) -> Schema {
        reader.schema(node, at: pointer + tokens.map { "/" + SchemaReader.pointer([$0]).dropFirst(2) }.joined())
    }

    func read() -> Schema {
        var fields = SchemaFields()
        if case .scalar = node.content, case .bool(let b) = node.value {
            fields.boolean = b
            return Schema(fields: fields)
        }
        guard let pairs = node.mapping else {
            error("a schema must be a mapping such as '{ type: string }' or true/false, not a \(node.kindName)", at: node)
            return .any
        }
        for pair in pairs {
            guard let key = pair.key.scalar else { continue }
            if readKeyword(key, pair.value, into: &fields) {
                fields.keyOrder.append(key)
            } else {
                let message = "unknown schema keyword '\(key)'; \(SchemaDecoder.expected(key, SchemaDecoder.keywords))"
                error(message, at: pair.key)
            }
        }
        checkConsistency(fields)
        return Schema(fields: fields)
    }

    /// Reads `key` into `fields`; `false` when it is not a keyword.
    private func readKeyword(_ key: String, _ value: YAMLNode, into fields: inout SchemaFields) -> Bool {
        switch key {
        case "type": readType(value, into: &fields)
        case "description": fields.description = string(value, key)
        case "default": fields.defaultValue = value.value
        case "examples":
            if let list = value.sequence { fields.examples = list.map(\.value) } else { error("'examples' must be a list", at: value) }
        case "enum":
            if let list = value.sequence { fields.enumValues = list.map(\.value) } else { error("'enum' must be a list of allowed values", at: value) }
        case "const": fields.constValue = value.value
        case "minimum": fields.minimum = number(value, key)
        case "maximum": fields.maximum = number(value, key)
        case "minLength": fields.minLength = count(value, key)
        case "maxLength": fields.maxLength = count(value, key)
        case "pattern": fields.pattern = regex(value, key)
        case "format":
            fields.format = string(value, key)
            if let text = fields.format, !FormatCheck.knownFormats.contains(text) {
                let known = FormatCheck.knownFormats.sorted()
                error("unknown format '\(text)'; \(SchemaDecoder.expected(text, known))", at: value)
            }
        case "items":
            if value.sequence != nil {
                error("'items' must be one schema; for a schema per position use 'prefixItems'", at: value)
            } else {
                fields.items = child(value, key)
            }
        case "prefixItems": fields.prefixItems = schemaList(value, key)
        case "minItems": fields.minItems = count(value, key)
        case "maxItems":
            fields.maxItems = count(value, key)
            if fields.maxItems == 0 { error("'maxItems' must be at least 1", at: value) }
        case "properties": fields.properties = schemaMap(value, key).map { ($0.0, $0.1) }
        case "patternProperties":
            fields.patternProperties = schemaMap(value, key).map { ($0.0, $0.1) }
            for pair in value.mapping ?? [] { _ = regex(pair.key, "patternProperties") }
        case "required": fields.required = names(value, key) ?? []
        case "additionalProperties":
            if case .scalar = value.content, case .bool(let b) = value.value {
                fields.additionalProperties = b
            } else {
                fields.additionalSchema = child(value, key)
            }
        case "propertyNames": fields.propertyNames = child(value, key)
        case "dependentRequired":
            guard let pairs = value.mapping else {
                error("'dependentRequired' must map property names to lists of names", at: value)
                break
            }
            for pair in pairs {
                guard let name = pair.key.scalar, let list = names(pair.value, "dependentRequired.\(name)") else { continue }
                fields.dependentRequired.append((name, list))
            }
        case "allOf": fields.allOf = schemaList(value, key)
        case "anyOf": fields.anyOf = schemaList(value, key)
        case "oneOf": fields.oneOf = schemaList(value, key)
        case "not": fields.not = child(value, key)
        case "$defs": fields.defs = schemaMap(value, key).map { ($0.0, $0.1) }
        case "$ref":
            guard let reference = string(value, key) else { break }
            fields.ref = reference
            fields.refTarget = reader.target(of: reference, at: value)
        case "secret": fields.secret = bool(value, key) ?? false
        case "from":
            fields.secretFrom = string(value, key)
            fields.secretFromLocation = value.location
        case "access":
            guard let text = string(value, key) else { break }
            if let access = Schema.PathAccess(rawValue: text) {
                fields.access = access
            } else {
                error("'access' must be read or write, not '\(text)'", at: value)
            }
        case "relativeTo": fields.relativeTo = string(value, key)
        case "$schema", "$id", "$comment", "title":
            if string(value, key) != nil { fields.annotations.append((key, value.value)) }
        case "deprecated", "readOnly", "writeOnly":
            if bool(value, key) != nil { fields.annotations.append((key, value.value)) }
        default:
            return false
        }
        return true
    }

    private func readType(_ value: YAMLNode, into fields: inout SchemaFields) {
        let names = Schema.JSONType.allCases.map(\.rawValue)
        func one(_ node: YAMLNode) -> Schema.JSONType? {
            // `null` written bare reads as YAML null: the name is meant.
            let text = node.scalar.map { $0.isEmpty || $0 == "~" ? "null" : $0 }
            guard let text else {
                error("'type' must be one of \(names.joined(separator: ", ")), or a list of them", at: node)
                return nil
            }
            if let known = Schema.JSONType(rawValue: text) { return known }
            if text != "any" {
                error("unknown type '\(text)'; \(SchemaDecoder.expected(text, names + ["any"]))", at: node)
            }
            return nil
        }
        if let list = value.sequence {
            var types: [Schema.JSONType] = []
            for item in list {
                guard let type = one(item) else { continue }
                if types.contains(type) { error("'type' lists '\(type.rawValue)' twice", at: item) }
                types.append(type)
            }
            fields.types = types
            fields.typeIsList = true
        } else if let type = one(value) {
            fields.types = [type]
        }
    }

    private func checkConsistency(_ fields: SchemaFields) {
        let declared = fields.properties.map(\.name)
        if fields.additionalProperties == false, fields.patternProperties.isEmpty, !declared.isEmpty {
            for name in fields.required where !declared.contains(name) {
                error("'required' names '\(name)', which is not in 'properties'", at: node["required"])
            }
        }
        if let minimum = fields.minimum, let maximum = fields.maximum, minimum > maximum {
            error("'minimum' (\(JSONText.number(minimum))) is greater than 'maximum' (\(JSONText.number(maximum)))", at: node)
        }
        let isPath = fields.format == "path" || fields.items?.format == "path"
        for key in ["access", "relativeTo"] where !isPath && fields.keyOrder.contains(key) {
            error("'\(key)' applies to a 'format: path' string or a list of them", at: node[key])
        }
    }

    // MARK: Values of keywords

    /// A whole number of at least 0; `2.0` counts as 2.
    private func count(_ value: YAMLNode, _ key: String) -> Int? {
        switch value.value {
        case .int(let i) where i >= 0: return i
        case .double(let d) where d >= 0 && d.rounded() == d && d < 9e15: return Int(d)
        default:
            error("'\(key)' must be a whole number of at least 0", at: value)
            return nil
        }
    }

    private func number(_ value: YAMLNode, _ key: String) -> Double? {
        guard let d = value.value.doubleValue else {
            error("'\(key)' must be a number", at: value)
            return nil
        }
        return d
    }

    private func string(_ value: YAMLNode, _ key: String) -> String? {
        guard let text = value.scalar, case .string = value.value else {
            error("'\(key)' must be text", at: value)
            return nil
        }
        return text
    }

    private func bool(_ value: YAMLNode, _ key: String) -> Bool? {
        guard case .bool(let b) = value.value else {
            error("'\(key)' must be true or false", at: value)
            return nil
        }
        return b
    }

    private func regex(_ value: YAMLNode, _ key: String) -> String? {
        guard let text = string(value, key) else { return nil }
        // (compiled once for reading and validating: `SchemaPatterns` keeps it)
        if SchemaPatterns.regex(text) == nil { error("'\(key)' is not a valid regular expression: \(text)", at: value) }
        return text
    }

    private func names(_ value: YAMLNode, _ key: String) -> [String]? {
        guard let list = value.sequence, list.allSatisfy({ $0.scalar != nil && $0.value.stringValue != nil }) else {
            error("'\(key)' must be a list of property names", at: value)
            return nil
        }
        return list.compactMap(\.scalar)
    }

    private func schemaList(_ value: YAMLNode, _ key: String) -> [Schema]? {
        guard let list = value.sequence, !list.isEmpty else {
            error("'\(key)' must be a non-empty list of schemas", at: value)
            return nil
        }
        return list.enumerated().map { child($0.element, key, String($0.offset)) }
    }

    private func schemaMap(_ value: YAMLNode, _ key: String) -> [(String, Schema)] {
        guard let pairs = value.mapping else {
            error("'\(key)' must be a mapping of names to schemas", at: value)
            return []
        }
        return pairs.compactMap { pair in pair.key.scalar.map { ($0, child(pair.value, key, $0)) } }
    }
}
