/// Rules of an object schema about which properties go together — `dependentRequired`, and
/// `anyOf`/`oneOf`/`not` whose alternatives only say which properties are present — decided on
/// the names alone. The playbook checker uses them on a step's `with`, where a value may be an
/// expression whose result is unknown until the run but whose presence is known now.
extension Schema {
    /// `{required: names}`: an alternative of `anyOf`/`oneOf` (or the schema under `not`) that
    /// says only which properties an object has.
    public static func requiring(_ names: [String]) -> Schema {
        var fields = SchemaFields()
        fields.required = names
        fields.keyOrder = ["required"]
        return Schema(fields: fields)
    }

    /// The names an alternative requires when `required` is all it says, else `nil`.
    var requiredNamesOnly: [String]? {
        let f = resolved.fields
        guard !f.required.isEmpty, f.boolean == nil, f.types == nil, f.properties.isEmpty, f.patternProperties.isEmpty,
            f.dependentRequired.isEmpty, f.allOf == nil, f.anyOf == nil, f.oneOf == nil, f.not == nil,
            f.enumValues == nil, f.constValue == nil, f.additionalProperties == nil, f.additionalSchema == nil,
            f.propertyNames == nil, f.ref == nil
        else { return nil }
        return f.required
    }

    /// Each rule about which properties go together that an object with exactly `given`
    /// properties breaks, as a predicate whose subject is the object's owner: `needs 'into' with
    /// 'paths'`, `takes 'paths' or 'copies', not both`, `needs 'paths' with 'into' or 'copies'`.
    public func presenceProblems(given: Set<String>) -> [String] {
        let f = resolved.fields
        var problems: [String] = []
        var asked = given
        for (name, needed) in f.dependentRequired where given.contains(name) {
            for other in needed where !given.contains(other) {
                problems.append("needs '\(other)' with '\(name)'")
                asked.insert(other)
            }
        }
        if let excluded = f.not, let problem = Self.exclusionProblem(excluded, given: given) { problems.append(problem) }
        for (keyword, alternatives) in [("anyOf", f.anyOf), ("oneOf", f.oneOf)] {
            // (half of a pair, 'into' without 'paths': "needs 'paths' with 'into'" already says what
            // meets an alternative, "needs 'paths' or 'moves'" would say it again)
            if let alternatives, let problem = Self.alternativesProblem(keyword, alternatives, given: given),
                asked == given || Self.alternativesProblem(keyword, alternatives, given: asked) != nil
            {
                problems.append(problem)
            }
        }
        return problems
    }

    /// The properties an object of this schema must have at the least: `required`, the names of
    /// the first `oneOf`/`anyOf` alternative that only says which are present, and what
    /// `dependentRequired` asks with those — `paths` and `into` for files.copy. What
    /// `skillbook new` writes into a step's `with`.
    public var namesToGive: Set<String> {
        let f = resolved.fields
        var names = Set(f.required)
        if let first = (f.oneOf ?? f.anyOf)?.first?.requiredNamesOnly { names.formUnion(first) }
        var grew = true
        while grew {
            grew = false
            for (name, needed) in f.dependentRequired where names.contains(name) && !needed.allSatisfy(names.contains) {
                names.formUnion(needed)
                grew = true
            }
        }
        return names
    }

    /// What an object with `given` properties breaks of `not: {required: [...]}`; `nil` when the
    /// schema under `not` says more than `required`, or when not every name is given.
    static func exclusionProblem(_ excluded: Schema, given: Set<String>) -> String? {
        guard let names = excluded.requiredNamesOnly, names.allSatisfy(given.contains) else { return nil }
        return "takes \(listed(names, "or")), not \(names.count == 2 ? "both" : "all of them")"
    }

    /// What an object with `given` properties breaks of `anyOf`/`oneOf` alternatives that each
    /// say only `required`: none met, or (for `oneOf`) more than one; `nil` when it breaks
    /// nothing or an alternative says more.
    static func alternativesProblem(_ keyword: String, _ alternatives: [Schema], given: Set<String>) -> String? {
        let names = alternatives.compactMap(\.requiredNamesOnly)
        guard !names.isEmpty, names.count == alternatives.count else { return nil }
        let met = names.filter { $0.allSatisfy(given.contains) }
        let choices = listed(names.map { $0.map { "'\($0)'" }.joined(separator: " with ") }, "or", quoted: false)
        if met.isEmpty { return "needs \(choices)" }
        if keyword == "oneOf", met.count > 1 { return "takes \(choices), not \(met.count == 2 ? "both" : "several")" }
        return nil
    }

    /// `'a'`, `'a' or 'b'`, `'a', 'b' or 'c'`.
    static func listed(_ items: [String], _ conjunction: String, quoted: Bool = true) -> String {
        let shown = quoted ? items.map { "'\($0)'" } : items
        guard shown.count > 1 else { return shown.first ?? "" }
        return shown.dropLast().joined(separator: ", ") + " \(conjunction) " + shown[shown.count - 1]
    }
}
