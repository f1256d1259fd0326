import Foundation
import SkillbookCore

/// A text the model wrote where an earlier step gives a field of the same name: "summarize URL and
/// save it as a note" planned with the note's `title` "Summarized from example.com" while
/// web.summary gives `title`; "… and remind me to read it" with the reminder's `title` "read it".
/// A literal the request does not hold, or one that only points back at what an earlier step found
/// ("it", "them", "它", or a Chinese verb with its object left out: "读一下"), or that is a whole
/// clause of the request ("提醒我下周五下午3点读一下"), is the
/// model's wording where the page's title belongs. A literal the
/// request gives ("… as a note titled Todo") is what the person asked for: nothing to say.
enum SameNamedOutputLint {
    /// One literal the lint finds: where it is, and the earlier step whose field belongs there.
    struct Finding {
        var index: Int
        var name: String
        var text: String
        var why: String
        var source: Plan.Step
        var optional: Bool
    }

    static func lint(
        _ plan: Plan, fields: [String: [String]], types: [String: [String: ExprType]], parameters: [String: Schema], request: String
    ) -> [Diagnostic] {
        findings(plan, fields: fields, types: types, parameters: parameters, request: request).map { found in
            let step = plan.steps[found.index]
            return .error(
                "step '\(step.id)' parameter '\(found.name)' is the text '\(found.text)', \(found.why), while step '\(found.source.id)' "
                    + "(\(found.source.target)) gives '\(found.name)': write \"\(found.name)\": \"\(reference(found))\""
                    + (found.optional ? ", or leave '\(found.name)' out (it is optional)" : ""),
                path: "steps[\(found.index)].with.\(found.name)")
        }
    }

    /// The fix each finding names: the earlier step's field in place of the literal.
    static func fixes(
        _ plan: Plan, fields: [String: [String]], types: [String: [String: ExprType]], parameters: [String: Schema], request: String
    ) -> [PlanFix] {
        findings(plan, fields: fields, types: types, parameters: parameters, request: request).map { found in
            PlanFix(step: found.index, parameter: found.name, value: .string(reference(found)))
        }
    }

    /// The step index and parameter of each finding.
    static func places(
        _ plan: Plan, fields: [String: [String]], types: [String: [String: ExprType]], parameters: [String: Schema], request: String
    ) -> Set<PlanFix.Place> {
        Set(findings(plan, fields: fields, types: types, parameters: parameters, request: request).map { PlanFix.Place(step: $0.index, parameter: $0.name) })
    }

    private static func reference(_ found: Finding) -> String {
        "${{ steps.\(found.source.id).output.\(found.name) }}"
    }

    static func findings(
        _ plan: Plan, fields: [String: [String]], types: [String: [String: ExprType]], parameters: [String: Schema], request: String
    ) -> [Finding] {
        guard !request.isEmpty else { return [] }
        let folded = request.lowercased()
        let clauses = Set(CompoundSplitter.clauses(of: request).map { $0.trimmingCharacters(in: .whitespaces).lowercased() })
        var found: [Finding] = []
        for (i, step) in plan.steps.enumerated() where !step.isPlaybook && i > 0 {
            guard let schema = parameters[step.target] else { continue }
            for (name, value) in step.with.sorted(by: { $0.key < $1.key }) {
                guard let property = schema.property(name), let text = value.freeTextLiteral(for: property) else { continue }
                let trimmed = text.trimmingCharacters(in: .whitespaces)
                let invented = trimmed.isEmpty || !folded.contains(trimmed.lowercased())
                let wholeClause = clauses.contains(trimmed.lowercased())
                let pointsBack = PlanSkeleton.refersBack(trimmed) || Self.leavesItsObjectOut(trimmed)
                guard invented || wholeClause || pointsBack else { continue }
                let source = plan.steps[..<i].last { earlier in
                    !earlier.isPlaybook && (fields[earlier.target] ?? []).contains(name) && types[earlier.target]?[name] == .string
                }
                guard let source else { continue }
                let why =
                    invented
                    ? "which the request does not give"
                    : wholeClause ? "which is a clause of the request, not a value it gives" : "which only points back at what an earlier step found"
                found.append(Finding(index: i, name: name, text: text, why: why, source: source, optional: !schema.required.contains(name)))
            }
        }
        return found
    }

    /// A Chinese verb whose object is left out, as Chinese does when it is what came before:
    /// "读一下" (read it), "看一遍", "看看" — a title that says what to do, not what it is about.
    static func leavesItsObjectOut(_ text: String) -> Bool {
        let characters = Array(text)
        guard (2...4).contains(characters.count), characters.allSatisfy(TextFolding.isCJK) else { return false }
        return text.hasSuffix("一下") || text.hasSuffix("一遍") || (characters.count == 2 && characters[0] == characters[1])
    }
}
