import Dispatch
import Foundation
import SkillbookCore
import SkillbookRuntime
import SkillbookStore

/// `skillbook run NAME|FILE [-i key=value]… [--inputs FILE] [--json]`
enum RunCommand: Command {
    static let spec = CommandSpec(
        name: "run", summary: "Run a playbook.", usage: "NAME|FILE [-i KEY=VALUE]... [--inputs FILE] [--json]",
        options: [
            OptionSpec(
                names: ["-i", "--input"], valueName: "KEY=VALUE",
                help: "Set an input; the text is coerced to the input's type ([a, b] for lists).", repeatable: true),
            OptionSpec(names: ["--inputs"], valueName: "FILE", help: "Read inputs from a YAML or JSON mapping."),
            OptionSpec(names: ["--json"], help: "Print one JSON object per event on stdout; the last is run.finished."),
            OptionSpec(names: ["--dry-run"], help: "Check and plan: run read-only (query) skills, show what actions would do."),
            OptionSpec(names: ["-y", "--yes"], help: "Approve every confirmation (steps whose skill has confirm)."),
        ],
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
        let workspace = invocation.workspace(arguments)
        let registry = try workspace.registry()
        let url = try workspace.locatePlaybook(arguments.positionals[0])
        let file = try LoadedPlaybookFile(url: url, displayName: workspace.displayPath(url), registry: registry, library: workspace.library)
        let printer = DiagnosticPrinter(console: invocation.console, sources: [file.displayName: file.text])
        printer.print(file.result.diagnostics)
        guard let playbook = file.result.playbook else { return 2 }

        let values = try readInputsFile(arguments.value("inputs"), workspace: workspace)
        let commandLine = try arguments.all("input").map { text throws(UsageError) -> (key: String, text: String) in
            guard let equals = text.firstIndex(of: "="), equals != text.startIndex else {
                throw UsageError(message: "-i expects KEY=VALUE, got '\(text)'", command: "run")
            }
            return (String(text[..<equals]), String(text[text.index(after: equals)...]))
        }
        let inputs = try InputResolver(variables: invocation.environment)
            .resolve(playbook, values: values, commandLine: commandLine)

        let confirmer: any Confirmer =
            if arguments.flag("yes") {
                ApprovingConfirmer()
            } else if invocation.console.stdinIsTerminal {
                TerminalConfirmer(console: invocation.console)
            } else {
                RefusingConfirmer()
            }
        // The engine sees this invocation's environment (the process's, unless run in-process).
        var environment = EngineEnvironment.live
        environment.variables = invocation.environment
        let dryRun = arguments.flag("dry-run")
        // The journal records every real run; a state file that cannot be opened stops the run here.
        let journal = dryRun ? nil : try workspace.journal()
        let runID = environment.makeRunID()
        environment.ids = IDGenerator { runID }
        try journal?.setFile(url.path, forRun: runID)
        let result = await perform(
            playbook, inputs: inputs, options: Engine.RunOptions(dryRun: dryRun, trigger: "cli", source: file.text),
            registry: registry, environment: environment, confirmer: confirmer, recorder: journal,
            json: arguments.flag("json"), invocation)
        if let journal, let pruned = try? journal.prune(keepingNewest: SQLiteJournal.defaultRetention), pruned > 0 {
            _ = try? TrashCleanup.sweep(journal: journal, stateDirectory: workspace.stateDirectory)
        }

        if !arguments.flag("json"), !result.outputs.isEmpty {
            invocation.console.out(JSONText.encode(.object(result.outputs), pretty: true))
        }
        return result.exitCode
    }

    /// Runs (or resumes) a playbook: on a terminal with a live step list, otherwise printing each
    /// event (as JSON lines with `json`); Ctrl-C and SIGTERM interrupt it.
    static func perform(
        _ playbook: Playbook, inputs: ValueObject, options: Engine.RunOptions, registry: SkillRegistry,
        environment: EngineEnvironment, confirmer: any Confirmer, recorder: (any RunRecorder)?, json: Bool,
        _ invocation: Invocation
    ) async -> RunResult {
        // Redrawing in place needs a terminal that understands cursor movement.
        if invocation.console.stderrIsTerminal && invocation.environment["TERM"] != "dumb" && !json {
            return await runLive(
                playbook, inputs: inputs, options: options, registry: registry, environment: environment,
                confirmer: confirmer, recorder: recorder, invocation)
        }
        let events = EventPrinter(console: invocation.console, json: json)
        let engine = Engine(registry: registry, environment: environment, confirmer: confirmer, recorder: recorder)
        let task = Task { await engine.run(playbook, inputs: inputs, options: options, onEvent: events.print) }
        let watcher = invocation.handlesSignals ? SignalWatcher(onSignal: { task.cancel() }) : nil
        let result = await task.value
        withExtendedLifetime(watcher) {}
        return result
    }

