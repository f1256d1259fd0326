import Foundation
public import SkillbookCore

/// Problems the checker lets through but that make a plan wrong, found in what models write:
/// - a query step whose output no later step uses (its work is lost; the last step is the result);
/// - Jinja-style `{{ steps.x… }}` without `$`, which validates as plain text;
/// - a `|` filter inside `${{ }}`: "no | filters; use join(list, sep)".
public enum PlanLint {
    /// `kinds`: each skill's kind, by id (an unknown id is left to the checker); `fields`: each
    /// skill's output fields as reference paths, named in the message of an unused query.
    public static func lint(_ plan: Plan, kinds: [String: SkillDescriptor.Kind], fields: [String: [String]] = [:]) -> [Diagnostic] {
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
            guard !step.isPlaybook, kinds[step.target] == .query, i < plan.steps.count - 1 else { continue }
            let used = plan.steps[(i + 1)...].contains { later in
                later.with.contains { _, value in strings(in: value).contains { $0.contains("steps.\(step.id).") } }
            }
            if !used {
                diagnostics.append(
                    .error(
                        "step '\(step.id)' (\(step.target)) is a query whose output no later step uses; "
                            + "pass it on with ${{ steps.\(step.id).output.FIELD }}"
                            + (fields[step.target].map { " (FIELD: \($0.joined(separator: ", ")))" } ?? "") + " or leave the step out",
                        path: "steps[\(i)]"))
            }
        }
        return diagnostics
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
