import SkillbookCore
import SkillbookHost
import SkillbookRuntime

/// `skillbook rollback RUN [--json]`
enum RollbackCommand: Command {
    static let spec = CommandSpec(
        name: "rollback", summary: "Undo what an interrupted or failed run did, newest first.", arguments: "RUN",
        options: OptionGroup.eventOutput, positionals: 1...1,
        discussion: """
            RUN is a run id or any unique prefix of it (see 'skillbook runs'). Every call the run completed
            is compensated in reverse order of completion (with the playbook text recorded when it ran),
            and each compensation is recorded. The run ends 'rolled_back', or 'rollback_incomplete' when
            something stays done: a skill without compensation, a compensation that failed, or an action
            whose process died during the call (its result, needed to undo it, was never recorded).
            Running it again retries what is left. Exit code 0 when everything was undone, 3 when not.
            """,
        examples: ["skillbook rollback 5c0e"])

    static func execute(_ arguments: ParsedArguments, _ invocation: Invocation) async throws -> Int32 {
        let host = invocation.host(arguments)
        let prepared = try await host.prepareRollback(run: arguments.positionals[0], onNotice: invocation.notices())
        let events = EventPrinter(console: invocation.console, json: arguments[.json])
        let result = await host.execute(prepared, onEvent: events.print)
        return result.status == .rolledBack ? 0 : 3
    }
}
