import Foundation
import SkillbookCore
public import SkillbookMCP

/// The tools of a workspace: its playbooks (named as `skillbook run NAME` takes them, sorted by
/// name) and then its skills (sorted by id), as `selection` says.
///
/// Built afresh on every call from the files on disk, so a playbook added or changed is served
/// on the next `tools/list`. A playbook with errors is left out (its problems go to `log`); a
/// name taken by a playbook is not served again as a skill.
public struct WorkspaceToolCatalog: MCPToolCatalog {
    public let host: PlaybookHost
    public let selection: MCPToolSelection
    public let log: @Sendable (String) -> Void

    public init(host: PlaybookHost, selection: MCPToolSelection, log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.host = host
        self.selection = selection
        self.log = log
    }

    public func tools() async throws -> [MCPTool] {
        let registry = try host.loadRegistry().registry
        var tools: [MCPTool] = []
        if selection.includesPlaybooks {
            for url in host.playbookFiles() {
                let name = url.deletingPathExtension().lastPathComponent
                guard let file = try? host.loadPlaybook(at: url, registry: registry), let playbook = file.playbook else {
                    log("playbook '\(name)' has errors; not served")
                    continue
                }
                tools.append(Self.tool(name: name, playbook: playbook, registry: registry))
            }
        }
        if selection.includesSkills {
            let taken = Set(tools.map(\.name))
            let skills = registry.descriptors.filter { !taken.contains($0.id) }.sorted { $0.id < $1.id }
            tools += skills.map(MCPTool.init(skill:))
        }
        return tools
    }

    /// A playbook as a tool: `inputSchema` from its inputs, read-only when every step is a query,
    /// destructive when some step (or sub-playbook step) needs confirmation.
    static func tool(name: String, playbook: Playbook, registry: SkillRegistry) -> MCPTool {
        let steps = PlaybookSteps.all(playbook)
        let readOnly = steps.allSatisfy { registry[$0.skill]?.descriptor.kind == .query }
        return MCPTool.playbook(
            name: name, description: playbook.description.isEmpty ? "Run the playbook '\(playbook.name)'." : playbook.description,
            inputs: inputSchema(playbook), readOnly: readOnly, confirms: !PlaybookSteps.confirming(playbook, registry).isEmpty)
    }

    /// The inputs as one object schema; an input without a default is required.
    static func inputSchema(_ playbook: Playbook) -> Schema {
        Schema(
            type: .object, properties: playbook.inputs.map { ($0.name, $0.schema) },
            required: playbook.inputs.filter(\.isRequired).map(\.name), additionalProperties: false)
    }
}

/// The steps of a playbook and of the sub-playbooks it runs.
enum PlaybookSteps {
    static func all(_ playbook: Playbook) -> [PlaybookStep] {
        playbook.steps.flatMap { step -> [PlaybookStep] in
            if let name = step.playbook, let sub = playbook.subPlaybooks[name] { return all(sub) }
            return [step]
        }
    }

    /// The steps that ask for confirmation: `confirm: true`, or a confirm skill unless `confirm: false`.
    static func confirming(_ playbook: Playbook, _ registry: SkillRegistry) -> [PlaybookStep] {
        all(playbook).filter { $0.confirm ?? registry[$0.skill]?.descriptor.confirm ?? false }
    }
}
