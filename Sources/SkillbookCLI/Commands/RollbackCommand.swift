import Foundation
import SkillbookCore
import SkillbookHost
import SkillbookRuntime

extension Option where Value == Bool {
    static var last: Self { Self("--last", help: "Undo the newest run that did something (not a read-only call or a notification).") }
}

/// `skillbook rollback RUN|--last [--yes] [--json]`
enum RollbackCommand: Command {
    static let spec = CommandSpec(
        name: "rollback", summary: "Undo what a run did, newest first.", arguments: "[RUN]",
        options: [Option.last.spec, Option.yes.withHelp("Approve undoing a finished run without asking.").spec] + OptionGroup.eventOutput,
        positionals: 0...1,
        discussion: """
            RUN is a run id or any unique prefix of it (see 'skillbook runs'); --last takes the newest run that
            did something: a read-only call or a notification after it is passed over.
            Every call the run completed is compensated in reverse order of completion (with the playbook
            text recorded when it ran), and each compensation is recorded. First it lists what will be
            undone and what cannot be. A run that finished (succeeded, succeeded_with_errors) is undone
            only after confirmation: asked on a terminal, otherwise --yes is required (exit code 2
            without it, nothing undone). An interrupted or failed run is undone at once. The run ends
            'rolled_back', or 'rollback_incomplete' when something stays done: a skill without
            compensation, a compensation that failed, or an action whose process died during the call
            (its result, needed to undo it, was never recorded). Running it again retries what is left;
            a rolled-back run is not undone twice. Exit code 0 when everything was undone, 3 when not.
            """,
        examples: ["skillbook rollback 5c0e", "skillbook rollback --last --yes"],
        operands: .run)

    static func execute(_ arguments: ParsedArguments, _ invocation: Invocation) async throws -> ExitCode {
        let target = try target(arguments)
        let host = try invocation.host(arguments)
        let prepared = try await host.prepareRollback(target, approval: approval(arguments, invocation.console), onNotice: invocation.notices())
        let events = EventPrinter(console: invocation.console, json: arguments[.json])
        let result = await host.execute(prepared, onEvent: events.print)
        return result.status == .rolledBack ? .success : .rollbackIncomplete
    }

    /// RUN, or the newest run with `--last`: one of them.
    static func target(_ arguments: ParsedArguments) throws(UsageError) -> RollbackTarget {
        let last = arguments[.last]
        if let run = arguments.positionals.first {
            if last { throw UsageError(message: "give RUN or --last, not both", command: spec.name) }
            return .run(run)
        }
        if !last { throw UsageError(message: "'skillbook rollback' needs RUN (or --last)", command: spec.name) }
        return .last
    }

    /// `--yes` approves; a terminal asks; otherwise undoing a finished run is refused.
    static func approval(_ arguments: ParsedArguments, _ console: Console) -> RollbackApproval {
        if arguments[.yes] { return .approveAll }
        guard console.stdinIsTerminal else {
            return .refuse(reason: "no terminal to ask on; pass --yes to undo it")
        }
        return .ask { preview in
            console.writeErr("Undo run \(JournalText.shortID(preview.run.id)), which \(preview.run.status.rawValue)? [y/N] ")
            let answer = await console.readLine()?.trimmingCharacters(in: .whitespaces).lowercased()
            return answer == "y" || answer == "yes"
        }
    }
}
