import SkillbookAgent
import SkillbookCore
import SkillbookHost
import SkillbookRuntime
import Synchronization

/// Runs what `ask` decided through `RunPresenter` (live steps or event lines), keeping its exit code:
/// a playbook or skill the person confirmed with its confirmations approved, a model's plan asking
/// at each action (as the host is configured: on the terminal, or approved by `--yes`).
struct AskRunner: PlanRunning {
    var host: PlaybookHost
    var invocation: Invocation
    var workspace: AgentWorkspace
    var request: String
    var json: Bool
    let end = RunEnd()

    func run(_ run: PendingRun, progress: @escaping @Sendable (Int, Int) async -> Void) async -> RunOutcome {
        guard let route = AgentRoute(run) else { return .failed("nothing to run") }
        var host = host
        if !route.isModelPlan {
            var configuration = host.configuration
            configuration.confirmation = .approveAll
            host = PlaybookHost(configuration, mcpServers: host.mcpServers)
        }
        let prepared: PreparedRun
        do {
            prepared = try await host.prepareAgentRun(
                route, request: workspace.secrets.redact(request), workspace: workspace, inputTexts: [], trigger: .ask, onNotice: invocation.notices())
        } catch {
            end.set(.failure(error))
            return .failed("\(error)")
        }
        let presenter = RunPresenter(host: host, invocation: invocation, json: json)
        let result = await presenter.perform(prepared)
        if !json, result.outputs.isEmpty, result.status == .succeeded || result.status == .succeededWithErrors,
            let last = result.steps.last(where: { $0.output != nil }), let output = last.output
        {
            invocation.console.out(JSONText.encode(output, pretty: true))
        }
        end.set(.success(presenter.finish(result)))
        return HostPlanRunner.outcome(of: result)
    }

    /// The exit code of the run, or the error that stopped it before it started.
    final class RunEnd: Sendable {
        private let value = Mutex<Result<ExitCode, HostError>?>(nil)
        func set(_ result: Result<ExitCode, HostError>) { value.withLock { $0 = result } }
        func exitCode() throws(HostError) -> ExitCode { try value.withLock { $0 }?.get() ?? .failure }
    }
}
