public import SkillbookCore

/// What the agent would run once it is confirmed: a playbook or skill with inputs, or a checked
/// model plan.
public struct PendingRun: Sendable {
    /// `playbook`, `skill`, or `plan` (a model's plan).
    public var layer: RouteDecision.Layer
    /// The playbook or skill; `nil` for a model plan.
    public var target: String?
    public var inputs: ValueObject
    /// The checked plan: a model's (layer `plan`), or a skill's checked one-step plan.
    public var plan: PlanChecker.Checked?

    public init(layer: RouteDecision.Layer, target: String?, inputs: ValueObject = [:], plan: PlanChecker.Checked? = nil) {
        self.layer = layer
        self.target = target
        self.inputs = inputs
        self.plan = plan
    }

    /// The run as plan steps: the checked plan's, else one step of the playbook or skill.
    public var steps: [Plan.Step] {
        if let plan { return plan.plan.steps }
        guard let target else { return [] }
        if layer == .playbook { return [Plan.Step(id: "run", target: target, isPlaybook: true, with: inputs)] }
        return Plan.oneStep(skill: target, inputs: inputs).steps
    }
}

/// How a run ended, as the session shows it.
public enum RunOutcome: Sendable, Equatable {
    case succeeded(Value)
    case failed(String)
    /// Failed or was cancelled, and what it had done was undone.
    case rolledBack(String)
}

/// Runs what a session confirmed, on the engine (the host provides it).
///
/// A conformer must call `progress` with the steps completed and their total as the run goes,
/// roll back what completed when the run fails or the calling task is cancelled (reporting
/// `.rolledBack`), and return only when the run has ended.
public protocol PlanRunning: Sendable {
    func run(_ run: PendingRun, progress: @escaping @Sendable (_ completed: Int, _ total: Int) async -> Void) async -> RunOutcome
}
