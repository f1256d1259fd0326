import Foundation
public import SkillbookCore

/// The JSON Schema a model's answer is decoded under, and the `response_format` that carries it.
///
/// The answer is `{"steps": [...]}` whose items are an `anyOf` over the offered skills and
/// playbooks — `skill` (or `playbook`) a `const`, `with` that target's parameter schema — or
/// `{"question": "…"}`. Any parameter may instead be a reference string, and references are
/// constrained by `referencePattern` to the output fields of the offered targets (list item fields
/// included), so a pipe, a function or an invented field cannot be decoded.
public enum PlanSchema {
    /// `^\$\{\{ steps\.ID\.output\.(title|text|items\.\*\.path|…) \}\}$`.
    public static func referencePattern(_ offers: [PlanOffer]) -> String {
        var fields: [String] = []
        for offer in offers {
            for field in offer.outputFields where !fields.contains(field) { fields.append(field) }
        }
        let escaped = fields.map { field in
            field.replacingOccurrences(of: ".", with: "\\.").replacingOccurrences(of: "*", with: "\\*")
        }
        return "^\\$\\{\\{ steps\\.[a-z][a-z0-9_]*\\.output\\.(" + escaped.joined(separator: "|") + ") \\}\\}$"
    }

    /// `S`: the schema of a whole answer.
    public static func schema(_ offers: [PlanOffer]) -> Value {
        let reference: Value = ["type": "string", "pattern": .string(referencePattern(offers))]
        let steps = offers.map { step($0, reference: reference) }
        let plan: Value = [
            "type": "object",
            "properties": ["steps": ["type": "array", "minItems": 1, "items": ["anyOf": .array(steps)]]],
            "required": ["steps"], "additionalProperties": false,
        ]
        let question: Value = [
            "type": "object", "properties": ["question": ["type": "string", "minLength": 1]], "required": ["question"],
            "additionalProperties": false,
        ]
        return ["anyOf": [plan, question]]
    }

    /// `{"type": "json_schema", "json_schema": {"name": "plan", "strict": true, "schema": S}}`: this
    /// nesting exactly (llama.cpp ignores a `schema` beside `type` and decodes unconstrained).
    public static func responseFormat(_ offers: [PlanOffer]) -> Value {
        ["type": "json_schema", "json_schema": ["name": "plan", "strict": true, "schema": schema(offers)]]
    }

    static func step(_ offer: PlanOffer, reference: Value) -> Value {
        var properties: ValueObject = [:]
        for (name, schema) in offer.parameters.properties {
            properties[name] = ["anyOf": [literal(exported(schema), name: name), reference]]
        }
        let with: Value = [
            "type": "object", "properties": .object(properties), "required": .array(offer.required.map(Value.string)),
            "additionalProperties": false,
        ]
        let key = offer.layer == .skill ? "skill" : "playbook"
        return [
            "type": "object",
            "properties": [
                "id": ["type": "string", "pattern": "^[a-z][a-z0-9_]*$"], key: ["const": .string(offer.name)],
                "with": with,
            ],
            "required": ["id", .string(key), "with"], "additionalProperties": false,
        ]
    }

    /// Text without `{{` (a plain string of a free-text parameter): a value from an earlier step can
    /// then only be written as a reference, never as `{{ x }}` that would stay literal text.
    /// The class leaves out `"` and `\\` (an escape is its own branch): llama.cpp applies the pattern
    /// to the JSON text of the string, and an open class let the model write past its end.
    public static let noTemplatePattern = #"^([^{"\\]|\\.|\{[^{"\\])*\{?$"#

    /// A literal string parameter may not hold `{{` (except a `template`, whose placeholders are
    /// `{{name}}`); strings with a pattern or a fixed set of values keep theirs.
    static func literal(_ schema: Value, name: String) -> Value {
        guard case .object(var object) = schema, object["type"] == "string", object["pattern"] == nil, object["enum"] == nil,
            object["const"] == nil, name != "template"
        else { return schema }
        object["pattern"] = .string(noTemplatePattern)
        return .object(object)
    }

    /// A parameter schema as the model sees it: no `secret`, `examples` or `default` noise.
    static func exported(_ schema: Schema) -> Value {
        guard case .object(var object) = JSONSchemaExport.export(schema) else { return [:] }
        object["examples"] = nil
        object["secret"] = nil
        return .object(object)
    }
}
