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

    /// Parameters handed over: the values are this call's alone, so the largest text placeholder
    /// may become the result in its own storage (see `render(_:taking:)`).
    func run(handedOver parameters: CallParameters, context: SkillContext) async throws -> Value {
        var parameters = parameters.take()
        let template = parameters["template"]?.stringValue ?? ""
        var values = parameters["values"]?.objectValue ?? ValueObject()
        parameters = ValueObject()
        return ["text": .string(try Self.render(template, taking: &values))]
    }

    /// `template` with each `{{ path }}` replaced by the value at `path`. A `{{` without a closing
    /// `}}` stays as written.
    ///
    /// The pieces are found first and the text is written once into storage of its final size: a
    /// large value is copied once, into the result, with no growing buffer (whose reallocations
    /// held two copies at once) and no copy at the end.
    static func render(_ template: String, values: ValueObject) throws(SkillError) -> String {
        joined(try pieces(of: template, values: values).map(\.text))
    }

    /// `render` of values nothing else holds: the largest text that fills a placeholder of a
    /// top-level name used once becomes the result — the text before it is inserted at its start
    /// and the text after appended, in place when its storage has room (a text read from a file
    /// usually has some: its storage is whole pages) — so the value and the result are not both
    /// in memory. `values` loses that member. Otherwise, or when the text is shared, as `render`.
    static func render(_ template: String, taking values: inout ValueObject) throws(SkillError) -> String {
        let pieces = try pieces(of: template, values: values)
        let names = pieces.compactMap(\.name)
        let candidates = pieces.indices.filter { index in
            guard let name = pieces[index].name else { return false }
            return !name.contains(".") && names.filter { $0 == name }.count == 1 && values[name]?.stringValue != nil
        }
        guard let largest = candidates.max(by: { pieces[$0].text.utf8.count < pieces[$1].text.utf8.count }),
            let name = pieces[largest].name, case .string(var text)? = values[name]
        else { return joined(pieces.map(\.text)) }
        let before = joined(pieces[..<largest].map(\.text))
        let after = joined(pieces[(largest + 1)...].map(\.text))
        // The pieces and `values` let go of the text: this copy is then its only one.
        _ = consume pieces
        values[name] = .null
        text.reserveCapacity(before.utf8.count + text.utf8.count + after.utf8.count)
        text.insert(contentsOf: before, at: text.startIndex)
        text.append(after)
        return text
    }

    /// A piece of a filled template: literal text, or a placeholder's name and value as text.
    struct Piece {
        var text: Substring
        var name: String?
    }

    /// The template cut into literal text and filled placeholders, in order.
    private static func pieces(of template: String, values: ValueObject) throws(SkillError) -> [Piece] {
        var pieces: [Piece] = []
        var rest = Substring(template)
        while let open = rest.range(of: "{{") {
            let inside = rest[open.upperBound...]
            guard let close = inside.range(of: "}}") else { break }
            pieces.append(Piece(text: rest[..<open.lowerBound]))
            let name = inside[..<close.lowerBound].trimmingCharacters(in: .whitespacesAndNewlines)
            pieces.append(Piece(text: Substring(try lookup(name, in: values).interpolatedText), name: name))
            rest = inside[close.upperBound...]
        }
        pieces.append(Piece(text: rest))
        return pieces
    }

    /// `parts` written once into storage of their total size.
    private static func joined(_ parts: some Collection<Substring>) -> String {
        var output = ""
        output.reserveCapacity(parts.reduce(0) { $0 + $1.utf8.count })
        for part in parts { output += part }
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
