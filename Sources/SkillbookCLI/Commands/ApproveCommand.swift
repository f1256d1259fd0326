import Foundation
import SkillbookCore
import SkillbookHost
import SkillbookRuntime

extension Option where Value == String {
    static var step: Self { Self("--step", value: "ID", help: "Approve only if the run waits at this step (its path, parent/child).") }
    static var reason: Self { Self("--reason", value: "TEXT", help: "Why, as the journal records it.") }
}

/// `skillbook approve RUN [--step ID] [--yes] [--json]`
enum ApproveCommand: Command {
    static let spec = CommandSpec(
        name: "approve", summary: "Approve the call a waiting run stopped at; the run goes on.", arguments: "RUN",
        options: [Option.step.spec, Option.yes.withHelp("Approve without asking (what is approved is still shown).").spec]
            + OptionGroup.eventOutput,
        positionals: 1...1,
        discussion: """
            RUN is a run id or any unique prefix of it (see 'skillbook approvals'). Shows what the call would
            touch and, on a terminal, asks before approving (--yes does not ask). The decision is recorded
            with who made it (user@host) and when, then the run goes on from that step under the rules of
            'skillbook resume': on a state of one machine in the running daemon that started it (woken, exit
            0), otherwise in this process; through a worker on a PostgreSQL state. Refused (exit code 2) when the run no longer waits or its approval was decided already;
            a request that expired is declined instead. Exit codes are those of 'skillbook run' for the run
            that goes on (4 when it waits again at a later step).
            """,
        examples: ["skillbook approve 5c0e", "skillbook approve 5c0e --step remove --yes"],
        operands: .run)

    static func execute(_ arguments: ParsedArguments, _ invocation: Invocation) async throws -> ExitCode {
        let host = try invocation.host(arguments)
        let console = invocation.console
        let events = EventPrinter(console: console, json: arguments[.json], base: invocation.currentDirectory.path)
        guard let record = try await host.approval(ofRun: arguments.positionals[0]), record.isPending else {
            // Nothing to show: the journal refuses, saying what the run is now.
            let outcome = try await host.approve(run: arguments.positionals[0], step: arguments[.step], onEvent: events.print)
            return DecisionReport.finish(outcome, console: console)
        }
        if !arguments[.yes] {
            console.writeErr(ApprovalText.prompt(record))
            guard console.stdinIsTerminal else {
                console.writeErr("\n")
                throw UsageError(message: "no terminal to ask on; pass --yes to approve", command: spec.name)
            }
            let answer = await console.readLine()?.trimmingCharacters(in: .whitespaces).lowercased()
            guard answer == "y" || answer == "yes" else {
                console.err("not approved; the run still waits ('skillbook decline \(JournalText.shortID(record.request.runID))' declines it)")
                return .usage
            }
        } else {
            console.err("approving step '\(record.request.step)' of run \(record.request.runID): \(ApprovalText.touches(record.request))")
        }
        let outcome = try await host.approve(run: record.request.runID, step: arguments[.step], onEvent: events.print)
        return DecisionReport.finish(outcome, console: console)
    }
}

/// `skillbook decline RUN [--reason TEXT] [--json]`
enum DeclineCommand: Command {
    static let spec = CommandSpec(
        name: "decline", summary: "Decline the call a waiting run stopped at; its step fails.", arguments: "RUN",
        options: [Option.reason.spec] + OptionGroup.eventOutput,
        positionals: 1...1,
        discussion: """
            RUN is a run id or any unique prefix of it (see 'skillbook approvals'). The decision is recorded
            with who made it (user@host), when and --reason; the step then fails as 'declined' and the
            playbook's on_failure applies: by default every completed step is rolled back. Refused (exit
            code 2) when the run no longer waits or its approval was decided already.
            """,
        examples: ["skillbook decline 5c0e", "skillbook decline 5c0e --reason \"not this week\""],
        operands: .run)

    static func execute(_ arguments: ParsedArguments, _ invocation: Invocation) async throws -> ExitCode {
        let host = try invocation.host(arguments)
        let events = EventPrinter(console: invocation.console, json: arguments[.json], base: invocation.currentDirectory.path)
        let outcome = try await host.decline(run: arguments.positionals[0], reason: arguments[.reason], onEvent: events.print)
        return DecisionReport.finish(outcome, console: invocation.console)
    }
}

/// What `approve` and `decline` say once the decision is recorded, and their exit code.
enum DecisionReport {
    static func finish(_ outcome: ApprovalOutcome, console: Console) -> ExitCode {
        let request = outcome.record.request
        if let decision = outcome.record.decision {
            let verb = decision.verdict == .expired ? "expired (declined)" : decision.verdict.rawValue
            console.err("run \(request.runID): step '\(request.step)' \(verb) by \(decision.by)")
        }
        switch outcome.continuation {
        case .ran(let result):
            if result.status == .waiting, let next = result.approval { console.err(ApprovalText.howToDecide(next)) }
            return RunPresenter.exitCode(result)
        case .queued:
            console.err("run \(request.runID) is queued again; a worker goes on with it ('skillbook runs show \(JournalText.shortID(request.runID))')")
            return .success
        case .handedOver(let pid):
            console.err("run \(request.runID) goes on in the daemon that started it (pid \(pid)) ('skillbook runs show \(JournalText.shortID(request.runID))')")
            return .success
        case .notContinued(let error):
            console.err("run \(request.runID) did not go on: \(message(error))"
                + "; 'skillbook resume \(JournalText.shortID(request.runID))' continues it with the decision")
            return .failure
        }
    }

    private static func message(_ error: HostError) -> String {
        switch HostErrorText.form(error) {
        case .usage(let text), .refusal(let text), .failure(let text): text
        case .diagnostics(let diagnostics, _): diagnostics.map(\.message).joined(separator: "; ")
        }
    }
}
