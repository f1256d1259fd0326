import SkillbookCore
import SkillbookRuntime

/// One line of a dry-run plan: what a step would do, how many calls, whether it asks and can be undone.
enum DryRunText {
    /// Lists longer than this show their first two items and how many more.
    static let listLimit = 3

    /// `base`: paths inside this folder are shown relative to it.
    static func line(_ plan: StepPlan, base: String? = nil) -> String {
        var parts = ["\(plan.step): \(plan.skill) (\(plan.kind.rawValue))"]
        if plan.ran {
            parts.append("ran (read-only)")
        } else {
            parts.append("would run")
        }
        if let iterations = plan.iterations { parts.append("\(iterations) iteration\(iterations == 1 ? "" : "s")") }
        if let batches = plan.batches { parts.append("\(batches) batch\(batches == 1 ? "" : "es")") }
        if !plan.uncheckableUntil.isEmpty {
            let names = plan.uncheckableUntil.map { "'\($0)'" }.joined(separator: ", ")
            parts.append("not checkable until \(names) run\(plan.uncheckableUntil.count == 1 ? "s" : "") (now: \(plan.error ?? "failed"))")
        } else if !plan.unknownFrom.isEmpty {
            parts.append("parameters unknown until \(plan.unknownFrom.map { "'\($0)'" }.joined(separator: ", ")) run\(plan.unknownFrom.count == 1 ? "s" : "")")
        } else if let parameters = plan.parameters, !plan.ran, !parameters.isEmpty {
            parts.append("with " + parameters.map { parameter($0.key, $0.value, base: base) }.joined(separator: "; "))
        }
        if plan.confirm { parts.append("asks for confirmation") }
        if plan.kind == .action { parts.append(plan.reversible ? "can be rolled back" : "cannot be rolled back") }
        return parts.joined(separator: " · ")
    }

    /// `into: "out"`, or for a long list `130 paths: in/a.txt, in/b.txt, … (128 more)`.
    static func parameter(_ name: String, _ value: Value, base: String?) -> String {
        guard case .array(let items) = value, items.count > listLimit else { return "\(name): \(shown(value, base: base))" }
        let first = items.prefix(2).map { shown($0, base: base) }.joined(separator: ", ")
        return "\(DigitGrouping.grouped(items.count)) \(name): \(first), … (\(DigitGrouping.grouped(items.count - 2)) more)"
    }

    /// A value as JSON, except text, which is shown as it is (a path inside `base` relative to it).
    static func shown(_ value: Value, base: String?) -> String {
        guard case .string(let text) = value else { return JSONText.encode(value) }
        if let base, text.hasPrefix(base + "/"), text.count > base.count + 1 { return String(text.dropFirst(base.count + 1)) }
        return text
    }

    /// A dry run's outputs on stdout, shaped like a run's: the known ones as JSON, then the others
    /// as the bare word `unknown` (they read steps that did not run).
    static func outputs(_ result: RunResult) -> String {
        let known = result.outputs.keys.map { "  \(JSONText.encode(.string($0))): \(JSONText.encode(result.outputs[$0] ?? .null))" }
        let unknown = result.unknownOutputs.map { "  \(JSONText.encode(.string($0))): unknown" }
        return "{\n" + (known + unknown).joined(separator: ",\n") + "\n}"
    }
}
