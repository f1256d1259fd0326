/// `when` must be a boolean, and strings that look like expressions written the wrong way get a hint.
extension PlaybookChecker {
    static let whenFix = "compare it: `${{ inputs.s == 'yes' }}`"

    /// A `when` is a YAML boolean or one `${{ … }}` of boolean type (or of a type known only at run
    /// time). A literal string — `"false"` included — or an expression of another type is an error
    /// at its position, with a fix that makes it a comparison.
    func checkWhen(_ when: MappedValue, step: String, scope: ExpressionScope, _ diagnostics: inout [Diagnostic]) {
        let subject = "step '\(step)' 'when'"
        switch when.content {
        case .literal(.bool):
            return
        case .literal(.string(let text)):
            let fix: String
            if let bare = Self.bareExpression(text) {
                fix = "did you mean `${{ \(bare) }}`?"
            } else if ["true", "false", "yes", "no"].contains(text.lowercased()) {
                fix = "write `when: \(["true", "yes"].contains(text.lowercased()))` without quotes, or \(Self.whenFix)"
            } else {
                fix = Self.whenFix
            }
            diagnostics.append(
                .error("\(subject) must be a boolean, not the string '\(text)'", at: when.location, hint: fix))
        case .literal(let value):
            diagnostics.append(
                .error("\(subject) must be a boolean, not \(value.typeName)", at: when.location, hint: Self.whenFix))
        case .template(let template):
            guard let expression = template.singleExpression else {
                typeCheck(when, scope: scope, &diagnostics)
                diagnostics.append(
                    .error("\(subject) must be one `${{ … }}` of boolean type, not text around it", at: when.location,
                        hint: Self.whenFix))
                return
            }
            guard let type = typeCheck(when, scope: scope, &diagnostics), ![.boolean, .any, .null].contains(type) else { return }
            let source = expression.source
            let fix: String =
                switch type {
                case .string: "compare it: `${{ \(source) == 'yes' }}`"
                case .integer, .number: "compare it: `${{ \(source) > 0 }}`"
                case .array, .object: "test its length: `${{ length(\(source)) > 0 }}`"
                default: Self.whenFix
                }
            diagnostics.append(
                .error("\(subject) must be a boolean, got \(type)", at: when.location(ofOffset: expression.offset), hint: fix))
        case .array, .object:
            typeCheck(when, scope: scope, &diagnostics)
            diagnostics.append(.error("\(subject) must be a boolean, not a list or mapping", at: when.location, hint: Self.whenFix))
        }
    }

    /// The text when it is a bare expression path (`inputs.urls`, `steps.ls.output.items`), the way
    /// people write it when they forget `${{ }}`.
    static func bareExpression(_ text: String) -> String? {
        let trimmed = text.trimmingWhiteSpace()
        guard trimmed.contains("."), !trimmed.utf8.containsDoubleBrace,
            let root = trimmed.split(whereSeparator: { $0 == "." || $0 == "[" }).first,
            ["inputs", "steps", "item", "run", "env", "this"].contains(String(root)),
            (try? TemplateString.parse("${{ \(trimmed) }}")) != nil
        else { return nil }
        return trimmed
    }

    /// Warnings for `{{ inputs.name }}` (Jinja's and GitHub's old spelling) in text that reaches a
    /// skill as is. A `{{ … }}` is reported when what is inside parses as an expression that starts
    /// with one of the expression roots (`inputs`, `steps`, `item`, `index`, `run`, `env`, `this`)
    /// — so `{{ name }}` is left alone — and the parameter does not take `{{ }}` placeholders of
    /// its own (its description shows `{{`, as `text.template`'s `template` does).
    func warnAboutJinja(in value: MappedValue, schema: Schema?, _ diagnostics: inout [Diagnostic]) {
        if let description = schema?.description, description.utf8.containsDoubleBrace { return }
        switch value.content {
        case .literal(let literal):
            warnAboutJinja(in: literal, path: [], holder: value, schema: schema, &diagnostics)
        case .template(let template):
            for (offset, inside) in Self.jinjaPlaceholders(in: template.source) {
                diagnostics.append(Self.jinjaWarning(inside, at: value.location(ofOffset: offset)))
            }
        case .array(let items):
            for item in items { warnAboutJinja(in: item, schema: schema?.items, &diagnostics) }
        case .object(let members):
            for member in members { warnAboutJinja(in: member.value, schema: schema?.property(member.key), &diagnostics) }
        }
    }

    private func warnAboutJinja(
        in literal: Value, path: [PathComponent], holder: MappedValue, schema: Schema?, _ diagnostics: inout [Diagnostic]
    ) {
        if let description = schema?.description, description.utf8.containsDoubleBrace { return }
        switch literal {
        case .string(let text):
            for (offset, inside) in Self.jinjaPlaceholders(in: text) {
                let location = path.isEmpty ? holder.location(ofOffset: offset) : holder.location(of: path)
                diagnostics.append(Self.jinjaWarning(inside, at: location))
            }
        case .array(let items):
            for (index, item) in items.enumerated() {
                warnAboutJinja(in: item, path: path + [.index(index)], holder: holder, schema: schema?.items, &diagnostics)
            }
        case .object(let object):
            for member in object {
                warnAboutJinja(
                    in: member.value, path: path + [.key(member.key)], holder: holder, schema: schema?.property(member.key),
                    &diagnostics)
            }
        default:
            break
        }
    }

    private static func jinjaWarning(_ inside: String, at location: SourceLocation) -> Diagnostic {
        .warning(
            "'{{ \(inside) }}' is not an expression here and is passed on as text; did you mean `${{ \(inside) }}`?",
            at: location)
    }

    /// Each `{{ … }}` not preceded by `$` whose inside reads as a rooted expression: its character
    /// offset and its trimmed inside.
    static func jinjaPlaceholders(in text: String) -> [(offset: Int, inside: String)] {
        guard text.utf8.containsBareDoubleBrace else { return [] }
        let chars = Array(text)
        var found: [(Int, String)] = []
        var i = 0
        while i + 1 < chars.count {
            guard chars[i] == "{", chars[i + 1] == "{", i == 0 || chars[i - 1] != "$" else {
                i += 1
                continue
            }
            var j = i + 2
            while j + 1 < chars.count, !(chars[j] == "}" && chars[j + 1] == "}") { j += 1 }
            guard j + 1 < chars.count else { break }
            let inside = String(chars[(i + 2)..<j]).trimmingWhiteSpace()
            if let root = inside.prefix(while: { $0.isLetter || $0 == "_" }).nilIfEmpty,
                ["inputs", "steps", "item", "index", "run", "env", "this"].contains(String(root)),
                (try? TemplateString.parse("${{ \(inside) }}")) != nil
            {
                found.append((i, inside))
            }
            i = j + 2
        }
        return found
    }
}

extension StringProtocol {
    var nilIfEmpty: Self? { isEmpty ? nil : self }
}
