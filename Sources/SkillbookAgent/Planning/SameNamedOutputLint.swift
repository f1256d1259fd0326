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
    static func lint(
        _ plan: Plan, fields: [String: [String]], types: [String: [String: ExprType]], parameters: [String: Schema], request: String
    ) -> [Diagnostic] {
        guard !request.isEmpty else { return [] }
        let folded = request.lowercased()
        let clauses = Set(CompoundSplitter.clauses(of: request).map { $0.trimmingCharacters(in: .whitespaces).lowercased() })
        var diagnostics: [Diagnostic] = []
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
                diagnostics.append(
                    .error(
                        "step '\(step.id)' parameter '\(name)' is the text '\(text)', \(why), while step '\(source.id)' (\(source.target)) "
                            + "gives '\(name)': write \"\(name)\": \"${{ steps.\(source.id).output.\(name) }}\""
                            + (schema.required.contains(name) ? "" : ", or leave '\(name)' out (it is optional)"),
                        path: "steps[\(i)].with.\(name)"))
            }
        }
        return diagnostics
    }

    /// A Chinese verb whose object is left out, as Chinese does when it is what came before:
    /// "读一下" (read it), "看一遍", "看看" — a title that says what to do, not what it is about.
    static func leavesItsObjectOut(_ text: String) -> Bool {
        let characters = Array(text)
        guard (2...4).contains(characters.count), characters.allSatisfy(TextFolding.isCJK) else { return false }
        return text.hasSuffix("一下") || text.hasSuffix("一遍") || (characters.count == 2 && characters[0] == characters[1])
    }
}
