import Foundation
import SkillbookCore
import SkillbookHost

extension Option where Value == Bool {
    static var markdown: Self { Self("--markdown", help: "Print a reference page of the skills in Markdown.") }
    static var refresh: Self { Self("--refresh", help: "List the tools of every MCP server again, cached or not.") }
}

/// `skillbook skills [ID] [--json|--markdown]`
enum SkillsCommand: Command {
    static let spec = CommandSpec(
        name: "skills", summary: "List skills, or describe one.", arguments: "[ID]",
        options: [Option.json.withHelp("Print descriptors with parameters and output as JSON Schema.").spec, Option.markdown.spec, Option.refresh.spec],
        alternatives: [[Option.json.spec, Option.markdown.spec]],
        positionals: 0...1,
        discussion: """
            The skills of an MCP server (an 'mcp:' manifest) come from its tool list cached in the state
            folder; when there is none yet, or a file its command names (its script) changed since, the
            server is started once to list its tools. --refresh lists every server's tools again.
            """,
        examples: ["skillbook skills", "skillbook skills notes.create --json", "skillbook skills --markdown > docs/skills.md", "skillbook skills --refresh"],
        operands: .skill)

    static func execute(_ arguments: ParsedArguments, _ invocation: Invocation) async throws -> ExitCode {
        let host = try invocation.host(arguments)
        await host.listUncachedMCPServers(refreshing: arguments[.refresh])
        let registry = try host.loadRegistry(reporting: invocation.notices(manifestWarnings: true))
        let console = invocation.console
        if arguments[.json] && arguments[.markdown] {
            throw UsageError(message: "choose one of --json and --markdown", command: "skills")
        }
        var descriptors = registry.descriptors
        if let id = arguments.positionals.first {
            guard let skill = registry[id] else {
                let hint = Suggestion.closest(to: id, in: registry.ids).map { "did you mean '\($0)'?" } ?? "'skillbook skills' lists them"
                throw UsageError(message: "unknown skill '\(id)'; \(hint)", command: "skills")
            }
            descriptors = [skill.descriptor]
        }
        if arguments[.json] {
            let objects = descriptors.map { Value.object(SkillReference.json($0)) }
            console.out(JSONText.encode(arguments.positionals.isEmpty ? .array(objects) : objects[0], pretty: true))
        } else if arguments[.markdown] {
            console.writeOut(SkillReference.markdown(descriptors))
        } else if arguments.positionals.isEmpty {
            console.writeOut(table(descriptors))
        } else {
            console.writeOut(SkillReference.text(descriptors[0]))
        }
        return .success
    }

    /// One row per skill: id, kind, whether it can run here (`yes`/`no`), summary (after why
    /// not, for a skill that cannot run).
    static func table(_ descriptors: [SkillDescriptor]) -> String {
        let rows = descriptors.map { descriptor -> [String] in
            switch descriptor.availability {
            case .available: [descriptor.id, descriptor.kind.rawValue, "yes", descriptor.summary]
            case .unavailable(let reason): [descriptor.id, descriptor.kind.rawValue, "no", "(\(reason)) \(descriptor.summary)"]
            }
        }
        return TextTable(header: ["SKILL", "KIND", "AVAILABLE", "SUMMARY"], rows: rows).rendered
    }
}
