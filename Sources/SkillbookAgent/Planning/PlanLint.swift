import Foundation
public import SkillbookCore

/// Problems the checker lets through but that make a plan wrong, found in what models write:
/// - a query step whose output no later step uses (its work is lost; the last step is the result);
/// - Jinja-style `{{ steps.x… }}` without `$`, which validates as plain text;
/// - a `|` filter inside `${{ }}`: "no | filters; use join(list, sep)";
/// - a regular expression that finds nothing as written (`RegexLint`: a backspace for `\b`,
///   `^`/`$` without `(?m)` over a text of many lines);
/// - a path the request names that no step uses while a path parameter takes an earlier output
///   (`NamedPathLint`);
/// - a text the request does not give where an earlier step gives a field of the same name (a
///   note's `title` after web.summary, `SameNamedOutputLint`);
/// - a query's optional filter word the request does not name (notes.list `tag: "important"`,
///   `InventedFilterLint`), or an action's optional text that shares no word with the request
///   (reminders.create `notes: "会议在会议室A"`, `InventedTextLint`).
public enum PlanLint {
    /// `kinds`: each skill's kind, by id (an unknown id is left to the checker); `fields`: each
    /// skill's output fields as reference paths, named in the message of an unused query;
    /// `types`: their types and `parameters`: each skill's parameter schema, from which the message
    /// suggests one reference to write (a later step's text that is not in `request` first).
    public static func lint(
        _ plan: Plan, kinds: [String: SkillDescriptor.Kind], fields: [String: [String]] = [:], types: [String: [String: ExprType]] = [:],
        parameters: [String: Schema] = [:], request: String = "", pathFields: [String: Set<String>] = [:]
    ) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        let ids = Set(plan.steps.map(\.id))
        for (i, step) in plan.steps.enumerated() {
            for (name, value) in step.with {
                for text in strings(in: value) {
                    let path = "steps[\(i)].with.\(name)"
                    if hasBareTemplate(text, stepIDs: ids) {
                        diagnostics.append(
                            .error(
                                "step '\(step.id)' parameter '\(name)' uses {{ … }} without '$', which is plain text; "
                                    + "a reference is written ${{ steps.ID.output.FIELD }}", path: path))
                    }
                    if hasPipe(text) {
                        diagnostics.append(.error("step '\(step.id)' parameter '\(name)': no | filters; use join(list, sep)", path: path))
                    }
                }
            }
            if !step.isPlaybook, let schema = parameters[step.target] {
                diagnostics += RegexLint.lint(step, index: i, parameters: schema, request: request)
            }
            guard !step.isPlaybook, kinds[step.target] == .query, i < plan.steps.count - 1 else { continue }
            let used = plan.steps[(i + 1)...].contains { later in
                later.with.contains { _, value in strings(in: value).contains { $0.contains("steps.\(step.id).") } }
            }
            // (a query the person asked to see — "first tell me how big X is, then …", "看一下 X 的状态，
            // 然后 …" — is for them: a plan's run prints every step's output)
            if !used, !shownToThePerson(step: i, of: plan, request: request) {
                let listed = fields[step.target].map { " (FIELD: \($0.joined(separator: ", ")))" } ?? ""
                let suggestion = suggest(
                    for: step, fields: fields[step.target] ?? [], types: types[step.target] ?? [:], later: plan.steps[(i + 1)...],
                    parameters: parameters, request: request)
                let message =
                    if let suggestion {
                        "step '\(step.id)' (\(step.target)) is a query whose output no later step uses; pass it on, "
                            + "as in \"\(suggestion.parameter)\": \"${{ steps.\(step.id).output.\(suggestion.field) }}\" in step '\(suggestion.step)'"
                            + listed + ", or leave the step out"
                    } else {
                        "step '\(step.id)' (\(step.target)) is a query whose output no later step uses; "
                            + "pass it on with ${{ steps.\(step.id).output.FIELD }}" + listed + " or leave the step out"
                    }
                diagnostics.append(.error(message, path: "steps[\(i)]"))
            }
        }
        // (a literal where an earlier step gives the same field is that field, not left out)
        for (i, step) in plan.steps.enumerated() where !step.isPlaybook {
            guard let schema = parameters[step.target] else { continue }
            for (name, why) in filledLists(step, schema: schema) {
                diagnostics.append(
                    .error("step '\(step.id)' (\(step.target)) parameter '\(name)' is \(why); leave '\(name)' out", path: "steps[\(i)].with.\(name)"))
            }
        }
        for (i, name, needed) in withheld(plan, parameters: parameters) {
            let step = plan.steps[i]
            diagnostics.append(
                .error(
                    "step '\(step.id)' (\(step.target)) parameter '\(name)' goes only with '\(needed)', which a plan cannot give; leave '\(name)' out",
                    path: "steps[\(i)].with.\(name)"))
        }
        let sameNamed = SameNamedOutputLint.places(plan, fields: fields, types: types, parameters: parameters, request: request)
        return diagnostics + NamedPathLint.lint(plan, parameters: parameters, request: request)
            + PathReferenceLint.lint(plan, kinds: kinds, parameters: parameters, pathFields: pathFields, fields: fields)
            + QuotedValueLint.lint(plan, parameters: parameters, request: request)
            + SameNamedOutputLint.lint(plan, fields: fields, types: types, parameters: parameters, request: request)
            + InventedFilterLint.lint(plan, kinds: kinds, parameters: parameters, request: request)
            + InventedTextLint.lint(plan, kinds: kinds, parameters: parameters, request: request, except: sameNamed)
    }

    /// The fixes the lint's messages name, where one is the only right one (see `PlanFix`).
    public static func fixes(
        _ plan: Plan, kinds: [String: SkillDescriptor.Kind] = [:], fields: [String: [String]] = [:], types: [String: [String: ExprType]] = [:],
        parameters: [String: Schema] = [:], request: String = "", pathFields: [String: Set<String>] = [:]
    ) -> [PlanFix] {
        var fixes: [PlanFix] = []
        for (i, step) in plan.steps.enumerated() where !step.isPlaybook {
            guard let schema = parameters[step.target] else { continue }
            fixes += RegexLint.fixes(step, index: i, parameters: schema, request: request)
            // An optional text given as "" ("tag": "" for every note) is one the request did not give.
            let required = Set(schema.required)
            for (name, value) in step.with where value == .string("") && !required.contains(name) && schema.property(name) != nil {
                fixes.append(PlanFix(step: i, parameter: name, value: nil))
            }
            fixes += filledLists(step, schema: schema).map { PlanFix(step: i, parameter: $0.name, value: nil) }
        }
        fixes += withheld(plan, parameters: parameters).map { PlanFix(step: $0.step, parameter: $0.name, value: nil) }
        fixes += PathReferenceLint.fixes(plan, kinds: kinds, parameters: parameters, pathFields: pathFields, fields: fields)
        fixes += unknownFields(plan, fields: fields, types: types, parameters: parameters)
        fixes += QuotedValueLint.fixes(plan, parameters: parameters, request: request)
        let sameNamed = SameNamedOutputLint.places(plan, fields: fields, types: types, parameters: parameters, request: request)
        return fixes + SameNamedOutputLint.fixes(plan, fields: fields, types: types, parameters: parameters, request: request)
            + InventedFilterLint.fixes(plan, kinds: kinds, parameters: parameters, request: request)
            + InventedTextLint.fixes(plan, kinds: kinds, parameters: parameters, request: request, except: sameNamed)
    }

    /// A reference to an output field the earlier step does not have ("text.extract has no output
    /// field 'content'") made the one field of that step the parameter can take, when there is
    /// exactly one (or one of the parameter's name): the loader's error names the fields, but the
    /// only right one need not cost a model call.
    static func unknownFields(
        _ plan: Plan, fields: [String: [String]], types: [String: [String: ExprType]], parameters: [String: Schema]
    ) -> [PlanFix] {
        var fixes: [PlanFix] = []
        var earlier: [String: Plan.Step] = [:]
        for (i, step) in plan.steps.enumerated() {
            defer { earlier[step.id] = step }
            guard !step.isPlaybook, let schema = parameters[step.target] else { continue }
            for (name, value) in step.with {
                guard let property = schema.property(name), let text = value.stringValue,
                    let (id, field) = PathReferenceLint.reference(text), let source = earlier[id], !source.isPlaybook,
                    let known = fields[source.target], !known.contains(field),
                    // (a field under an object of open shape, web.fetch's `headers.etag`, is its own)
                    !known.contains(where: { field.hasPrefix($0 + ".") })
                else { continue }
                let sourceTypes = types[source.target] ?? [:]
                let fitting = known.filter { (sourceTypes[$0] ?? .any).isAssignable(to: property) }
                // (a free text takes a text, not an address, path or id: files.read's `content`, not its `path`)
                let plain = property.isFreeText ? fitting.filter { isPlainText($0, types: sourceTypes) } : []
                let only = fitting.count == 1 ? fitting.first : plain.count == 1 ? plain.first : nil
                guard let chosen = fitting.first(where: { $0 == name }) ?? only else { continue }
                fixes.append(PlanFix(step: i, parameter: name, value: .string("${{ steps.\(id).output.\(chosen) }}")))
            }
        }
        return fixes
    }

    /// Whether step `index` is a clause of the request that asks to be shown or told something, when
    /// the plan has one step per clause (`CompoundSplitter.asksToBeShown`).
    static func shownToThePerson(step index: Int, of plan: Plan, request: String) -> Bool {
        guard !request.isEmpty else { return false }
        let clauses = CompoundSplitter.clauses(of: request)
        return clauses.count == plan.steps.count && CompoundSplitter.asksToBeShown(clauses[index])
    }

    /// The optional lists of `step` filled with nothing (`undo: [""]`) or with another of its
    /// lists (shell.run `undo` = its `argv`, which would run the command again on rollback): the
    /// request gave neither. Each with why, as the diagnostic says it.
    static func filledLists(_ step: Plan.Step, schema: Schema) -> [(name: String, why: String)] {
        var found: [(name: String, why: String)] = []
        for (name, value) in step.with where !schema.required.contains(name) && schema.property(name)?.type == .array {
            guard case .array(let items) = value else { continue }
            if !items.isEmpty, items.allSatisfy({ $0 == .string("") }) {
                found.append((name, "a list of empty texts"))
            } else if !items.isEmpty, let other = step.with.first(where: { $0.key != name && $0.value == value })?.key {
                found.append((name, "the same list as its '\(other)'"))
            }
        }
        return found
    }

    /// Each parameter a step gives that its offer withholds because it goes only with a secret
    /// (`PlanOffer.withoutSecrets`: mail.send's `username` with `password`), when the step does
    /// not give that secret: `needed` is the parameter it goes with. `parameters` are the offers'.
    static func withheld(_ plan: Plan, parameters: [String: Schema]) -> [(step: Int, name: String, needed: String)] {
        var found: [(step: Int, name: String, needed: String)] = []
        for (i, step) in plan.steps.enumerated() where !step.isPlaybook {
            guard let schema = parameters[step.target] else { continue }
            let rules = PlanOffer.withheldBySecrets(schema)
            let needs = Dictionary(rules.map { ($0.name, $0.needed) }, uniquingKeysWith: { a, _ in a })
            // (given only when the secret at the end of the chain is: auth → username → password)
            func secret(of name: String) -> String {
                var at = name
                var seen: Set<String> = []
                while let next = needs[at], seen.insert(at).inserted { at = next }
                return at
            }
            for (name, needed) in rules where step.with[name] != nil && step.with[secret(of: name)] == nil {
                found.append((i, name, needed))
            }
        }
        return found.sorted { ($0.step, $0.name) < ($1.step, $1.name) }
    }

    /// A reference to `query`'s output for a later step: the parameter is a plain text of a later
    /// step, one not found in the request first (the model wrote it instead of passing data on);
    /// the field is one of the query's whose type the parameter accepts, the same-named one first,
    /// then a text other than an address, path or id.
    static func suggest(
        for query: Plan.Step, fields: [String], types: [String: ExprType], later: ArraySlice<Plan.Step>, parameters: [String: Schema],
        request: String
    ) -> (step: String, parameter: String, field: String)? {
        let folded = request.lowercased()
        var options: [(step: String, parameter: String, field: String, invented: Bool)] = []
        for step in later where !step.isPlaybook {
            guard let schema = parameters[step.target] else { continue }
            for (name, property) in schema.properties where property.isFreeText {
                let text = step.with[name]?.stringValue
                if let text, text.utf8.containsTemplateOpening { continue }
                let fitting = fields.filter { (types[$0] ?? .any).isAssignable(to: property) }
                let plain = fitting.filter { isPlainText($0, types: types) }
                guard let field = fitting.first(where: { $0 == name }) ?? plain.first ?? fitting.first else { continue }
                let invented = text.map { !folded.contains($0.lowercased()) } ?? false
                options.append((step.id, name, field, invented))
            }
        }
        let best = options.first(where: \.invented) ?? options.first
        return best.map { ($0.step, $0.parameter, $0.field) }
    }

    /// Whether an output field is a text of words (a note's `title`, a file's `content`), not an
    /// address, path, id, status or language.
    static func isPlainText(_ field: String, types: [String: ExprType]) -> Bool {
        types[field] == .string && !["url", "path", "id", "status", "language"].contains(field)
    }

    static func strings(in value: Value) -> [String] {
        switch value {
        case .string(let s): [s]
        case .array(let items): items.flatMap(strings)
        case .object(let object): object.flatMap { strings(in: $0.value) }
        default: []
        }
    }

    /// `{{ steps.a.output.x }}` or `{{ inputs.y }}` not preceded by `$` (a `{{name}}` placeholder of
    /// text.template is fine: it names no step or input).
    /// `{{ steps.… }}`, `{{ inputs.… }}`, `{{ item… }}` or `{{ ID.… }}` for a step id `ID`, without `$`.
    static func hasBareTemplate(_ text: String, stepIDs: Set<String> = []) -> Bool {
        var rest = Substring(text)
        while let open = rest.range(of: "{{") {
            let before = rest[..<open.lowerBound].last
            let inside = rest[open.upperBound...].drop { $0 == " " }
            let head = String(inside.prefix { $0.isLetter || $0.isNumber || $0 == "_" })
            let named = inside.dropFirst(head.count).first == "." && stepIDs.contains(head)
            if before != "$", inside.hasPrefix("steps.") || inside.hasPrefix("inputs.") || inside.hasPrefix("item") || named {
                return true
            }
            rest = rest[open.upperBound...]
        }
        return false
    }

    /// A `|` (not `||`) inside `${{ … }}`.
    static func hasPipe(_ text: String) -> Bool {
        var rest = Substring(text)
        while let open = rest.range(of: "${{") {
            let body = rest[open.upperBound...]
            let inside = body.range(of: "}}").map { body[..<$0.lowerBound] } ?? body
            let chars = Array(inside)
            for (i, c) in chars.enumerated() where c == "|" {
                let double = (i > 0 && chars[i - 1] == "|") || (i + 1 < chars.count && chars[i + 1] == "|")
                if !double { return true }
            }
            rest = body
        }
        return false
    }
}
