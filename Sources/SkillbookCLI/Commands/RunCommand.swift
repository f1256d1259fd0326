import SkillbookCore
import SkillbookHost

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
            lists them, and a run whose process died can be resumed or rolled back. Runs are kept
            \(RetentionPolicy.defaultDays) days, at most \(RetentionPolicy.defaultMaxRuns) ('retention:' in skillbook.yaml
            or the playbook says otherwise); each run prunes a few older ones.
            """,
        examples: ["skillbook run hello-notes -i name=Ada", "skillbook run ./my.yaml --inputs inputs.yaml --json"],
        operands: .playbook)

    static func execute(_ arguments: ParsedArguments, _ invocation: Invocation) async throws -> ExitCode {
        let inputTexts = try Invocation.keyValues(arguments[.input], command: spec.name)
        let start = try invocation.workspaceStart(forPlaybook: arguments.positionals[0], command: spec.name)
        let host = try invocation.host(arguments, confirmation: invocation.confirmation(approveAll: arguments[.yes]), from: start)
        var request = RunRequest(
            playbook: arguments.positionals[0], inputsFile: arguments[.inputsFile], inputTexts: inputTexts,
            dryRun: arguments[.dryRun], trigger: .cli)
        // It shows the run's outputs, never a step's: a step's output need not be held to the end.
        request.keepsStepOutputs = false
        if arguments[.queue] {
            guard !arguments[.dryRun] else { throw UsageError(message: "--queue and --dry-run exclude each other", command: spec.name) }
            guard host.configuration.persistence != nil else {
                throw UsageError(
                    message: "--queue needs a state shared by machines: pass --state postgresql://USER@HOST:PORT/DATABASE (or set SKILLBOOK_STATE)",
                    command: spec.name)
            }
            invocation.console.out(try await host.enqueue(request, onNotice: invocation.notices()))
            return .success
        }
        let prepared = try await printingJSON(arguments[.json], invocation.console) {
            try await host.prepareRun(request, onNotice: invocation.notices())
        }
        let presenter = RunPresenter(host: host, invocation: invocation, json: arguments[.json])
        return presenter.finish(await presenter.perform(prepared))
    }

    /// `prepare`'s work; with `json`, a load or input error it throws is printed on stdout as
    /// `validate --json` prints diagnostics first (and then on stderr as text, as without `--json`).
    static func printingJSON(
        _ json: Bool, _ console: Console, _ prepare: () async throws -> PreparedRun
    ) async throws -> PreparedRun {
        do {
            return try await prepare()
        } catch let error as HostError {
            if json { printJSON(error, console: console) }
            throw error
        }
    }

    static func printJSON(_ error: HostError, console: Console) {
        switch error {
        case .invalidPlaybook(let diagnostics, _): console.writeOut(DiagnosticJSON.lines(diagnostics, files: 1, failed: 1))
        case .invalidInputs(let diagnostics): console.writeOut(DiagnosticJSON.lines(diagnostics, files: 1, failed: 0))
        case .invalidManifests(let diagnostics, _): console.writeOut(DiagnosticJSON.lines(diagnostics, files: 0, failed: 0))
        default:
            // No playbook of that name, an unreadable file, a refusal: one error, so a script
            // reading stdout is never left with nothing.
            switch HostErrorText.form(error) {
            case .usage(let text), .refusal(let text), .failure(let text):
                console.writeOut(DiagnosticJSON.lines([.error(text)], files: 0, failed: 0))
            case .diagnostics(let diagnostics, _):
                console.writeOut(DiagnosticJSON.lines(diagnostics, files: 0, failed: 0))
            }
        }
    }
}
