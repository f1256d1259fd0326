public import SkillbookCore

/// Turns a model's plan into a playbook and checks it like a hand-written one: the values are
/// coerced by the shared routine (`"true"` → true, `tomorrow 9am` → a date-time), the playbook
/// text is loaded by `PlaybookLoader` (YAML, decoding, sub-playbooks, `PlaybookChecker`), and
/// `PlanLint` adds what the checker lets through. The same text is what `--save` writes.
public struct PlanChecker: Sendable {
    public let registry: SkillRegistry
    public let library: PlaybookLibrary
    public let coercion: Coercion
    /// Input schemas of the playbooks a plan may call, by name.
    public let playbookInputs: [String: Schema]

    public init(registry: SkillRegistry, library: PlaybookLibrary = .empty, coercion: Coercion, playbookInputs: [String: Schema] = [:]) {
        self.registry = registry
        self.library = library
        self.coercion = coercion
        self.playbookInputs = playbookInputs
    }

    public struct Checked: Sendable {
        /// The plan with its values coerced.
        public var plan: Plan
        /// The playbook text (what `--save` writes).
        public var text: String
        /// The loaded playbook, when it has no errors.
        public var playbook: Playbook?
        /// The loader's and the lint's findings.
        public var diagnostics: [Diagnostic]

        public var passes: Bool { playbook != nil && !diagnostics.contains { $0.severity == .error } }
    }

    public func check(_ plan: Plan, name: String = "plan", description: String = "") -> Checked {
        var coerced = plan
        for i in coerced.steps.indices {
            let step = coerced.steps[i]
            let schema = step.isPlaybook ? playbookInputs[step.target] : registry[step.target]?.descriptor.parameters
            guard let schema else { continue }
            for (key, value) in step.with {
                guard let property = schema.property(key), !Self.isReference(value) else { continue }
                coerced.steps[i].with[key] = coercion.coerce(value, to: property)
            }
        }
        let text = Self.playbookText(coerced, name: name, description: description)
        let file = "\(name).yaml"
        let loaded = PlaybookLoader(registry: registry, library: library).load(text, file: file)
        let skills = SkillFacts(registry)
        let lint = PlanLint.lint(
            coerced, kinds: skills.kinds, fields: skills.fields, types: skills.types, parameters: skills.parameters, request: description,
            pathFields: skills.pathFields)
        let diagnostics = loaded.diagnostics + lint
        return Checked(plan: coerced, text: text, playbook: loaded.playbook, diagnostics: diagnostics)
    }

    /// `plan` with the fixes the lint names made (`PlanFix`), or `nil` when it names none; check
    /// the result again.
    public func fixed(_ plan: Plan, description: String = "") -> Plan? {
        let skills = SkillFacts(registry)
        let fixes = PlanLint.fixes(
            plan, kinds: skills.kinds, fields: skills.fields, types: skills.types, parameters: skills.parameters, request: description,
            pathFields: skills.pathFields)
        guard !fixes.isEmpty else { return nil }
        var fixed = plan
        for fix in fixes { fixed.steps[fix.step].with[fix.parameter] = fix.value }
        return fixed
    }

    /// What the lint reads of every registered skill, by id.
    private struct SkillFacts {
        var kinds: [String: SkillDescriptor.Kind] = [:]
        var fields: [String: [String]] = [:]
        var types: [String: [String: ExprType]] = [:]
        var parameters: [String: Schema] = [:]
        /// The output fields that hold paths (`PathReferenceLint`).
        var pathFields: [String: Set<String>] = [:]

        init(_ registry: SkillRegistry) {
            for descriptor in registry.descriptors {
                let offer = PlanOffer(skill: descriptor)
                kinds[descriptor.id] = descriptor.kind
                fields[descriptor.id] = offer.outputFields
                types[descriptor.id] = offer.outputTypes
                parameters[descriptor.id] = offer.parameters
                pathFields[descriptor.id] = PlanOffer.pathFields(of: descriptor.output)
            }
        }
    }

    static func isReference(_ value: Value) -> Bool {
        value.stringValue?.utf8.containsTemplateOpening == true
    }

    /// The plan as playbook YAML; values are written by `YAMLText` (JSON with YAML's escapes),
    /// which reads back unchanged, and a key too long for an implicit key in the explicit form. Steps
    /// whose id is in `confirming` get `confirm: true` (a model-planned action is always asked).
    /// With `outputs`, each step's output is an output named by its step id (a step id that is
    /// not an identifier is left out), so a run of the playbook prints them.
    public static func playbookText(
        _ plan: Plan, name: String, description: String, confirming: Set<String> = [], outputs: Bool = false
    ) -> String {
        var lines = ["name: \(name)"]
        if !description.isEmpty { lines.append("description: \(YAMLText.quoted(description))") }
        // A plan without steps is still a list (`steps:` alone would read as null).
        lines.append(plan.steps.isEmpty ? "steps: []" : "steps:")
        for step in plan.steps {
            lines.append("  - id: \(YAMLText.quoted(step.id))")
            lines.append("    \(step.isPlaybook ? "playbook" : "skill"): \(YAMLText.quoted(step.target))")
            if confirming.contains(step.id) { lines.append("    confirm: true") }
            if !step.with.isEmpty {
                lines.append("    with:")
                for (key, value) in step.with {
                    lines += YAMLText.blockEntry(key: key, value: value, indent: 6)
                }
            }
        }
        let named = plan.steps.map(\.id).filter(isIdentifier)
        if outputs && !named.isEmpty {
            lines.append("outputs:")
            for id in named { lines.append("  \(id): \"${{ steps.\(id).output }}\"") }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Letters, digits and `_`, not starting with a digit: a name an expression can spell.
    private static func isIdentifier(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, !("0"..."9").contains(first) else { return false }
        return text.unicodeScalars.allSatisfy { $0 == "_" || ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) }
    }
}
