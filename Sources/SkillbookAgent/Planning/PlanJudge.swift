import Foundation
public import SkillbookCore

/// A reference plan for a request, written by hand: the skills in order and the parameter values
/// that must appear (the request's paths, URLs, titles, dates, and the data passed between steps).
/// Parameters it leaves out may be anything. In a reference value, `${{ steps.N.output.FIELD }}`
/// names the N-th step (from 1); `{"any": [a, b]}` accepts either. A step's `run` holds values its
/// own run uses that are not judged (a regex: any that finds what it finds will do). `decline: true`:
/// nothing fits, and the right answer is a question, not a plan.
public struct ReferencePlan: Sendable {
    public struct Step: Sendable {
        public var skill: String
        public var with: ValueObject
        /// Values the reference's run uses, not compared with a model's (`text.extract`'s `regex`).
        public var run: ValueObject
    }

    public var request: String
    public var steps: [Step]
    public var decline: Bool
    /// Why the request does not yet reach the planner through `ask` (or is not declined), for a
    /// row the matcher still gets wrong; `nil` for every other row.
    public var known: String?

    /// `{"request", "steps": [{"skill", "with", "run"?}…], "known"?}` or `{"request", "decline": true}`.
    public init?(_ value: Value) {
        guard let request = value["request"]?.stringValue else { return nil }
        self.request = request
        decline = value["decline"]?.boolValue ?? false
        known = value["known"]?.stringValue
        steps = (value["steps"]?.arrayValue ?? []).compactMap { step in
            guard let skill = step["skill"]?.stringValue else { return nil }
            return Step(skill: skill, with: step["with"]?.objectValue ?? [:], run: step["run"]?.objectValue ?? [:])
        }
    }

    /// The halves of the seeded split: the routing set's (`RoutingSet.half`).
    public typealias Half = RoutingSet.Half

    /// Which half of the seeded split the request is in.
    public var half: Half { RoutingSet.half(of: request) }

