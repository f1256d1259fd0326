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
    /// `^\$\{\{ steps\.s[1-9]\.output\.(title|text|items\.\*\.path|…) \}\}$` over every output
    /// field of the offers. A step has no `id` to write: the steps are `s1`, `s2`… in order (the
    /// parser names them so), which saves a small model tokens and a reference cannot name a step
    /// that does not exist by another name.
    public static func referencePattern(_ offers: [PlanOffer]) -> String {
        referencePattern(fields: fields(of: offers, fitting: nil))
    }

    /// The reference pattern over `fields` (each a path such as `items.*.path`).
    public static func referencePattern(fields: [String]) -> String {
        let escaped = fields.map { field in
            field.replacingOccurrences(of: ".", with: "\\.").replacingOccurrences(of: "*", with: "\\*")
        }
        return "^\\$\\{\\{ steps\\.s[1-9]\\.output\\.(" + escaped.joined(separator: "|") + ") \\}\\}$"
    }

    /// The offers' output fields, in order and without repeats; with `schema`, only those whose
    /// type fits it (a text parameter cannot refer to a list, a list parameter not to a text).
    static func fields(of offers: [PlanOffer], fitting schema: Schema?) -> [String] {
        var fields: [String] = []
        for offer in offers {
            for field in offer.outputFields where !fields.contains(field) {
                if let schema, !offer.type(of: field).isAssignable(to: schema) { continue }
                fields.append(field)
            }
        }
        return fields
    }

    /// `S`: the schema of a whole answer; a plan has `minSteps` to `maxSteps` steps.
    public static func schema(_ offers: [PlanOffer], minSteps: Int = 1, maxSteps: Int? = nil) -> Value {
        let steps = offers.map { step($0, offers: offers) }
        let least = max(1, minSteps)
        var list: ValueObject = ["type": "array", "minItems": .int(least), "items": ["anyOf": .array(steps)]]
        if let maxSteps { list["maxItems"] = .int(max(least, maxSteps)) }
        let plan: Value = [
            "type": "object",
            "properties": ["steps": .object(list)],
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
    public static func responseFormat(_ offers: [PlanOffer], minSteps: Int = 1, maxSteps: Int? = nil) -> Value {
        [
            "type": "json_schema",
            "json_schema": ["name": "plan", "strict": true, "schema": schema(offers, minSteps: minSteps, maxSteps: maxSteps)],
        ]
    }

    static func step(_ offer: PlanOffer, offers: [PlanOffer]) -> Value {
        var properties: ValueObject = [:]
        for (name, schema) in offer.parameters.properties {
            properties[name] = value(schema, name: name, offers: offers)
        }
        let with: Value = [
            "type": "object", "properties": .object(properties), "required": .array(offer.required.map(Value.string)),
            "additionalProperties": false,
        ]
        let key = offer.layer == .skill ? "skill" : "playbook"
        return [
            "type": "object",
            "properties": [key: ["const": .string(offer.name)], "with": with],
            "required": [.string(key), "with"], "additionalProperties": false,
        ]
    }

    /// A parameter's value: a literal of its schema, or a reference to an output field whose type
    /// fits it; a list's items likewise. With no fitting field, only the literal.
    static func value(_ schema: Schema, name: String, offers: [PlanOffer]) -> Value {
        var literal = literal(exported(schema), name: name)
        if schema.type == .array, let items = schema.items, case .object(var object) = literal {
            object["items"] = value(items, name: name, offers: offers)
            literal = .object(object)
        }
        let fields = fields(of: offers, fitting: schema)
        guard !fields.isEmpty else { return literal }
        return ["anyOf": [literal, ["type": "string", "pattern": .string(referencePattern(fields: fields))]]]
    }

    /// Text without `{{` (a plain string of a free-text parameter): a value from an earlier step can
    /// then only be written as a reference, never as `{{ x }}` that would stay literal text.
    /// The class leaves out `"` and `\\` (an escape is its own branch): llama.cpp applies the pattern
    /// to the JSON text of the string, and an open class let the model write past its end. An escape
    /// is one JSON allows (`\\n`, `\\"`, `\\\\`, `\\u00e9`…): with any character after the backslash
    /// the model wrote a regular expression's `\\.` into JSON, and the server could not read its answer.
    public static let noTemplatePattern = #"^([^{"\\]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4}|\{[^{"\\])*\{?$"#

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
