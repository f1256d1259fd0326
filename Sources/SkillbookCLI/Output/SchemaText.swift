import SkillbookCore

/// One-line descriptions of schemas for people: `string (1…200 chars)`, `integer (1…1000), default 100`.
enum SchemaText {
    static func line(_ schema: Schema) -> String {
        var text = schema.typeDescription
        var limits: [String] = []
        if schema.minimum != nil || schema.maximum != nil {
            limits.append("\(schema.minimum.map(JSONText.number) ?? "")…\(schema.maximum.map(JSONText.number) ?? "")")
        }
        if schema.minLength != nil || schema.maxLength != nil {
            limits.append("\(schema.minLength.map(String.init) ?? "0")…\(schema.maxLength.map(String.init) ?? "") chars")
        }
        if schema.minItems != nil || schema.maxItems != nil {
            limits.append("\(schema.minItems.map(String.init) ?? "0")…\(schema.maxItems.map(String.init) ?? "") items")
        }
        if let format = schema.format { limits.append("format \(format)") }
        if let pattern = schema.pattern { limits.append("pattern \(pattern)") }
        if let values = schema.enumValues { limits.append("one of \(values.map(\.interpolatedText).joined(separator: ", "))") }
        if schema.secret { limits.append("secret") }
        if !limits.isEmpty { text += " (\(limits.joined(separator: ", ")))" }
        if let value = schema.defaultValue { text += ", default \(JSONText.encode(value))" }
        return text
    }

    /// `name: type — description` lines for each property, required ones marked.
    static func properties(_ schema: Schema, indent: String = "  ") -> [String] {
        schema.properties.map { property in
            let required = schema.required.contains(property.name) ? ", required" : ""
            let description = property.schema.description.map { " — \($0)" } ?? ""
            return "\(indent)\(property.name): \(line(property.schema))\(required)\(description)"
        }
    }
}
