import SkillbookAgent
import SkillbookCore
import SkillbookHost

/// How `ask` and `chat` say what they understood.
enum RouteText {
    /// `playbook morning-briefing (confidence 0.93)` and the inputs, one per line.
    static func understood(_ decision: RouteDecision, inputs: ValueObject) -> String {
        let layer = decision.layer == .playbook ? "playbook" : "skill"
        let how =
            decision.secondOpinion
            ? "the model's choice; the matcher was unsure, at \(rounded(decision.confidence))"
            : "layer \(decision.layer == .playbook ? 1 : 2), confidence \(rounded(decision.confidence))"
        var text = "Understood: \(layer) \(decision.target ?? "?") (\(how))\n"
        text += inputLines(inputs)
        return text
    }

    static func inputLines(_ inputs: ValueObject, indent: String = "  ") -> String {
        inputs.sorted { $0.key < $1.key }.map { "\(indent)\($0.key): \(JSONText.encode($0.value))\n" }.joined()
    }

    /// A model plan, step by step, its actions marked.
    static func plan(_ plan: Plan, actions: Set<String>, title: String = "Plan from the model") -> String {
        var text = "\(title) (\(plan.steps.count) step\(plan.steps.count == 1 ? "" : "s")):\n"
        for (i, step) in plan.steps.enumerated() {
            let mark = actions.contains(step.id) ? "  [action: asks before it runs]" : ""
            text += "  \(i + 1). \(step.id): \(step.isPlaybook ? "playbook " : "")\(step.target)\(mark)\n"
            text += inputLines(step.with, indent: "       ")
        }
        return text
    }

    static func rounded(_ x: Double) -> String {
        let value = (x * 1000).rounded() / 1000
        return "\(value)"
    }
}
