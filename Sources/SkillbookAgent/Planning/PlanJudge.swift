import Foundation
public import SkillbookCore

/// A reference plan for a request, written by hand: the skills in order and the parameter values
/// that must appear (the request's paths, URLs, titles, dates, and the data passed between steps).
/// Parameters it leaves out may be anything. In a reference value, `${{ steps.N.output.FIELD }}`
/// names the N-th step (from 1); `{"any": [a, b]}` accepts either. `decline: true`: nothing fits,
/// and the right answer is a question, not a plan.
public struct ReferencePlan: Sendable {
    public struct Step: Sendable {
        public var skill: String
        public var with: ValueObject
    }

    public var request: String
    public var steps: [Step]
    public var decline: Bool

    /// `{"request", "steps": [{"skill", "with"}…]}` or `{"request", "decline": true}`.
    public init?(_ value: Value) {
        guard let request = value["request"]?.stringValue else { return nil }
        self.request = request
        decline = value["decline"]?.boolValue ?? false
        steps = (value["steps"]?.arrayValue ?? []).compactMap { step in
            guard let skill = step["skill"]?.stringValue else { return nil }
            return Step(skill: skill, with: step["with"]?.objectValue ?? [:])
        }
    }

    /// The reference as a plan (step ids `s1`, `s2`…; of each `any`, the first), for checking it.
    public var plan: Plan {
        let ids = steps.indices.map { "s\($0 + 1)" }
        return Plan(
            steps: steps.enumerated().map { i, step in
                var with: ValueObject = [:]
                for (key, value) in step.with {
                    let chosen = value["any"]?.arrayValue?.first ?? value
                    with[key] = Self.renumber(chosen, ids: ids)
                }
                return Plan.Step(id: ids[i], target: step.skill, with: with)
            })
    }

    /// `${{ steps.N.… }}` with the N-th id.
    static func renumber(_ value: Value, ids: [String]) -> Value {
        switch value {
        case .string(let text):
            var result = text
            for (i, id) in ids.enumerated().reversed() {
                result = result.replacingOccurrences(of: "steps.\(i + 1).", with: "steps.\(id).")
            }
            return .string(result)
        case .array(let items): return .array(items.map { renumber($0, ids: ids) })
        default: return value
        }
    }
}

/// Whether a model's answer is the reference's: a decline for a decline; otherwise the same skills
/// in the same order, and each value the reference gives (strings trimmed and compared without
/// case; references to the same step's same field).
public enum PlanJudge {
    public struct Verdict: Sendable, Equatable {
        public var correct: Bool
        /// Why not, for the report.
        public var reason: String

        public init(correct: Bool, reason: String) {
            self.correct = correct
            self.reason = reason
        }
    }

    public static func judge(_ answer: ModelAnswer?, against reference: ReferencePlan) -> Verdict {
        if reference.decline {
            switch answer {
            case .question, nil: return Verdict(correct: true, reason: "")
            case .plan(let plan) where plan.steps.isEmpty: return Verdict(correct: true, reason: "")
            case .plan(let plan): return Verdict(correct: false, reason: "planned \(plan.steps.map(\.target)) instead of declining")
            }
        }
        guard case .plan(let plan) = answer else { return Verdict(correct: false, reason: "no plan") }
        let skills = plan.steps.map(\.target)
        let expected = reference.steps.map(\.skill)
        guard skills == expected else { return Verdict(correct: false, reason: "skills \(skills), expected \(expected)") }
        let ids = plan.steps.map(\.id)
        for (i, step) in reference.steps.enumerated() {
            for (key, value) in step.with {
                let options = value["any"]?.arrayValue ?? [value]
                let actual = plan.steps[i].with[key]
                guard let actual, options.contains(where: { matches(actual, ReferencePlan.renumber($0, ids: ids)) }) else {
                    let shown = actual.map { JSONText.encode($0) } ?? "nothing"
                    return Verdict(correct: false, reason: "step \(i + 1) \(key): \(shown), expected \(JSONText.encode(options[0]))")
                }
            }
        }
        return Verdict(correct: true, reason: "")
    }

    static func matches(_ actual: Value, _ expected: Value) -> Bool {
        switch (actual, expected) {
        case (.string(let a), .string(let b)): return normalized(a) == normalized(b)
        case (.array(let a), .array(let b)): return a.count == b.count && zip(a, b).allSatisfy { matches($0, $1) }
        case (.string, .array(let b)) where b.count == 1: return matches(actual, b[0])
        default: return actual == expected
        }
    }

    /// Trimmed, lower-cased, and without the spaces inside `${{ }}`.
    static func normalized(_ text: String) -> String {
        var result = text.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        if result.hasPrefix("${{") { result = result.replacingOccurrences(of: " ", with: "") }
        return result
    }
}
