public import SkillbookCore

extension Matcher {
    /// `decision` routed to its candidate `name` with `inputs` (what the model read off the
    /// request, `SecondOpinion`): the candidate's own captures win over them, and a required input
    /// neither gives is missing, with its question, as in any route. `nil` when `name` is none of
    /// the decision's candidates.
    public func routed(_ decision: RouteDecision, to name: String, inputs given: ValueObject) -> RouteDecision? {
        guard let candidate = decision.candidates.first(where: { $0.target == name }),
            let target = targets.first(where: { $0.name == name })
        else { return nil }
        var inputs = given
        for (key, value) in candidate.inputs { inputs[key] = value }
        let missing = target.required.filter { inputs[$0] == nil }
        let question = missing.first.map { first in
            "What should '\(first)' be\(target.schema(of: first)?.description.map { " (\($0))" } ?? "")?"
        }
        var routed = RouteDecision(
            layer: target.layer == .playbook ? .playbook : .skill, target: name, inputs: inputs, confidence: candidate.confidence,
            candidates: decision.candidates, question: question, missing: missing)
        routed.secondOpinion = true
        return routed
    }
}
