import Foundation
import SkillbookCore
import SkillbookHost

/// `skillbook runs show RUN [--json]`
enum RunsShowCommand: Command {
    static let spec = CommandSpec(
        name: "runs show", summary: "Show one run: its inputs, outcome and a timeline of every call.", arguments: "RUN",
        options: [Option.json.withHelp("Print the whole record as JSON (with the playbook's text).").spec],
        positionals: 1...1,
        discussion: """
            RUN is a run id or any unique prefix of it (see 'skillbook runs'). The timeline has every call
            attempt (batches and foreach items as step[batch k] / step[item k]), step ends, compensations,
            and each process that worked on the run (the first run, resumes, rollbacks), then its approval
            requests (who decided what, when and why) and the notifications sent about it. Secrets are
            masked in parameters, outputs and errors. A run still going on shows its read-only calls
            and step ends up to a quarter of a second late (they are written in groups).
            """,
        examples: ["skillbook runs show 5c0e", "skillbook runs show 5c0e --json"],
        operands: .run)

    static func execute(_ arguments: ParsedArguments, _ invocation: Invocation) async throws -> ExitCode {
        let host = try invocation.host(arguments)
        let journal = try host.openJournal()
        let runID = try await journal.resolveRunID(arguments.positionals[0])
        guard let timeline = try await journal.timeline(runID) else {
            throw JournalError(.notFound, "no run \(runID) in \(journal.location)")
        }
        let links = try await NotificationLinks.of(runID, host: host, journal: journal)
        let approvals = try await host.approvalHistory(ofRun: runID)
        if arguments[.json] {
            var value = JournalText.json(timeline)
            if case .object(var object) = value {
                let now = host.configuration.clock.now()
                object["approvals"] = .array(approvals.map { .object(ApprovalJSON.record($0, now: now)) })
                object["notifications"] = .array(links.sent.map(\.json))
                if let carried = links.carried { object["notifies"] = carried.json }
                value = .object(object)
            }
            invocation.console.out(JSONText.encode(value, pretty: true))
        } else {
            let text = JournalText.$timeZone.withValue(host.configuration.timeZone) {
                JournalText.text(timeline, console: invocation.console) + ApprovalText.history(approvals)
            }
            invocation.console.writeOut(text + links.text)
        }
        return .success
    }
}