    /// On a terminal: a live step list drawn from a `RunSession` fed by the run's event stream.
    @MainActor
    static func runLive(
        _ playbook: Playbook, inputs: ValueObject, options: Engine.RunOptions, registry: SkillRegistry,
        environment: EngineEnvironment, confirmer: any Confirmer, recorder: (any RunRecorder)?, _ invocation: Invocation
    ) async -> RunResult {
        let renderer = LiveRenderer(session: RunSession(playbook: playbook), console: invocation.console)
        // A prompt must not be drawn over: the renderer stops while the question is open.
        let asking: any Confirmer = confirmer is TerminalConfirmer ? PausingConfirmer(base: confirmer, renderer: renderer) : confirmer
        let handle = Engine(registry: registry, environment: environment, confirmer: asking, recorder: recorder)
            .events(playbook, inputs: inputs, options: options)
        let watcher =
            invocation.handlesSignals
            ? SignalWatcher(onSignal: { handle.cancel() }, announce: { text in Task { @MainActor in renderer.printAbove(text) } })
            : nil
        await renderer.run(handle.events)
        let result = await handle.result.value
        withExtendedLifetime(watcher) {}
        return result
    }

    static func readInputsFile(_ path: String?, workspace: Workspace) throws -> ValueObject {
        guard let path else { return ValueObject() }
        guard let data = FileManager.default.contents(atPath: workspace.file(path).path), let text = String(data: data, encoding: .utf8) else {
            throw UsageError(message: "cannot read inputs file '\(path)'", command: "run")
        }
        guard let node = try YAMLLoader().load(text, file: path) else { return ValueObject() }
        guard case .object(let object) = node.value else {
            throw DiagnosticError([
                .error("an inputs file must be a mapping of input names to values, not a \(node.kindName)", at: node.location)
            ])
        }
        return object
    }
}

/// Asks on the terminal, showing the resolved parameters (secrets already masked).
struct TerminalConfirmer: Confirmer {
    var console: Console

    func confirm(_ request: ConfirmationRequest) async -> String? {
        var text = "\nStep '\(request.step)' runs \(request.skill): \(request.summary)\n"
        if request.calls > 1 { text += "It makes \(request.calls) calls. " }
        text += "Parameters:\n"
        for (key, value) in request.parameters {
            text += "  \(key): \(JSONText.encode(value))\n"
        }
        console.writeErr(text + "Run it? [y/N] ")
        guard let answer = await console.readLine() else { return "no answer (end of input)" }
        return ["y", "yes"].contains(answer.trimmingCharacters(in: .whitespaces).lowercased()) ? nil : "declined"
    }
}

/// Pauses the live renderer while another confirmer asks on the terminal.
struct PausingConfirmer: Confirmer {
    var base: any Confirmer
    var renderer: LiveRenderer

    func confirm(_ request: ConfirmationRequest) async -> String? {
        await renderer.pause()
        let answer = await base.confirm(request)
        await renderer.resume()
        return answer
    }
}

/// Routes SIGINT and SIGTERM to a handler while alive; a second signal exits at once with 130.
final class SignalWatcher {
    private let sources: [any DispatchSourceSignal]

    /// `announce` tells the user what happens (a line on stderr unless a live display shows it).
    init(
        onSignal: @escaping @Sendable () -> Void,
        announce: @escaping @Sendable (String) -> Void = { FileHandle.standardError.write(Data("\n\($0)\n".utf8)) }
    ) {
        let queue = DispatchQueue(label: "skillbook.signals")
        let seen = Counter()
        sources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler {
                if seen.increment() > 1 { exit(130) }
                announce("skillbook: interrupted; rolling back (press Ctrl-C again to quit now)")
                onSignal()
            }
            source.resume()
            return source
        }
    }

    deinit {
        for source in sources { source.cancel() }
    }

    /// Only touched on the watcher's serial queue.
    private final class Counter: @unchecked Sendable {
        private var value = 0
        func increment() -> Int {
            value += 1
            return value
        }
    }
}
