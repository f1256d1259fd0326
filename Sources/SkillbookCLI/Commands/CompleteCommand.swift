/// `skillbook __complete WORD…` (hidden): what the scripts of `skillbook completion` call at each
/// TAB. The words are the command line after `skillbook`, the last the one being completed; the
/// answer is `CompletionAnswer.text`. It never fails: a line it cannot complete gets no candidates.
enum CompleteCommand {
    static let name = "__complete"

    static func run(_ words: [String], _ invocation: Invocation) async -> ExitCode {
        let lookup = WorkspaceWords(invocation: invocation)
        let completer = Completer(commands: SkillbookCLI.commands.map(\.spec)) { kind, spec, arguments in
            await lookup.candidates(kind, spec, arguments)
        }
        invocation.console.writeOut(await completer.complete(words.isEmpty ? [""] : words).text)
        return .success
    }
}
