import Foundation
import SkillbookCore
import SkillbookHost

/// `skillbook approvals [--json]`
enum ApprovalsCommand: Command {
    static let spec = CommandSpec(
        name: "approvals", summary: "List the runs that wait for an approval.", arguments: "",
        options: [Option.json.withHelp("Print a JSON array of the requests (run, playbook, step, touches, age, expiry).").spec],
        discussion: """
            A step whose skill asks for confirmation, reached where nobody can be asked (no terminal and no
            --yes, the daemon, 'schedule tick', a worker), stops its run: the run waits, holding no lock.
            Each line is one such run: the step, what the call would touch, how long it has waited and when
            its request expires (a step's or playbook's 'approval: { timeout }', default 24h). An expired
            request counts as declined: it is decided as such when listed, and its run goes on (rolls back);
            a line on stderr names each such run and how it ended.
            'skillbook approve RUN' or 'skillbook decline RUN' decides.
            """,
        examples: ["skillbook approvals", "skillbook approvals --json"])

    static func execute(_ arguments: ParsedArguments, _ invocation: Invocation) async throws -> ExitCode {
        let host = try invocation.host(arguments)
        let (records, expired) = try await host.approvalsExpiringOverdue()
        let now = host.configuration.clock.now()
        for outcome in expired { invocation.console.err(ExpiredApprovalText.line(outcome, timeZone: host.configuration.timeZone)) }
        if arguments[.json] {
            invocation.console.out(JSONText.encode(.array(records.map { .object(ApprovalJSON.record($0, now: now)) }), pretty: true))
        } else {
            invocation.console.writeOut(JournalText.$timeZone.withValue(host.configuration.timeZone) { ApprovalText.table(records, now: now) })
        }
        return .success
    }
}

/// What `approvals` says of a request that had expired and was declined as it listed: the run
/// did not simply vanish from the list.
enum ExpiredApprovalText {
    static func line(_ outcome: ApprovalOutcome, timeZone: TimeZone) -> String {
        let request = outcome.record.request
        let expiry = JournalText.$timeZone.withValue(timeZone) { JournalText.localTime(request.expires) }
        let head = "run \(JournalText.shortID(request.runID)): the approval of step '\(request.step)' expired at \(expiry); declined"
        switch outcome.continuation {
        case .ran(let result): return head + ", the run \(result.status.rawValue)"
        case .queued: return head + "; a worker goes on with the run"
        case .handedOver(let pid): return head + "; the daemon that started it (pid \(pid)) goes on with the run"
        case .notContinued: return head + "; 'skillbook resume \(JournalText.shortID(request.runID))' goes on with the run"
        }
    }
}
