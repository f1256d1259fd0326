import Foundation
import SkillbookCore

/// A free text that is the request's own instruction around a quoted value ("Please write
/// 'Standup moved to 10:30' into /srv/announce.txt" as files.write's `content`): the value is the
/// quoted text, which the checker's fix puts in its place.
enum QuotedValueLint {
    static func found(_ plan: Plan, parameters: [String: Schema], request: String) -> [(step: Int, name: String, text: String, quoted: String)] {
        guard !request.isEmpty else { return [] }
        let said = request.lowercased()
        var found: [(step: Int, name: String, text: String, quoted: String)] = []
        for (i, step) in plan.steps.enumerated() where !step.isPlaybook {
            guard let schema = parameters[step.target] else { continue }
            for (name, value) in step.with.sorted(by: { $0.key < $1.key }) {
                // (an instruction starts with its verb: "Please write 'X' into F"; "always run 'make
                // check' before you push" is a body that quotes a command)
                guard let property = schema.property(name), let text = value.freeTextLiteral(for: property),
                    said.contains(text.lowercased()), let quoted = Self.onlyQuoted(in: text), quoted.count + 6 < text.count,
                    CompoundSplitter.startsWithVerb(FoldedText(text).text)
                else { continue }
                found.append((i, name, text, quoted))
            }
        }
        return found
    }

    static func lint(_ plan: Plan, parameters: [String: Schema], request: String) -> [Diagnostic] {
        found(plan, parameters: parameters, request: request).map { i, name, text, quoted in
            let step = plan.steps[i]
            return .error(
                "step '\(step.id)' (\(step.target)) parameter '\(name)' is the request's words '\(text)'; give the quoted text '\(quoted)'",
                path: "steps[\(i)].with.\(name)")
        }
    }

    static func fixes(_ plan: Plan, parameters: [String: Schema], request: String) -> [PlanFix] {
        found(plan, parameters: parameters, request: request).map { PlanFix(step: $0.step, parameter: $0.name, value: .string($0.quoted)) }
    }

    /// The text inside the one quoted span of `text` (`TextFolding.quotedTexts`), when it has
    /// exactly one that holds more than spaces.
    static func onlyQuoted(in text: String) -> String? {
        guard let spans = TextFolding.quotedTexts(text), spans.count == 1, let only = spans.first,
            !only.trimmingCharacters(in: .whitespaces).isEmpty
        else { return nil }
        return only
    }
}
