public import SkillbookAgent
import SkillbookSkills
import SkillbookSystem

extension PlaybookHost {
    /// The agent flow over `workspace`: its matcher, checker and offers, the configured model (if
    /// any) as planner, and `runner` to run what the flow decides. The flow, the planner and the
    /// runner share the workspace's `secrets`.
    public func agentFlow(_ workspace: AgentWorkspace, runner: any PlanRunning) -> AgentFlow {
        var planner: (@Sendable (Matcher.ReferenceTime) -> Planner)?
        if let settings = configuration.model {
            planner = { @Sendable (clock: Matcher.ReferenceTime) -> Planner in
                workspace.planner(settings, http: SystemHTTPClient(), clock: clock)
            }
        }
        let checker: @Sendable (Matcher.ReferenceTime) -> PlanChecker = { clock in workspace.checker(clock: clock) }
        return AgentFlow(
            matcher: workspace.matcher, checker: checker, planner: planner, offers: workspace.offers, runner: runner, secrets: workspace.secrets)
    }
}
