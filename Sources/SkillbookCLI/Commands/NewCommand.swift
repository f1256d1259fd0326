import SkillbookHost

extension Option where Value == [String] {
    static var skill: Self { Self("--skill", value: "ID", help: "Add a step calling this skill, its required parameters as placeholders.").values(.skill) }
}

/// `skillbook new NAME [--skill ID]…`
enum NewCommand: Command {
    static let spec = CommandSpec(
        name: "new", summary: "Write a new playbook skeleton to the playbooks folder.", arguments: "NAME",
        options: [Option.skill.spec], positionals: 1...1,
        discussion: """
            Writes Playbooks/NAME.yaml (see --playbooks): a commented skeleton with one step per --skill
            (its required parameters filled with placeholders to replace), or one debug.echo step without.
            It validates as written. NAME is lowercase letters, digits and '-', starting with a letter.
            Refuses (exit code 2, nothing written) when the file exists or a skill is unknown.
            """,
        examples: ["skillbook new evening", "skillbook new tidy-downloads --skill files.list --skill files.move"])

    static func execute(_ arguments: ParsedArguments, _ invocation: Invocation) async throws -> ExitCode {
        let host = try invocation.host(arguments)
        let file = try await host.newPlaybook(name: arguments.positionals[0], skills: arguments[.skill], onNotice: invocation.notices())
        invocation.console.out("wrote \(file.displayName)")
        return .success
    }
}
