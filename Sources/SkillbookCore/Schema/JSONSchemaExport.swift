/// Exports a `Schema` as a JSON Schema object (also valid as an OpenAI tool's `parameters`
/// and an MCP tool's `inputSchema`). A decoded schema exports as it was written: the same
/// keywords in the same order (`$ref` as written, `$defs` kept), numbers equal as JSON numbers.
public enum JSONSchemaExport {
    public static func export(_ schema: Schema) -> Value {
        let f = schema.fields
        if let boolean = f.boolean { return .bool(boolean) }
        var object = ValueObject()
        func list(_ schemas: [Schema]?) -> Value? { schemas.map { .array($0.map(export)) } }
        func map(_ pairs: [(String, Schema)]) -> Value? {
            pairs.isEmpty ? nil : .object(ValueObject(pairs.map { ($0.0, export($0.1)) }))
        }
        if let types = f.types {
            object["type"] = f.typeIsList || types.count != 1 ? .array(types.map { .string($0.rawValue) }) : .string(types[0].rawValue)
        }
        for (name, value) in f.annotations { object[name] = value }
        object["description"] = f.description.map(Value.string)
        object["default"] = f.defaultValue
        object["enum"] = f.enumValues.map(Value.array)
        object["const"] = f.constValue
        object["minimum"] = f.minimum.map(number)
        object["maximum"] = f.maximum.map(number)
        object["minLength"] = f.minLength.map(Value.int)
        object["maxLength"] = f.maxLength.map(Value.int)
        object["pattern"] = f.pattern.map(Value.string)
        object["format"] = f.format.map(Value.string)
        object["prefixItems"] = list(f.prefixItems)
        object["items"] = f.items.map(export)
        object["minItems"] = f.minItems.map(Value.int)
        object["maxItems"] = f.maxItems.map(Value.int)
        object["properties"] = map(f.properties.map { ($0.name, $0.schema) })
        object["patternProperties"] = map(f.patternProperties.map { ($0.pattern, $0.schema) })
        if !f.required.isEmpty { object["required"] = .array(f.required.map(Value.string)) }
        object["additionalProperties"] = f.additionalSchema.map(export) ?? f.additionalProperties.map(Value.bool)
        object["propertyNames"] = f.propertyNames.map(export)
        if !f.dependentRequired.isEmpty {
            object["dependentRequired"] = .object(ValueObject(f.dependentRequired.map { ($0.name, .array($0.required.map(Value.string))) }))
        }
        object["allOf"] = list(f.allOf)
        object["anyOf"] = list(f.anyOf)
        object["oneOf"] = list(f.oneOf)
        object["not"] = f.not.map(export)
        object["$defs"] = map(f.defs.map { ($0.name, $0.schema) })
        object["$ref"] = f.ref.map(Value.string)
        if !f.examples.isEmpty { object["examples"] = .array(f.examples) }
        if f.secret { object["secret"] = true }
        object["access"] = f.access.map { .string($0.rawValue) }
        object["relativeTo"] = f.relativeTo.map(Value.string)
        return .object(ordered(object, by: f.keyOrder))
    }

    /// `object` with the keys of `order` first, in that order, then the rest as they were.
    private static func ordered(_ object: ValueObject, by order: [String]) -> ValueObject {
        guard !order.isEmpty else { return object }
        var result = ValueObject()
        for key in order { result[key] = object[key] }
        for (key, value) in object where result[key] == nil { result[key] = value }
        return result
    }

    private static func number(_ d: Double) -> Value {
        d.rounded() == d && abs(d) < 1e15 ? .int(Int(d)) : .double(d)
    }
}
