import Foundation
import SkillbookCore

/// The text `skillbook new NAME` writes: a commented playbook with one step per skill, each
/// parameter it needs (`Schema.namesToGive`: the required ones and those that go with them)
/// filled with a placeholder of its type that the skill's schema accepts.
enum PlaybookSkeleton {
    static func text(name: String, skills: [SkillDescriptor]) -> String {
        var text = """
            # \(YAMLText.comment(name)): a playbook. Run it with `skillbook run \(YAMLText.comment(name))`; check it with `skillbook validate`.
            # Every key is explained in README.md ("Playbook format in brief").
            name: \(YAMLText.scalar(name))
            description: \(YAMLText.quoted("TODO say what \(name) does."))
            # Inputs are given with -i KEY=VALUE when it runs; an input without a default is required.
            # inputs:
            #   who: { type: string, description: Who it is for., default: world }
            steps:

            """
        var ids: [String] = []
        if skills.isEmpty {
            text += "  # Replace this step with your own (`skillbook skills` lists what there is).\n"
            text += "  - id: hello\n    skill: debug.echo\n    with:\n      value: \(YAMLText.quoted("Hello from \(name)"))\n"
            ids.append("hello")
        }
        for descriptor in skills {
            let id = uniqueID(for: descriptor.id, taken: ids)
            ids.append(id)
            text += "  # \(YAMLText.comment(firstSentence(descriptor.summary)))\n"
            text += "  - id: \(id)\n    skill: \(YAMLText.scalar(descriptor.id))\n"
            let given = descriptor.parameters.namesToGive
            let required = descriptor.parameters.fields.properties.filter { given.contains($0.name) }
            if required.isEmpty {
                text += "    # with: { … }  (see `skillbook skills \(YAMLText.comment(descriptor.id))`)\n"
                continue
            }
            text += "    with:\n"
            for (parameter, schema) in required {
                let note = schema.fields.description.map { "  # \(YAMLText.comment(firstSentence($0)))" } ?? ""
                let entry = YAMLText.entry(key: parameter, valueText: YAMLText.flow(placeholder(schema, name: parameter)), indent: 6)
                text += entry.joined(separator: "\n") + note + "\n"
            }
        }
        text += """
            # Outputs are printed as JSON when the run ends, e.g.:
            # outputs:
            #   result: "${{ steps.\(ids.last ?? "hello").output }}"

            """
        return text
    }

    /// A value `schema` accepts, to be replaced by the author: its default, example, first allowed
    /// value, or a value of its type.
    static func placeholder(_ schema: Schema, name: String) -> Value {
        let f = schema.fields
        for candidate in [f.defaultValue, f.examples.first, f.enumValues?.first, f.constValue].compactMap({ $0 }) {
            if SchemaValidator.isValid(candidate, against: schema) { return candidate }
        }
        let type = f.types?.first { $0 != .null } ?? .string
        let value: Value
        switch type {
        case .string: value = stringPlaceholder(f, name: name)
        case .integer: value = .int(Int(f.minimum ?? 1))
        case .number: value = .double(f.minimum ?? 1)
        case .boolean: value = false
        case .array:
            let item = f.items.map { placeholder($0, name: name) }
            value = .array(Array(repeating: item ?? "TODO", count: max(1, f.minItems ?? 1)))
        case .object:
            var object = ValueObject()
            let given = schema.namesToGive
            for (key, property) in f.properties where given.contains(key) { object[key] = placeholder(property, name: key) }
            value = .object(object)
        case .null: value = .null
        }
        return value
    }

    private static func stringPlaceholder(_ f: SchemaFields, name: String) -> Value {
        switch f.format {
        case "date": return "today"
        case "date-time": return "tomorrow 9am"
        case "uri", "url": return "https://example.com/"
        case "email": return "someone@example.com"
        default:
            var text = "TODO \(name)"
            if let maximum = f.maxLength, text.count > maximum { text = String(text.prefix(maximum)) }
            while text.count < (f.minLength ?? 0) { text += "x" }
            return .string(text)
        }
    }

    /// `notes.create` → `create`, then `create_2`, … as needed.
    static func uniqueID(for skill: String, taken: [String]) -> String {
        let last = skill.split(separator: ".").last.map(String.init) ?? skill
        var base = String(last.map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "_" })
        if let first = base.first, !first.isLetter { base = "step_" + base }
        var id = base
        var number = 2
        while taken.contains(id) {
            id = "\(base)_\(number)"
            number += 1
        }
        return id
    }

    private static func firstSentence(_ text: String) -> String {
        let line = text.split(separator: "\n").first.map(String.init) ?? text
        guard let end = line.range(of: ". ") else { return line }
        return String(line[..<end.lowerBound]) + "."
    }
}
