import SkillbookCore
import SkillbookRuntime

/// One line of a dry-run plan: what a step would do, how many calls, whether it asks and can be undone.
enum DryRunText {
    static func line(_ plan: StepPlan) -> String {
        var parts = ["\(plan.step): \(plan.skill) (\(plan.kind.rawValue))"]
        if plan.ran {
            parts.append("ran (read-only)")
        } else if plan.kind == .action {
            parts.append("would run")
        } else {
            parts.append("not run")
        }
        if let iterations = plan.iterations { parts.append("\(iterations) iteration\(iterations == 1 ? "" : "s")") }
        if let batches = plan.batches { parts.append("\(batches) batch\(batches == 1 ? "" : "es")") }
        if !plan.unknownFrom.isEmpty {
            parts.append("parameters unknown until \(plan.unknownFrom.map { "'\($0)'" }.joined(separator: ", ")) run\(plan.unknownFrom.count == 1 ? "s" : "")")
        } else if let parameters = plan.parameters, !plan.ran {
            parts.append("with \(JSONText.encode(.object(parameters)))")
        }
        if plan.confirm { parts.append("asks for confirmation") }
        if plan.kind == .action { parts.append(plan.reversible ? "can be rolled back" : "cannot be rolled back") }
        return parts.joined(separator: " · ")
    }
}
