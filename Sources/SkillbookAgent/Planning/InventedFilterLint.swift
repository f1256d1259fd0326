import Foundation
import SkillbookCore

/// A filter the model added to a query that the request does not name: "列出我的笔记然后把标题写入
/// F" planned with notes.list `tag: "important"` (or `"my_note_tag"`), which lists none of the notes
/// asked for. An optional plain text parameter of a query (no format, no set of values) whose
/// literal is a word or words (letters, digits, spaces, `_`, `-`) the request does not hold is the
/// model's, not the person's; a pattern such as a glob (`*.log`) is left alone, since a request
/// names it in other words. Its one fix is leaving the parameter out (`fixes`).
enum InventedFilterLint {
    static func lint(_ plan: Plan, kinds: [String: SkillDescriptor.Kind], parameters: [String: Schema], request: String) -> [Diagnostic] {
        invented(plan, kinds: kinds, parameters: parameters, request: request).map { i, name, text in
            let step = plan.steps[i]
            return .error(
                "step '\(step.id)' (\(step.target)) parameter '\(name)' is '\(text)', which the request does not name; "
                    + "leave '\(name)' out unless the request gives it",
                path: "steps[\(i)].with.\(name)")
        }
    }

    /// Each invented filter left out.
    static func fixes(_ plan: Plan, kinds: [String: SkillDescriptor.Kind], parameters: [String: Schema], request: String) -> [PlanFix] {
        invented(plan, kinds: kinds, parameters: parameters, request: request).map { PlanFix(step: $0.step, parameter: $0.name, value: nil) }
    }

    /// The step index, parameter and text of every invented filter, in order.
    static func invented(
        _ plan: Plan, kinds: [String: SkillDescriptor.Kind], parameters: [String: Schema], request: String
    ) -> [(step: Int, name: String, text: String)] {
        guard !request.isEmpty else { return [] }
        let folded = request.lowercased()
        return plan.optionalFreeTexts(of: .query, kinds: kinds, parameters: parameters).filter { found in
            let trimmed = found.text.trimmingCharacters(in: .whitespaces)
            return !trimmed.isEmpty && trimmed.allSatisfy({ $0.isLetter || $0.isNumber || " _-".contains($0) })
                && !folded.contains(trimmed.lowercased())
        }.map { ($0.step, $0.name, $0.text) }
    }
}
