import SkillbookCore
import SkillbookHost

/// `skillbook call SKILL [-i KEY=VALUE]… [--inputs FILE] [--dry-run] [--yes] [--json]`
enum CallCommand: Command {
    static let spec = CommandSpec(
        name: "call", summary: "Run one skill as a one-step run and print its output.", arguments: "SKILL",
        options: [
            Option.input.withHelp("Set a parameter; the text is coerced to the parameter's type ([a, b] for lists).").spec,
            Option.inputsFile.withHelp("Read parameters from a YAML or JSON mapping.").spec, Option.dryRun.spec,
        ] + OptionGroup.confirmation + OptionGroup.eventOutput,
        positionals: 1...1,
        discussion: """
            SKILL is a skill id (see 'skillbook skills'). Its parameters are checked against its schema
            first (exit code 2, nothing runs); a skill that asks for confirmation asks like a playbook's
            step (on a terminal, else --yes). The call is journaled as a run named call-SKILL (trigger
            'call'), so 'skillbook runs' lists it and 'skillbook rollback RUN' undoes it. The skill's output
            prints as JSON on stdout; progress goes to stderr. Exit codes are those of 'skillbook run'.
            """,
        examples: ["skillbook call notes.list -i limit=10", "skillbook call notes.create -i title='Buy milk' -i tags=[home]"],
        operands: .skill)

    static func execute(_ arguments: ParsedArguments, _ invocation: Invocation) async throws -> ExitCode {
        let inputTexts = try Invocation.keyValues(arguments[.input], command: spec.name)
        let host = try invocation.host(arguments, confirmation: invocation.confirmation(approveAll: arguments[.yes]))
        let request = CallRequest(
            skill: arguments.positionals[0], inputsFile: arguments[.inputsFile], inputTexts: inputTexts, dryRun: arguments[.dryRun])
        let prepared = try await RunCommand.printingJSON(arguments[.json], invocation.console) {
            try await host.prepareCall(request, onNotice: invocation.notices())
        }
        let presenter = RunPresenter(host: host, invocation: invocation, json: arguments[.json])
        let result = await presenter.perform(prepared)
        if !arguments[.json], result.status == .succeeded || result.status == .succeededWithErrors {
            invocation.console.out(JSONText.encode(result.outputs["output"] ?? .null, pretty: true))
        }
        if result.status == .waiting, let request = result.approval { invocation.console.err(ApprovalText.howToDecide(request)) }
        return RunPresenter.exitCode(result)
    }
}
