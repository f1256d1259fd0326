import SkillbookCore

/// `skillbook completion bash|zsh|fish`
enum CompletionCommand: Command {
    static let spec = CommandSpec(
        name: "completion", summary: "Print the shell completion script for bash, zsh or fish.", arguments: "bash|zsh|fish",
        options: [], positionals: 1...1,
        discussion: """
            The script completes commands, subcommands, options and their values, and asks skillbook itself
            (a hidden 'skillbook __complete') for the words of the workspace: playbook names, skill ids, run ids
            and, after -i, the inputs of the playbook being run. 'make install' puts the scripts where the shells
            look; to try one in the current shell: source <(skillbook completion bash) (bash, zsh),
            skillbook completion fish | source (fish).
            """,
        examples: [
            "skillbook completion bash > ~/.local/share/bash-completion/completions/skillbook",
            "skillbook completion zsh > ~/.zfunc/_skillbook", "skillbook completion fish > ~/.config/fish/completions/skillbook.fish",
        ],
        operands: .choices(CompletionScript.allCases.map(\.rawValue)))

    static func execute(_ arguments: ParsedArguments, _ invocation: Invocation) async throws -> ExitCode {
        let name = arguments.positionals[0]
        guard let script = CompletionScript(rawValue: name) else {
            let names = CompletionScript.allCases.map(\.rawValue)
            let hint = Suggestion.closest(to: name, in: names).map { "; did you mean '\($0)'?" } ?? ""
            throw UsageError(message: "unknown shell '\(name)'\(hint) (one of: \(names.joined(separator: ", ")))", command: spec.name)
        }
        invocation.console.writeOut(script.text)
        return .success
    }
}
