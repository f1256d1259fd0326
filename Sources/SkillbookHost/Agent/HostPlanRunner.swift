import Foundation
public import SkillbookAgent
public import SkillbookCore
public import SkillbookRuntime
import Synchronization

/// Runs what an `AgentSession` confirmed on the host's engine, journaled with `trigger`: the
/// session's confirmation is the approval, so the run's own confirmations are approved. Every
/// event also goes to `onEvent` (the chat prints them as the run renderer does). Cancelling the
/// calling task interrupts the run and rolls back what it completed.
public struct HostPlanRunner: PlanRunning {
    public var host: PlaybookHost
    public var workspace: AgentWorkspace
    public var clock: Matcher.ReferenceTime
    public var request: @Sendable () -> String
    public var trigger: RunTrigger
    public var onEvent: RunEventHandler

    public init(
        host: PlaybookHost, workspace: AgentWorkspace, clock: Matcher.ReferenceTime, trigger: RunTrigger = .chat,
        request: @escaping @Sendable () -> String = { "" }, onEvent: @escaping RunEventHandler = { _ in }
    ) {
        var configuration = host.configuration
        configuration.confirmation = .approveAll
        self.host = PlaybookHost(configuration, mcpServers: host.mcpServers)
        self.workspace = workspace
        self.clock = clock
        self.trigger = trigger
        self.request = request
        self.onEvent = onEvent
    }

    /// The route of a pending run.
    public func route(_ run: PendingRun) -> AgentRoute? {
        if let route = AgentRoute(run) { return route }
        guard let target = run.target, run.layer == .skill else { return nil }
        return host.skillRoute(target, inputs: run.inputs, workspace: workspace, clock: clock)
    }

    public func run(_ run: PendingRun, progress: @escaping @Sendable (Int, Int) async -> Void) async -> RunOutcome {
        guard let route = route(run) else { return .failed("nothing to run") }
        let prepared: PreparedRun
        do {
            prepared = try await host.prepareAgentRun(route, request: workspace.secrets.redact(request()), workspace: workspace, trigger: trigger)
        } catch {
            return .failed(workspace.secrets.redact(HostPlanRunner.message(error)))
        }
        // What the run read from providers (a command's too) is masked in the chat from now on.
        if case .run(let options) = prepared.work { workspace.secrets.add(options.secrets.values) }
        for input in prepared.playbook.inputs {
            if let value = prepared.inputs[input.name] { workspace.secrets.addSecrets(in: value, schema: input.schema) }
        }
        let total = prepared.playbook.steps.count
        let completed = Counter()
        let onEvent = onEvent
        let result = await host.execute(prepared) { event in
            onEvent(event)
            if case .stepSucceeded = event {
                let done = completed.increment()
                Task { await progress(min(done, total), total) }
            }
        }
        return Self.outcome(of: result)
    }

    /// How a run ended, as the agent shows it: its outputs (else the last step's output), or why
    /// it failed and whether what it did was undone.
    public static func outcome(of result: RunResult) -> RunOutcome {
        if result.status == .succeeded || result.status == .succeededWithErrors {
            if !result.outputs.isEmpty { return .succeeded(.object(result.outputs)) }
            return .succeeded(result.steps.last(where: { $0.output != nil })?.output ?? .object([:]))
        }
        let why = result.interrupted ? "interrupted" : (result.error ?? "the run failed")
        if result.status == .rolledBack || result.interrupted && result.status != .rollbackIncomplete { return .rolledBack(why) }
        return .failed(result.status == .rollbackIncomplete ? "\(why); the rollback is incomplete (skillbook rollback \(result.runID))" : why)
    }
}

extension HostPlanRunner {
    /// A host error as one line, for the chat.
    static func message(_ error: HostError) -> String {
        switch error {
        case .invalidPlaybook(let diagnostics, _), .invalidInputs(let diagnostics):
            return diagnostics.map(\.message).joined(separator: "; ")
        default:
            return "\(error)"
        }
    }
}

/// A thread-safe count of finished steps.
final class Counter: Sendable {
    private let value = Mutex(0)
    func increment() -> Int { value.withLock { $0 += 1; return $0 } }
}
