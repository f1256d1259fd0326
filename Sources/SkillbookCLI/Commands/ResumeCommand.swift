import Foundation
import SkillbookCore
import SkillbookHost
import SkillbookRuntime

extension Option where Value == Bool {
    static var force: Self { Self("--force", help: "Resume even though the playbook file changed since the run started.") }
    static var rerunUncertain: Self {
        Self("--rerun-uncertain", help: "Run again the calls that started but have no recorded result, even if not idempotent.")
    }
    static var skipUncertain: Self { Self("--skip-uncertain", help: "Count those calls as done (with no output) instead.") }
}

/// `skillbook resume RUN [--force] [--rerun-uncertain|--skip-uncertain] [--yes] [-i KEY=VALUE]… [--json]`
enum ResumeCommand: Command {
    static let spec = CommandSpec(
        name: "resume", summary: "Finish an interrupted or failed run from where it stopped.", arguments: "RUN",
        options: [Option.force.spec, Option.rerunUncertain.spec, Option.skipUncertain.spec] + OptionGroup.confirmation
            + [Option.input.withHelp("Give a secret input again (the journal does not keep secrets).").spec] + OptionGroup.eventOutput,
        alternatives: [[Option.rerunUncertain.spec, Option.skipUncertain.spec]],
        positionals: 1...1,
        discussion: """
            RUN is a run id or any unique prefix of it (see 'skillbook runs'). The run continues with the
            inputs and playbook text it started with: steps and batches that completed are not made again,
            the first unfinished one runs next. A call that started but whose result was never recorded
            (the process died during it) runs again only if its skill is idempotent or read-only;
            otherwise you are asked, or, without a terminal, --rerun-uncertain or --skip-uncertain decides.
            A recorded output that held a secret was kept masked: a read-only call runs again to get it
            back; an action's is reused as it is (never done twice), and later steps see *** there.
            Refuses when the playbook file changed since (unless --force), when the run is still running
            in another process, or when it was being rolled back (use 'skillbook rollback RUN').
            Exit codes are those of 'skillbook run'.
            """,
        examples: ["skillbook resume 5c0e", "skillbook resume 5c0e --skip-uncertain -i token=…"],
        operands: .run)

    static func execute(_ arguments: ParsedArguments, _ invocation: Invocation) async throws -> ExitCode {
        if arguments[.rerunUncertain] && arguments[.skipUncertain] {
            throw UsageError(message: "--rerun-uncertain and --skip-uncertain exclude each other", command: spec.name)
        }
        let secrets = try Invocation.keyValues(arguments[.input], command: spec.name)
        let host = try invocation.host(arguments, confirmation: invocation.confirmation(approveAll: arguments[.yes]))
        let request = ResumeRequest(
            run: arguments.positionals[0], force: arguments[.force], uncertain: uncertainPolicy(arguments, invocation.console),
            secretInputs: secrets)
        let prepared = try await host.prepareResume(request, onNotice: invocation.notices())
        let presenter = RunPresenter(host: host, invocation: invocation, json: arguments[.json])
        return presenter.finish(await presenter.perform(prepared))
    }

    /// The flags decide; without them a terminal asks for each call, and without a terminal the
    /// resume is refused.
    static func uncertainPolicy(_ arguments: ParsedArguments, _ console: Console) -> UncertainCallPolicy {
        if arguments[.rerunUncertain] { return .rerun }
        if arguments[.skipUncertain] { return .skip }
        guard console.stdinIsTerminal else { return .refuse }
        return .ask { call in
            console.writeErr(
                "\n\(call.described())\n"
                    + "started but never recorded a result: it may or may not have taken effect, and \(call.skill) is not idempotent.\n"
                    + "  r  run it again (it may then happen twice)\n  s  skip it (count it as done, with no output)\n"
                    + "  a  abort the resume\nChoice [r/s/a]: ")
            switch await console.readLine()?.trimmingCharacters(in: .whitespaces).lowercased() {
            case "r", "rerun": return .rerun
            case "s", "skip": return .skip
            default: return nil
            }
        }
    }
}
