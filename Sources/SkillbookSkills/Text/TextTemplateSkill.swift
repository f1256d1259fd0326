import Foundation
import SkillbookCore

/// `text.template`: fills `{{name}}` placeholders from `values`.
struct TextTemplateSkill: Skill {
    let descriptor = SkillDescriptor(
        id: "text.template",
        title: "Fill in a text template",
        summary: "Fills {{name}} placeholders in a template with values and returns { text }. A placeholder "
            + "may be a dotted path into nested objects ({{person.name}}) and may have spaces inside the "
            + "braces. Lists and objects are written as JSON. A placeholder without a value is an error.",
        examples: [
            "fill in a template", "render this text with values", "format a message from a template",
            "用模板生成文本", "填写模板",
        ],
        tags: ["text", "format"],
        kind: .query,
        parameters: .object(
            [
                "template": .string("Text with {{name}} placeholders."),
                "values": Schema(
                    type: .object, description: "The values for the placeholders, by name.", defaultValue: [:]),
            ],
            required: ["template"]),
        output: .object(["text": .string("The filled-in text.")], required: ["text"]),
        timeout: 10,
        idempotent: true)

    func run(_ parameters: ValueObject, context: SkillContext) async throws -> Value {
        let parameters = parameters.applyingDefaults(of: descriptor.parameters)
        let template = parameters["template"]?.stringValue ?? ""
        let values = parameters["values"]?.objectValue ?? ValueObject()
        return ["text": .string(try Self.render(template, values: values))]
    }

    /// `template` with each `{{ path }}` replaced by the value at `path`. A `{{` without a closing
    /// `}}` stays as written.
    ///
    /// The pieces are found first and the text is written once into storage of its final size: a
    /// large value is copied once, into the result, with no growing buffer (whose reallocations
    /// held two copies at once) and no copy at the end.
    static func render(_ template: String, values: ValueObject) throws(SkillError) -> String {
        var pieces: [Substring] = []
        var rest = Substring(template)
        while let open = rest.range(of: "{{") {
            let inside = rest[open.upperBound...]
            guard let close = inside.range(of: "}}") else { break }
            pieces.append(rest[..<open.lowerBound])
            let name = inside[..<close.lowerBound].trimmingCharacters(in: .whitespacesAndNewlines)
            pieces.append(Substring(try lookup(name, in: values).interpolatedText))
            rest = inside[close.upperBound...]
        }
        pieces.append(rest)
        var output = ""
        output.reserveCapacity(pieces.reduce(0) { $0 + $1.utf8.count })
        for piece in pieces { output += piece }
        return output
    }

    private static func lookup(_ name: String, in values: ValueObject) throws(SkillError) -> Value {
        guard !name.isEmpty else {
            throw SkillError("template has an empty placeholder '{{}}'; write a name inside the braces, like {{name}}")
        }
        var current = Value.object(values)
        var where_ = "values"
        for part in name.split(separator: ".", omittingEmptySubsequences: false).map(String.init) {
            switch current {
            case .object(let object):
                guard let next = object[part] else {
                    let known = object.isEmpty ? "\(where_) is empty" : "\(where_) has: \(object.keys.joined(separator: ", "))"
                    throw SkillError("template placeholder '{{\(name)}}' has no value; \(known)")
                }
                current = next
            case .array(let items):
                guard let index = Int(part), items.indices.contains(index) else {
                    throw SkillError(
                        "template placeholder '{{\(name)}}' has no value; \(where_) is a list of \(items.count) "
                            + "item\(items.count == 1 ? "" : "s") (use an index from 0)")
                }
                current = items[index]
            default:
                throw SkillError(
                    "template placeholder '{{\(name)}}' has no value; \(where_) is \(current.typeName), not an object")
            }
            where_ += "." + part
        }
        return current
    }
}
