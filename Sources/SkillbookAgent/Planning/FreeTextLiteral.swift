import SkillbookCore

extension Schema {
    /// A free text: a string with no format and no set of values — a parameter a model can write
    /// any words into, so the words may be its own rather than the request's.
    var isFreeText: Bool { type == .string && format == nil && enumValues == nil }

    /// A mail address or a list of them (`format: email`, or items of that format).
    var holdsEmail: Bool { format == "email" || items?.format == "email" }
}

extension Value {
    /// The text of a plan's literal for a free-text `property` (see `Schema.isFreeText`): a string
    /// that refers to nothing (no `${{`); nil for anything else.
    func freeTextLiteral(for property: Schema) -> String? {
        guard property.isFreeText, let text = stringValue, !text.utf8.containsTemplateOpening else { return nil }
        return text
    }
}

extension Plan {
    /// Every literal of an optional free-text parameter (`Value.freeTextLiteral`) of the steps that
    /// call a skill of `kind`, in step and then name order: what the invented-text lints judge.
    func optionalFreeTexts(
        of kind: SkillDescriptor.Kind, kinds: [String: SkillDescriptor.Kind], parameters: [String: Schema]
    ) -> [(step: Int, name: String, property: Schema, text: String)] {
        var found: [(step: Int, name: String, property: Schema, text: String)] = []
        for (i, step) in steps.enumerated() where !step.isPlaybook && kinds[step.target] == kind {
            guard let schema = parameters[step.target] else { continue }
            for (name, value) in step.with.sorted(by: { $0.key < $1.key }) where !schema.required.contains(name) {
                guard let property = schema.property(name), let text = value.freeTextLiteral(for: property) else { continue }
                found.append((i, name, property, text))
            }
        }
        return found
    }
}
