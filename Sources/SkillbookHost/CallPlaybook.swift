import SkillbookCore

/// The one-step playbook `skillbook call SKILL` runs: its parameters are the playbook's inputs
/// (each with the parameter's own schema, so values are coerced, checked and masked like a
/// playbook's inputs, and never read as expressions), its one output the skill's output.
///
/// Written as playbook text, so the journal keeps it like any run's: `resume` and `rollback`
/// work on a call as on a playbook.
enum CallPlaybook {
    /// The name of the run in the journal: `call-` and the skill id in lower case with `-`.
    static func name(of skill: String) -> String {
        "call-" + String(skill.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "-" })
    }

    /// The step's id: the skill id with `_` for what is not a letter or digit.
    static func stepID(of skill: String) -> String {
        String(skill.map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "_" })
    }

    /// Whether a parameter can be an input of the generated playbook (`inputs.NAME` reads it).
    static func isPlainName(_ name: String) -> Bool {
        guard let first = name.first, first.isASCII, first.isLetter || first == "_" else { return false }
        return name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
    }

    /// The text of the playbook calling `descriptor` with the parameters `given` (and every
    /// required one, which the inputs then ask for).
    static func text(_ descriptor: SkillDescriptor, given: [String]) -> String {
        let properties = descriptor.parameters.fields.properties
        let required = descriptor.parameters.fields.required
        let names = properties.map(\.name).filter { given.contains($0) || required.contains($0) }
        let step = stepID(of: descriptor.id)
        // Every value through YAMLText, so what YAML reads back is what was written (issue 28.2–4).
        var lines = ["# skillbook call \(YAMLText.comment(descriptor.id))", "name: " + YAMLText.scalar(name(of: descriptor.id))]
        lines.append("description: " + YAMLText.quoted("skillbook call \(descriptor.id)"))
        if !names.isEmpty {
            lines.append("inputs:")
            for (name, schema) in properties where names.contains(name) {
                lines += YAMLText.entry(key: name, valueText: YAMLText.flow(JSONSchemaExport.export(schema)), indent: 2)
            }
        }
        lines += ["steps:", "  - id: \(step)", "    skill: " + YAMLText.scalar(descriptor.id)]
        if !names.isEmpty {
            lines.append("    with:")
            for name in names { lines += YAMLText.entry(key: name, valueText: YAMLText.quoted("${{ inputs.\(name) }}"), indent: 6) }
        }
        lines += ["outputs:", "  output: \"${{ steps.\(step).output }}\""]
        let text = lines.joined(separator: "\n") + "\n"
        return text
    }
}
