import SkillbookCore
import SkillbookHost

/// `skillbook schema` — the JSON Schema of the playbook format, for editor autocompletion.
enum SchemaCommand: Command {
    static let spec = CommandSpec(
        name: "schema", summary: "Print the JSON Schema of the playbook format (for editors).", arguments: "",
        options: [],
        discussion: """
            Save it and point your editor's YAML support at it, for example with a first line
            '# yaml-language-server: $schema=./playbook.schema.json' in each playbook.
            """,
        examples: ["skillbook schema > playbook.schema.json"])

    static func execute(_ arguments: ParsedArguments, _ invocation: Invocation) async throws -> ExitCode {
        let host = try invocation.host(arguments)
        await host.listUncachedMCPServers()
        let registry = try host.loadRegistry().registry
        invocation.console.out(JSONText.encode(PlaybookJSONSchema.make(skillIDs: registry.ids), pretty: true))
        return .success
    }
}
