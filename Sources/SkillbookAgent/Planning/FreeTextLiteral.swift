import SkillbookCore

extension Schema {
    /// A free text: a string with no format and no set of values — a parameter a model can write
    /// any words into, so the words may be its own rather than the request's.
    var isFreeText: Bool { type == .string && format == nil && enumValues == nil }
}

extension Value {
    /// The text of a plan's literal for a free-text `property` (see `Schema.isFreeText`): a string
    /// that refers to nothing (no `${{`); nil for anything else.
    func freeTextLiteral(for property: Schema) -> String? {
        guard property.isFreeText, let text = stringValue, !text.utf8.containsTemplateOpening else { return nil }
        return text
    }
}
