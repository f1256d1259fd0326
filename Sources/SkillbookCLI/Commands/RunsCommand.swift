import Foundation
import SkillbookCore
import SkillbookHost

extension Option where Value == String {
    static var limit: Self { Self("-n", "--limit", value: "N", help: "Show at most N runs (default 20).") }
    static var playbook: Self { Self("--playbook", value: "NAME", help: "Only runs of this playbook.").values(.playbook) }
    static var status: Self {
        Self("--status", value: "S", help: "Only runs in this status: \(JournalStatus.allCases.map(\.rawValue).joined(separator: ", ")).")
            .values(.choices(JournalStatus.allCases.map(\.rawValue)))
    }
}

/// `skillbook runs [--limit N] [--playbook NAME] [--status S] [--json]`
enum RunsCommand: Command {
    static let spec = CommandSpec(
        name: "runs", summary: "List recorded runs, newest first.", arguments: "",
        options: [
            Option.limit.spec, Option.playbook.spec, Option.status.spec,
            Option.json.withHelp("Print the rows as a JSON array, newest first.").spec,
        ],
        discussion: """
            A run whose process died (killed, crashed, machine switched off) shows as 'interrupted':
            'skillbook resume RUN' finishes it, 'skillbook rollback RUN' undoes what it did.
            RUN may be any unique prefix of the id. See also 'skillbook runs show RUN' and 'skillbook runs prune'.
            """,
        examples: ["skillbook runs", "skillbook runs --status interrupted", "skillbook runs --playbook hello-notes --json"])

    static func execute(_ arguments: ParsedArguments, _ invocation: Invocation) async throws -> ExitCode {
        var limit = 20
        if let text = arguments[.limit] {
            guard let number = Int(text), number > 0 else {
                throw UsageError(message: "--limit expects a positive whole number, got '\(text)'", command: "runs")
            }
            limit = number
        }
        var status: JournalStatus?
        if let text = arguments[.status] {
            let names = JournalStatus.allCases.map(\.rawValue)
            guard let value = JournalStatus(rawValue: text) else {
                let suggestion = Suggestion.closest(to: text, in: names).map { "; did you mean '\($0)'?" } ?? ""
                throw UsageError(
                    message: "unknown status '\(text)'\(suggestion) (one of: \(names.joined(separator: ", ")))", command: "runs")
            }
            status = value
        }
        let host = try invocation.host(arguments)
        let journal = try host.openJournal()
        let runs = try await journal.runs(playbook: arguments[.playbook], status: status, limit: limit)
        if arguments[.json] {
            invocation.console.out(JSONText.encode(.array(runs.map(JournalText.row)), pretty: true))
        } else if runs.isEmpty {
            // Says what was asked for: an empty answer to a filter is not an empty journal.
            let what = (status.map { "\($0.rawValue) " } ?? "") + "runs" + (arguments[.playbook].map { " of playbook '\($0)'" } ?? "")
            // A file is shown relative to here; a connection string (already without its password) as it is.
            let location = journal.location.hasPrefix("/") ? host.displayPath(URL(fileURLWithPath: journal.location)) : journal.location
            invocation.console.err("no \(what) recorded in \(location)")
        } else {
            let table = JournalText.$timeZone.withValue(host.configuration.timeZone) { JournalText.table(runs, now: Date()) }
            invocation.console.writeOut(table)
        }
        return .success
    }
}
