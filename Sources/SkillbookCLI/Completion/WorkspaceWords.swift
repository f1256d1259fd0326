import Foundation
import SkillbookCore
import SkillbookHost

/// The words of a workspace that completion offers: playbook names, skill ids, run id prefixes,
/// the inputs of the playbook being run. Read-only and quiet: anything that goes wrong (no
/// workspace, a broken `skillbook.yaml`, no journal yet) gives no candidates, and nothing is
/// created (no state folder, no database) and no MCP server started.
struct WorkspaceWords {
    var invocation: Invocation

    func candidates(_ kind: ValueKind, _ spec: CommandSpec, _ arguments: ParsedArguments) async -> [Candidate] {
        let start = arguments.positionals.first.flatMap {
            spec.operands == .playbook ? HostConfiguration.searchStart(forPlaybook: $0, currentDirectory: invocation.currentDirectory) : nil
        }
        guard let host = try? invocation.host(arguments, from: start) else { return [] }
        switch kind {
        case .playbook:
            return host.playbookFiles().map { Candidate(word: $0.deletingPathExtension().lastPathComponent) }
        case .skill:
            guard let registry = try? host.loadRegistry().registry else { return [] }
            return registry.descriptors.map { Candidate(word: $0.id, description: Completer.trimmed($0.summary)) }
        case .run:
            return await runs(host)
        case .input:
            return inputs(host, spec, arguments)
        case .text, .choices, .file, .directory:
            return []
        }
    }

    /// The newest runs, each by the 8 characters of its id that `runs` shows.
    private func runs(_ host: PlaybookHost) async -> [Candidate] {
        guard host.stateExists else { return [] }
        guard let journal = try? host.openJournal(), let runs = try? await journal.runs(playbook: nil, status: nil, limit: 50) else {
            return []
        }
        return runs.map { Candidate(word: String($0.id.prefix(8)), description: "\($0.playbook) \($0.status.rawValue)") }
    }

    /// `NAME=` for each input of the playbook (`run`) or parameter of the skill (`call`) named
    /// before; nothing for a command whose positional is neither.
    private func inputs(_ host: PlaybookHost, _ spec: CommandSpec, _ arguments: ParsedArguments) -> [Candidate] {
        guard let operand = arguments.positionals.first, let registry = try? host.loadRegistry().registry else { return [] }
        switch spec.operands {
        case .playbook:
            guard let url = try? host.locatePlaybook(operand), let playbook = try? host.loadPlaybook(at: url, registry: registry).playbook else {
                return []
            }
            return playbook.inputs.map { Candidate(word: "\($0.name)=", description: $0.schema.description.map(Completer.trimmed) ?? "") }
        case .skill:
            guard let skill = registry[operand] else { return [] }
            return skill.descriptor.parameters.properties.map {
                Candidate(word: "\($0.name)=", description: $0.schema.description.map(Completer.trimmed) ?? "")
            }
        default:
            return []
        }
    }
}
