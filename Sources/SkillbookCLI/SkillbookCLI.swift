public import Foundation
import SkillbookCore
import SkillbookHost

/// One command of the CLI: its declaration and what it does.
protocol Command: SendableMetatype {
    static var spec: CommandSpec { get }
    /// Returns the process exit code; throws `UsageError`/`DiagnosticError` for exit code 2.
    static func execute(_ arguments: ParsedArguments, _ invocation: Invocation) async throws -> Int32
}

/// A command as a value: its spec and its body.
struct CommandEntry: Sendable {
    var spec: CommandSpec
    var execute: @Sendable (ParsedArguments, Invocation) async throws -> Int32

    init<C: Command>(_ command: C.Type) {
        spec = C.spec
        execute = { arguments, invocation in try await C.execute(arguments, invocation) }
    }
}

/// The `skillbook` command line.
public enum SkillbookCLI {
    public static let version = "0.1.0"

    static let commands: [CommandEntry] = [
        CommandEntry(RunCommand.self), CommandEntry(ValidateCommand.self), CommandEntry(ListCommand.self),
        CommandEntry(ShowCommand.self), CommandEntry(SkillsCommand.self), CommandEntry(SchemaCommand.self),
        CommandEntry(RunsCommand.self), CommandEntry(RunsShowCommand.self), CommandEntry(RunsPruneCommand.self),
        CommandEntry(ResumeCommand.self), CommandEntry(RollbackCommand.self), CommandEntry(ScheduleNextCommand.self),
        CommandEntry(MCPCommand.self), CommandEntry(CallCommand.self), CommandEntry(NewCommand.self),
        CommandEntry(AskCommand.self), CommandEntry(ChatCommand.self),
        CommandEntry(ScheduleTickCommand.self), CommandEntry(ScheduleInstallCommand.self), CommandEntry(ScheduleCommand.self), CommandEntry(DaemonCommand.self),
        CommandEntry(WorkerCommand.self),
    ]

    /// The command an argument list names: a two-word command (`runs show`) before a one-word one;
    /// returns it with the number of words its name took.
    static func lookup(_ arguments: [String]) -> (CommandEntry, words: Int)? {
        if arguments.count > 1, let command = commands.first(where: { $0.spec.name == "\(arguments[0]) \(arguments[1])" }) {
            return (command, 2)
        }
        return commands.first(where: { $0.spec.name == arguments.first }).map { ($0, 1) }
    }

    /// The real process: reads `CommandLine.arguments` once, exits with the command's code.
    public static func main() async -> Never {
        let environment = ProcessInfo.processInfo.environment
        let code = await run(
            Array(CommandLine.arguments.dropFirst()), console: .standard(environment: environment),
            environment: environment, currentDirectory: URL(fileURLWithPath: FileManager.default.currentDirectoryPath),
            handlesSignals: true)
        exit(code)
    }

    /// Runs one command line in-process and returns its exit code.
    public static func run(
        _ arguments: [String], console: Console, environment: [String: String] = [:],
        currentDirectory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath),
        handlesSignals: Bool = false
    ) async -> Int32 {
        var console = console
        if arguments.contains("--no-color") || environment["NO_COLOR"] != nil { console.colors = false }
        let invocation = Invocation(
            console: console, environment: environment, currentDirectory: currentDirectory, handlesSignals: handlesSignals)
        guard let name = arguments.first else {
            console.writeErr(generalHelp)
            return 2
        }
        switch name {
        case "-h", "--help", "help":
            if arguments.count > 1, let (command, _) = lookup(Array(arguments.dropFirst())) {
                console.writeOut(command.spec.helpText)
            } else {
                console.writeOut(generalHelp)
            }
            return 0
        case "--version", "version":
            console.out("skillbook \(version)")
            return 0
        default:
            break
        }
        guard let (command, words) = lookup(arguments) else {
            let names = commands.map(\.spec.name)
            let suggestion = Suggestion.closest(to: name, in: names).map { "; did you mean '\($0)'?" } ?? ""
            return report(UsageError(message: "unknown command '\(name)'\(suggestion)"), console: console)
        }
        let code: Int32
        do {
            let parsed: ParsedArguments = try ArgumentParser.parse(Array(arguments.dropFirst(words)), for: command.spec)
            if parsed[.help] {
                console.writeOut(command.spec.helpText)
                return 0
            }
            code = try await command.execute(parsed, invocation)
        } catch {
            code = report(error, console: console, command: command.spec.name)
        }
        // The MCP servers the command's skills started end with it.
        await invocation.mcpServers.shutdown()
        return code
    }

    /// The one place that turns an error into a message and an exit code.
    static func report(_ error: any Error, console: Console, command: String? = nil) -> Int32 {
        let label = console.style("error:", "1;31")
        switch error {
        case let usage as UsageError:
            console.err("skillbook: \(label) \(usage.message)")
            let helpFor = usage.command ?? command
            console.err("Run 'skillbook \(helpFor.map { "\($0) " } ?? "")--help' for usage.")
            return 2
        case let host as HostError:
            switch HostErrorText.form(host) {
            case .usage(let message): return report(UsageError(message: message, command: command), console: console)
            case .refusal(let message):
                console.err("skillbook: \(label) \(message)")
                return 2
            case .diagnostics(let diagnostics, let sources):
                DiagnosticPrinter(console: console, sources: sources).print(diagnostics)
                return 2
            case .failure(let message):
                console.err("skillbook: \(label) \(message)")
                return 1
            }
        case let diagnostics as DiagnosticError:
            DiagnosticPrinter(console: console).print(diagnostics.diagnostics)
            return 2
        case let store as any StateFailure where store.isUnusableState:
            console.err("skillbook: \(label) \(FailureRemedy.explain(store))")
            return 2
        case let journal as JournalError:
            // Refusals (unknown run, run still running): nothing ran.
            console.err("skillbook: \(label) \(journal.message)")
            return 2
        default:
            console.err("skillbook: \(label) \(error)")
            return 1
        }
    }

    static var generalHelp: String {
        var text = """
            skillbook \(version) — a declarative playbook runner: typed skills chained by YAML playbooks,
            checked before they run, batched to each skill's limits, rolled back when a step fails.

            Usage: skillbook COMMAND [options]

            Commands:

            """
        let width = commands.map(\.spec.name.count).max() ?? 0
        for command in commands {
            text += "  \(command.spec.name)\(String(repeating: " ", count: width - command.spec.name.count))  \(command.spec.summary)\n"
        }
        text += """

            Options for every command:
            \(CommandSpec.render(options: CommandSpec.globalOptions + [OptionSpec(names: ["--version"], help: "Print the version.")]))
            Exit codes: 0 success, 1 run failed (rolled back), 2 usage or validation error,
            3 rollback incomplete, 130 interrupted.
            Run 'skillbook COMMAND --help' for a command's options.

            """
        return text
    }
}
