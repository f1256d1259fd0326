/// Exports a `Schema` as a JSON Schema object (also valid as an OpenAI tool's `parameters`
/// and an MCP tool's `inputSchema`).
public enum JSONSchemaExport {
    public static func export(_ schema: Schema) -> Value {
        var object = ValueObject()
        if let type = schema.type { object["type"] = .string(type.rawValue) }
        if let description = schema.description { object["description"] = .string(description) }
        if let value = schema.defaultValue { object["default"] = value }
        if let values = schema.enumValues { object["enum"] = .array(values) }
        if let minimum = schema.minimum { object["minimum"] = number(minimum) }
        if let maximum = schema.maximum { object["maximum"] = number(maximum) }
        if let minLength = schema.minLength { object["minLength"] = .int(minLength) }
        if let maxLength = schema.maxLength { object["maxLength"] = .int(maxLength) }
        if let pattern = schema.pattern { object["pattern"] = .string(pattern) }
        if let format = schema.format { object["format"] = .string(format) }
        if let items = schema.items { object["items"] = export(items) }
        if let minItems = schema.minItems { object["minItems"] = .int(minItems) }
        if let maxItems = schema.maxItems { object["maxItems"] = .int(maxItems) }
        if !schema.properties.isEmpty {
            object["properties"] = .object(ValueObject(schema.properties.map { ($0.name, export($0.schema)) }))
        }
        if !schema.required.isEmpty { object["required"] = .array(schema.required.map(Value.string)) }
        if let additional = schema.additionalProperties { object["additionalProperties"] = .bool(additional) }
        if !schema.examples.isEmpty { object["examples"] = .array(schema.examples) }
        if schema.secret { object["secret"] = true }
        return .object(object)
    }

    private static func number(_ d: Double) -> Value {
        d.rounded() == d && abs(d) < 1e15 ? .int(Int(d)) : .double(d)
    }
}
