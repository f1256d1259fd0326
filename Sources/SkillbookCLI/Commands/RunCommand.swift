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
        let inputs = try InputResolver().resolve(playbook, values: values, commandLine: commandLine)

        let events = EventPrinter(console: invocation.console, json: arguments.flag("json"))
        let confirmer: any Confirmer =
            if arguments.flag("yes") {
                ApprovingConfirmer()
            } else if invocation.console.stdinIsTerminal {
                TerminalConfirmer(console: invocation.console)
            } else {
                RefusingConfirmer()
            }
        let dryRun = arguments.flag("dry-run")
        // The journal records every real run; a state file that cannot be opened stops the run here.
        let journal = dryRun ? nil : try workspace.journal(registry: registry)
        var environment = EngineEnvironment.live
        let runID = environment.makeRunID()
        environment.makeRunID = { runID }
        try journal?.setFile(url.path, forRun: runID)
        let engine = Engine(registry: registry, environment: environment, confirmer: confirmer, recorder: journal)
        let options = Engine.RunOptions(dryRun: dryRun, trigger: "cli", source: file.text)
        let task = Task { await engine.run(playbook, inputs: inputs, options: options, onEvent: events.print) }
        let watcher = invocation.handlesSignals ? SignalWatcher(onSignal: { task.cancel() }) : nil
        let result = await task.value
        withExtendedLifetime(watcher) {}
        _ = try? journal?.prune(keepingNewest: SQLiteJournal.defaultRetention)

        if !arguments.flag("json"), !result.outputs.isEmpty {
            invocation.console.out(JSONText.encode(.object(result.outputs), pretty: true))
        }
        return result.exitCode
    }

    static func readInputsFile(_ path: String?, workspace: Workspace) throws -> ValueObject {
        guard let path else { return ValueObject() }
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
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

/// Routes SIGINT and SIGTERM to a handler while alive; a second signal exits at once with 130.
final class SignalWatcher {
    private let sources: [any DispatchSourceSignal]

    init(onSignal: @escaping @Sendable () -> Void) {
        let queue = DispatchQueue(label: "skillbook.signals")
        let seen = Counter()
        sources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler {
                if seen.increment() > 1 { exit(130) }
                FileHandle.standardError.write(Data("\nskillbook: interrupted; rolling back (press Ctrl-C again to quit now)\n".utf8))
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
