public import Foundation
import SkillbookCore
import SkillbookHost

/// One command of the CLI: its declaration and what it does.
protocol Command: SendableMetatype {
    static var spec: CommandSpec { get }
    /// Returns the process exit code of work that ended as it may (a run that failed, a playbook
    /// that does not validate, after saying so); throws `CommandFailure`, `UsageError`,
    /// `DiagnosticError` or a host error for anything else, which `SkillbookCLI.report` prints.
    static func execute(_ arguments: ParsedArguments, _ invocation: Invocation) async throws -> ExitCode
}

/// A command as a value: its spec and its body.
struct CommandEntry: Sendable {
    var spec: CommandSpec
    var execute: @Sendable (ParsedArguments, Invocation) async throws -> ExitCode

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
        CommandEntry(ScheduleTickCommand.self), CommandEntry(ScheduleInstallCommand.self), CommandEntry(ScheduleHistoryCommand.self), CommandEntry(ScheduleCommand.self), CommandEntry(DaemonCommand.self),
        CommandEntry(WorkerCommand.self), CommandEntry(ServeCommand.self), CommandEntry(ApprovalsCommand.self),
        CommandEntry(ApproveCommand.self), CommandEntry(DeclineCommand.self), CommandEntry(CompletionCommand.self), CommandEntry(DoctorCommand.self),
    ]
    /// Commands for the tooling, left out of help, completion and the man pages: `__man DIR`
    /// (`__complete` is answered before any parsing).
    static let hiddenCommands: [CommandEntry] = [CommandEntry(ManCommand.self)]

    /// The command an argument list names: a two-word command (`runs show`) before a one-word one;
    /// returns it with the number of words its name took.
    static func lookup(_ arguments: [String]) -> (CommandEntry, words: Int)? {
        let all = commands + hiddenCommands
        if arguments.count > 1, let command = all.first(where: { $0.spec.name == "\(arguments[0]) \(arguments[1])" }) {
            return (command, 2)
        }
        return all.first(where: { $0.spec.name == arguments.first }).map { ($0, 1) }
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
        await execute(arguments, console: console, environment: environment, currentDirectory: currentDirectory, handlesSignals: handlesSignals)
            .rawValue
    }

    static func execute(
        _ arguments: [String], console: Console, environment: [String: String], currentDirectory: URL, handlesSignals: Bool
    ) async -> ExitCode {
        var console = console
        if arguments.contains("--no-color") || environment["NO_COLOR"] != nil { console.colors = false }
        let invocation = Invocation(
            console: console, environment: environment, currentDirectory: currentDirectory, handlesSignals: handlesSignals)
        guard let name = arguments.first else {
            console.writeErr(generalHelp)
            return .usage
        }
        switch name {
        case "-h", "--help", "help":
            if arguments.count > 1, let (command, _) = lookup(Array(arguments.dropFirst())) {
                console.writeOut(command.spec.helpText)
            } else {
                console.writeOut(generalHelp)
            }
            return .success
        case CompleteCommand.name:
            return await CompleteCommand.run(Array(arguments.dropFirst()), invocation)
        case "--version", "version":
            console.out("skillbook \(version)")
            return .success
        default:
            break
        }
        guard let (command, words) = lookup(arguments) else {
            let names = commands.map(\.spec.name)
            let suggestion = Suggestion.closest(to: name, in: names).map { "; did you mean '\($0)'?" } ?? ""
            return report(UsageError(message: "unknown command '\(name)'\(suggestion)"), console: console)
        }
        let code: ExitCode
        do {
            let parsed: ParsedArguments = try ArgumentParser.parse(Array(arguments.dropFirst(words)), for: command.spec)
            if parsed[.help] {
                console.writeOut(command.spec.helpText)
                return .success
            }
            code = try await command.execute(parsed, invocation)
        } catch {
            code = report(error, console: console, command: command.spec.name)
        }
        // The MCP servers the command's skills started end with it.
        await invocation.mcpServers.shutdown()
        return code
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
            Exit codes: \(ExitCode.list).
            Run 'skillbook COMMAND --help' for a command's options.

            """
        return text
    }
}
