import Foundation
public import SkillbookCore
public import SkillbookMCP
import SkillbookRuntime

/// Runs the tools of a `WorkspaceToolCatalog` on the engine, through the host: every call is a
/// journaled run with trigger `mcp`, cancelling the call rolls it back, and its step and batch
/// events are reported as progress.
///
/// A playbook's arguments are its inputs, resolved exactly like `-i` values (`InputResolver`); a
/// skill's are coerced to its parameters the same way and run as a one-step playbook. A call that
/// needs confirmation carries a summary in its preparation, which the server shows the person.
public struct WorkspaceToolRunner: MCPToolRunner {
    public let host: PlaybookHost
    public let selection: MCPToolSelection

    public init(host: PlaybookHost, selection: MCPToolSelection) {
        self.host = host
        self.selection = selection
    }

    public func prepare(tool: String, arguments: ValueObject) async -> MCPPreparation {
        let found: Target?
        do throws(HostError) {
            found = try target(tool)
        } catch {
            return .invalidArguments(Self.skillsDidNotLoad(tool, error))
        }
        guard let target = found else { return .unknownTool }
        switch target {
        case .playbook:
            do throws(HostError) {
                // A dry preparation checks everything without opening the journal.
                let prepared = try await host.prepareRun(RunRequest(playbook: tool, inputs: arguments, dryRun: true, trigger: .mcp))
                let confirming = PlaybookSteps.confirming(prepared.playbook, prepared.registry)
                let summary = confirming.isEmpty ? nil : ToolCallSummary.playbook(
                        tool, prepared.playbook, inputs: prepared.inputs, confirming, prepared.registry)
                return .ready(MCPPreparedCall(tool: tool, arguments: prepared.inputs, confirmation: summary))
            } catch {
                return .invalidArguments(HostErrorLines.lines(error))
            }
        case .skill(let skill):
            switch SkillArguments.coerce(arguments, for: skill.descriptor, host: host) {
            case .failure(let problems): return .invalidArguments(problems.lines)
            case .success(let coerced):
                let summary = skill.descriptor.confirm ? ToolCallSummary.skill(skill.descriptor, coerced) : nil
                return .ready(MCPPreparedCall(tool: tool, arguments: coerced, confirmation: summary))
            }
        }
    }

    public func run(_ call: MCPPreparedCall, context: MCPCallContext) async -> MCPToolResult {
        let confirmer = ContextConfirmer(context: context)
        let found: Target?
        do throws(HostError) {
            found = try target(call.tool)
        } catch {
            return .failure(Self.skillsDidNotLoad(call.tool, error).joined(separator: "\n"))
        }
        switch found {
        case nil:
            return .failure("unknown tool '\(call.tool)'")
        case .playbook:
            let prepared: PreparedRun
            do throws(HostError) {
                prepared = try await host.prepareRun(RunRequest(playbook: call.tool, inputs: call.arguments, trigger: .mcp))
            } catch {
                return .failure("'\(call.tool)' did not start:\n" + HostErrorLines.lines(error).joined(separator: "\n"))
            }
            let progress = RunProgress(steps: PlaybookSteps.all(prepared.playbook).count, report: context.progress)
            let result = await host.execute(prepared, confirmer: confirmer, onEvent: progress.hear)
            return Self.playbookResult(result)
        case .skill(let skill):
            let prepared: PreparedRun
            do throws(HostError) {
                prepared = try await host.prepareSkillRun(skill.descriptor.id, arguments: call.arguments)
            } catch {
                return .failure("'\(call.tool)' did not start:\n" + HostErrorLines.lines(error).joined(separator: "\n"))
            }
            let progress = RunProgress(steps: 1, report: context.progress)
            let result = await host.execute(prepared, confirmer: confirmer, onEvent: progress.hear)
            guard result.status == .succeeded, let output = result.steps.first?.output else {
                return Self.failure(result)
            }
            return .success(output)
        }
    }

    /// `{status, run, outputs}`; a run that did not succeed is an error carrying the same object.
    static func playbookResult(_ result: RunResult) -> MCPToolResult {
        switch result.status {
        case .succeeded, .succeededWithErrors:
            .success(["status": .string(result.status.rawValue), "run": .string(result.runID), "outputs": .object(result.outputs)])
        case .failed, .rolledBack, .rollbackIncomplete:
            failure(result)
        }
    }

    /// `rolled_back: <error>` (run RUN), with `{status, run, outputs, error}` as structured content.
    static func failure(_ result: RunResult) -> MCPToolResult {
        let error = result.error ?? result.steps.compactMap(\.error).first ?? "the run did not succeed"
        return .failure(
            "\(result.status.rawValue): \(error) (run \(result.runID))",
            structured: [
                "status": .string(result.status.rawValue), "run": .string(result.runID), "outputs": .object(result.outputs),
                "error": .string(error),
            ])
    }

    enum Target {
        case playbook
        case skill(any Skill)
    }

    /// A playbook of the playbooks folder (when served), else a skill (when served); throws when
    /// the skills (the registry) cannot be loaded, which is not the same as an unknown tool.
    private func target(_ tool: String) throws(HostError) -> Target? {
        if selection.includesPlaybooks, !tool.contains("/"), !tool.hasSuffix(".yaml"), !tool.hasSuffix(".yml"),
            (try? host.locatePlaybook(tool)) != nil
        {
            return .playbook
        }
        if selection.includesSkills, let skill = try host.loadRegistry().registry[tool] { return .skill(skill) }
        return nil
    }

    /// A call that cannot be looked up because loading the skills failed.
    static func skillsDidNotLoad(_ tool: String, _ error: HostError) -> [String] {
        ["'\(tool)' cannot be looked up: the workspace's skills did not load:"] + HostErrorLines.lines(error)
    }
}

/// Confirmations during a call: approved when the person approved the call's summary (or the
/// server runs with `--yes`); otherwise the client is asked for this step.
struct ContextConfirmer: Confirmer {
    let context: MCPCallContext

    func confirm(_ request: ConfirmationRequest) async -> ConfirmationAnswer {
        if context.approved { return .approved }
        let summary = "Step '\(request.step)' runs \(request.skill): \(request.summary)"
        if await context.confirm(summary) { return .approved }
        return .declined(reason: "'\(request.step)' was not approved (declined, or the client cannot be asked; start the server with --yes to allow it)")
    }
}