    /// The reference as a plan (step ids `s1`, `s2`…; of each `any`, the first; with its `run`
    /// values), for checking and running it.
    public var plan: Plan {
        let ids = steps.indices.map { "s\($0 + 1)" }
        return Plan(
            steps: steps.enumerated().map { i, step in
                var with: ValueObject = [:]
                for (key, value) in step.with {
                    let chosen = value["any"]?.arrayValue?.first ?? value
                    with[key] = Self.renumber(chosen, ids: ids)
                }
                for (key, value) in step.run { with[key] = value }
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
/// in the same order, and each value the reference gives: strings trimmed and compared without
/// case, date-times as instants, references to the same step's same field. A literal where the
/// reference passes an earlier step's output is wrong, and so is a reference where the reference
/// (the request) gives a literal; so is a date the reference leaves out (an invented `due_on`).
/// Whether the plan does what its reference does when it runs is `PlanRunJudge`'s (SkillbookTesting).
public enum PlanJudge {
    public struct Verdict: Sendable, Equatable {
        public var correct: Bool
        /// Why not, for the report.
        public var reason: String

        public init(correct: Bool, reason: String) {
            self.correct = correct
            self.reason = reason
        }

        public static let right = Verdict(correct: true, reason: "")
        public static func wrong(_ reason: String) -> Verdict { Verdict(correct: false, reason: reason) }
    }

    public static func judge(_ answer: ModelAnswer?, against reference: ReferencePlan) -> Verdict {
        if reference.decline {
            switch answer {
            case .question, nil: return .right
            case .plan(let plan) where plan.steps.isEmpty: return .right
            case .plan(let plan): return .wrong("planned \(plan.steps.map(\.target)) instead of declining")
            }
        }
        guard case .plan(let plan) = answer else { return .wrong("no plan") }
        let skills = plan.steps.map(\.target)
        let expected = reference.steps.map(\.skill)
        guard skills == expected else { return .wrong("skills \(skills), expected \(expected)") }
        let ids = plan.steps.map(\.id)
        for (i, step) in reference.steps.enumerated() {
            for key in step.with.keys.sorted() {
                let value = step.with[key] ?? .null
                let options = (value["any"]?.arrayValue ?? [value]).map { ReferencePlan.renumber($0, ids: ids) }
                guard let actual = plan.steps[i].with[key] else {
                    return .wrong("step \(i + 1) \(key): nothing, expected \(JSONText.encode(options[0]))")
                }
                if options.contains(where: { matches(actual, $0) }) { continue }
                let shown = JSONText.encode(actual)
                if !isReference(actual), options.allSatisfy(isReference) {
                    return .wrong("step \(i + 1) \(key): the literal \(shown) where an earlier step's output belongs, expected \(JSONText.encode(options[0]))")
                }
                if isReference(actual), !options.contains(where: isReference) {
                    return .wrong("step \(i + 1) \(key): the reference \(shown) where the request gives \(JSONText.encode(options[0]))")
                }
                return .wrong("step \(i + 1) \(key): \(shown), expected \(JSONText.encode(options[0]))")
            }
            for key in plan.steps[i].with.keys.sorted() where step.with[key] == nil && step.run[key] == nil {
                if let value = plan.steps[i].with[key], isDate(value) {
                    return .wrong("step \(i + 1) \(key): the date \(JSONText.encode(value)), which the request does not give")
                }
            }
        }
        return .right
    }

    static func matches(_ actual: Value, _ expected: Value) -> Bool {
        switch (actual, expected) {
        case (.string(let a), .string(let b)):
            if let x = instant(a), let y = instant(b) { return x == y }
            return normalized(a) == normalized(b)
        case (.array(let a), .array(let b)): return a.count == b.count && zip(a, b).allSatisfy { matches($0, $1) }
        case (.string, .array(let b)) where b.count == 1: return matches(actual, b[0])
        default: return actual == expected
        }
    }

    /// A text or list holding `${{ … }}`: an earlier step's output, not a literal.
    public static func isReference(_ value: Value) -> Bool {
        switch value {
        case .string(let text): return text.contains("${{")
        case .array(let items): return items.contains(where: isReference)
        default: return false
        }
    }

    /// A literal date or date-time (`2026-12-02`, `2026-12-02T09:00:00+01:00`), as the checker writes them.
    static func isDate(_ value: Value) -> Bool {
        guard let text = value.stringValue?.trimmingCharacters(in: .whitespaces) else { return false }
        return text.wholeMatch(of: /\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?/) != nil
    }

    /// A date-time with a time zone as an instant (`2026-12-02T09:00:00+01:00` is `2026-12-02T08:00:00Z`).
    static func instant(_ text: String) -> Date? {
        let text = text.trimmingCharacters(in: .whitespaces)
        guard text.count > 10, isDate(.string(text)) else { return nil }
        return try? Date(text, strategy: .iso8601)
    }

    /// Trimmed, lower-cased, and without the spaces inside `${{ }}`.
    static func normalized(_ text: String) -> String {
        var result = text.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        if result.hasPrefix("${{") { result = result.replacingOccurrences(of: " ", with: "") }
        return result
    }
}

extension ReferencePlan {
    /// Why the planner cannot answer with this reference (nil when it can): a skill of it not among
    /// the offers it would make, a step count outside its bounds, or a clause the matcher is sure
    /// of that no step of it takes. A request to decline is always plannable.
    public func unplannable(
        offers: [PlanOffer], matcher: Matcher, clock: Matcher.ReferenceTime, limit: Int = PromptBuilder.defaultOffers,
        cap: Int = PlanningBudget().maxSteps
    ) -> String? {
        guard !decline else { return nil }
        let offered = PromptBuilder.choose(offers, for: request, matcher: matcher, clock: clock, limit: limit).map(\.name)
        if let missing = steps.first(where: { !offered.contains($0.skill) }) {
            return "\(missing.skill) not in the offers \(offered)"
        }
        let least = PromptBuilder.minimumSteps(for: request, matcher: matcher, clock: clock)
        let most = Planner.maxSteps(for: request, cap: cap)
        if !(least...max(least, most)).contains(steps.count) { return "\(steps.count) steps, not \(least)…\(most)" }
        let sure = PromptBuilder.sureTargets(for: request, matcher: matcher, clock: clock).map(\.target)
        if !Set(sure).isSubset(of: steps.map(\.skill)) { return "the matcher is sure of \(sure)" }
        return nil
    }
}
