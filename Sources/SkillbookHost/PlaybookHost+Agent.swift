import Foundation
public import SkillbookAgent
public import SkillbookCore
import SkillbookRuntime

extension PlaybookHost {
    /// The registry and the playbooks of the workspace, with the matcher over both. Playbook files
    /// with errors (or that cannot be read) are left out, each said to `onNotice` as a warning at its
    /// first error; manifest warnings go to `onNotice` too.
    public func agentWorkspace(onNotice: HostNoticeHandler = { _ in }) async throws(HostError) -> AgentWorkspace {
        let registry = try await registry(onNotice)
        var playbooks: [Playbook] = []
        for url in playbookFiles() {
            do throws(HostError) {
                let file = try loadPlaybook(at: url, registry: registry)
                if let playbook = file.result.playbook {
                    playbooks.append(playbook)
                    continue
                }
                let first = file.result.diagnostics.first { $0.severity == .error }
                let warning = Diagnostic.warning(
                    "playbook left out (requests cannot route to it): \(first?.message ?? "it has errors"); 'skillbook validate' shows them all",
                    at: first?.location, path: first?.location == nil ? file.displayName : nil)
                onNotice(.diagnostics([warning], sources: file.sources))
            } catch {
                let warning = Diagnostic.warning(
                    "playbook left out (requests cannot route to it): it cannot be read", path: displayPath(url))
                onNotice(.diagnostics([warning], sources: [:]))
            }
        }
        let workspace = AgentWorkspace(registry: registry, playbooks: playbooks, library: library)
        workspace.secrets.add(secretResolver.valuesAtHand())
        return workspace
    }

    /// One skill with `inputs` as a checked one-step plan (its step id the skill id with `_`).
    public func skillRoute(_ skill: String, inputs: ValueObject, workspace: AgentWorkspace, clock: Matcher.ReferenceTime) -> AgentRoute {
        .plan(workspace.checker(clock: clock).check(Plan.oneStep(skill: skill, inputs: inputs), name: Plan.playbookName(skill)), fromModel: false)
    }

    /// Makes a route ready to run on the engine, journaled with `trigger` (`ask`, `chat`): a
    /// playbook through `prepareRun` (its inputs resolved and checked as for `run`; `inputTexts`
    /// are `-i` values), a plan as the playbook `AgentRoute.playbookText` writes.
    public func prepareAgentRun(
        _ route: AgentRoute, request: String, workspace: AgentWorkspace, inputTexts: [(key: String, text: String)] = [],
        trigger: RunTrigger = .ask, onNotice: HostNoticeHandler = { _ in }
    ) async throws(HostError) -> PreparedRun {
        switch route {
        case .playbook(let name, let inputs):
            return try await prepareRun(
                RunRequest(playbook: name, inputs: inputs, inputTexts: inputTexts, trigger: trigger), onNotice: onNotice)
        case .plan(let checked, _):
            let name = checked.playbook?.name ?? "ask-plan"
            let text = route.playbookText(name: name, description: request, workspace: workspace)
            let file = "\(trigger):\(name)"
            let playbook = try checkedPlaybook(text, file: file, registry: workspace.registry, onNotice: onNotice)
            let journal = try openJournal()
            let runID = configuration.ids.next()
            return PreparedRun(
                playbook: playbook, inputs: [:], registry: workspace.registry, journal: journal, runID: runID,
                work: .run(Engine.RunOptions(dryRun: false, trigger: trigger, source: text)), heldStatus: nil)
        }
    }

    /// A playbook name for a skill id: `notes.create` → `notes-create`.
    public static func playbookName(_ text: String) -> String { Plan.playbookName(text) }
}
