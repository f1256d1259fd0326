import SkillbookHost
import SkillbookStore

extension Option where Value == Bool {
    static var dryRun: Self { Self("--dry-run", help: "Check and plan: run read-only (query) skills, show what actions would do.") }
    static var queue: Self {
        Self("--queue", help: "Check the playbook and inputs, queue the run for a worker ('skillbook worker') and print its id (PostgreSQL state).")
    }
}

/// `skillbook run NAME|FILE [-i key=value]… [--inputs FILE] [--dry-run] [--queue] [--yes] [--json]`
enum RunCommand: Command {
    static let spec = CommandSpec(
        name: "run", summary: "Run a playbook.", arguments: "NAME|FILE",
        options: OptionGroup.inputs + [Option.dryRun.spec, Option.queue.spec] + OptionGroup.confirmation + OptionGroup.eventOutput,
        positionals: 1...1,
        discussion: """
            NAME is looked up as Playbooks/NAME.yaml (see --playbooks); a path to a .yaml file works too.
            The playbook is checked first: any error stops the run before a step runs (exit code 2).
            Ctrl-C interrupts the running step and rolls back completed steps (exit code 130).
            Every run (not a dry run) is recorded in the journal of the state directory: 'skillbook runs'
            lists them, and a run whose process died can be resumed or rolled back. The newest
            \(SQLiteJournal.defaultRetention) runs are kept.
            """,
        examples: ["skillbook run hello-notes -i name=Ada", "skillbook run ./my.yaml --inputs inputs.yaml --json"])

    static func execute(_ arguments: ParsedArguments, _ invocation: Invocation) async throws -> Int32 {
        let inputTexts = try Invocation.keyValues(arguments[.input], command: spec.name)
        let host = invocation.host(arguments, confirmation: invocation.confirmation(approveAll: arguments[.yes]))
        let request = RunRequest(
            playbook: arguments.positionals[0], inputsFile: arguments[.inputsFile], inputTexts: inputTexts,
            dryRun: arguments[.dryRun], trigger: "cli")
        if arguments[.queue] {
            guard !arguments[.dryRun] else { throw UsageError(message: "--queue and --dry-run exclude each other", command: spec.name) }
            invocation.console.out(try await host.enqueue(request, onNotice: invocation.notices()))
            return 0
        }
        let prepared = try await host.prepareRun(request, onNotice: invocation.notices())
        let presenter = RunPresenter(host: host, invocation: invocation, json: arguments[.json])
        return presenter.finish(await presenter.perform(prepared))
    }
}
