import SkillbookConsole
import SkillbookCore
import SkillbookHost

extension SkillbookCLI {
    /// The one place that turns an error into what the user reads on stderr and an exit code:
    /// `skillbook: error: MESSAGE` (the label styled only on a terminal), or diagnostics as
    /// `file:line:column: error: …` with their source lines.
    static func report(_ error: any Error, console: Console, command: String? = nil) -> ExitCode {
        switch error {
        case let failure as CommandFailure:
            let label = console.style("error:", "1;31")
            for message in failure.messages { console.err("skillbook: \(label) \(message)") }
            if let hint = failure.hint { console.err(hint) }
            return failure.exitCode
        case let diagnostics as DiagnosticError:
            DiagnosticPrinter(console: console).print(diagnostics.diagnostics)
            return .usage
        case let host as HostError:
            if case .diagnostics(let diagnostics, let sources) = HostErrorText.form(host) {
                DiagnosticPrinter(console: console, sources: sources).print(diagnostics)
                return .usage
            }
            return report(failure(error, command: command), console: console)
        default:
            return report(failure(error, command: command), console: console)
        }
    }

    /// Any error but diagnostics as a command failure: usage errors point to `--help`; refusals
    /// and a state that cannot be used exit 2 (nothing ran), anything that broke exits 1.
    static func failure(_ error: any Error, command: String?) -> CommandFailure {
        switch error {
        case let failure as CommandFailure:
            return failure
        case let usage as UsageError:
            let helpFor = usage.command ?? command
            return CommandFailure(
                usage.message, exitCode: .usage, hint: "Run 'skillbook \(helpFor.map { "\($0) " } ?? "")--help' for usage.")
        case let host as HostError:
            switch HostErrorText.form(host) {
            case .usage(let message): return failure(UsageError(message: message, command: command), command: command)
            case .refusal(let message): return CommandFailure(message, exitCode: .usage)
            case .failure(let message): return CommandFailure(message, exitCode: .failure)
            case .diagnostics(let diagnostics, _):
                return CommandFailure(messages: diagnostics.map(\.message), exitCode: .usage)
            }
        case let store as any StateFailure where store.isUnusableState:
            return CommandFailure(FailureRemedy.explain(store), exitCode: .usage)
        case let server as HTTPServerError:
            // The address is taken or not this machine's: nothing was served.
            return CommandFailure(server.message, exitCode: .usage)
        case let journal as JournalError:
            // Refusals (unknown run, run still running): nothing ran.
            return CommandFailure(journal.message, exitCode: .usage)
        default:
            return CommandFailure("\(error)", exitCode: .failure)
        }
    }
}
