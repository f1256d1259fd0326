public import Foundation
public import SkillbookAgent
public import SkillbookCore

/// What `ask` or `chat` runs once a request is understood: a playbook with inputs (layer 1), or a
/// checked plan — a one-step plan of a single skill (layer 2) or a model's plan (layer 3).
public enum AgentRoute: Sendable {
    case playbook(name: String, inputs: ValueObject)
    case plan(PlanChecker.Checked, fromModel: Bool)

    /// The route of what the agent flow runs: a playbook, or its checked plan (a model's, or a
    /// skill's one-step plan). `nil` for a skill the flow has not checked.
    public init?(_ run: PendingRun) {
        if let checked = run.plan {
            self = .plan(checked, fromModel: run.layer == .plan)
        } else if run.layer == .playbook, let name = run.target {
            self = .playbook(name: name, inputs: run.inputs)
        } else {
            return nil
        }
    }

    /// The route as plan steps (a playbook is one `playbook:` step), for showing and `--json`.
    public var plan: Plan {
        switch self {
        case .playbook(let name, let inputs): Plan(steps: [Plan.Step(id: "run", target: name, isPlaybook: true, with: inputs)])
        case .plan(let checked, _): checked.plan
        }
    }

    /// Whether a model planned it (its actions are confirmed one by one).
    public var isModelPlan: Bool {
        if case .plan(_, fromModel: true) = self { return true }
        return false
    }

    /// The steps that change something (not read-only queries); a model plan's are each confirmed.
    public func actions(in workspace: AgentWorkspace) -> [Plan.Step] {
        plan.steps.filter { workspace.isAction($0.target, isPlaybook: $0.isPlaybook) }
    }

    /// The route as a playbook named `name` that validates and, run, does the same: the plan's
    /// steps with their values, a model plan's actions marked `confirm: true`.
    public func playbookText(name: String, description: String, workspace: AgentWorkspace) -> String {
        let confirming = isModelPlan ? Set(actions(in: workspace).map(\.id)) : []
        return PlanChecker.playbookText(plan, name: name, description: description, confirming: confirming)
    }

    /// The route as `playbookText` writes it, for a file of its own (`ask --save`): each step's
    /// output is an output, so running the file prints them; and when the file is outside the
    /// workspace it needs (`workspace`, not the one found from the file's folder), its first line
    /// names that workspace (`# workspace: PATH`), where `run` and `validate` then find it.
    public func savedText(name: String, description: String, workspace: AgentWorkspace, file: URL, workspaceRoot: URL?) -> String {
        let confirming = isModelPlan ? Set(actions(in: workspace).map(\.id)) : []
        let text = PlanChecker.playbookText(plan, name: name, description: description, confirming: confirming, outputs: true)
        guard let root = workspaceRoot?.standardizedFileURL,
            WorkspaceConfiguration.find(from: file.deletingLastPathComponent())?.path != root.path
        else { return text }
        return HostConfiguration.workspaceComment + root.path + "\n" + text
    }
}
