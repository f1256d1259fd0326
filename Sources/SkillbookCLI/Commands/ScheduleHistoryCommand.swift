import Foundation
import SkillbookCore
import SkillbookHost
import SkillbookSchedule

extension Option where Value == String {
    static var historyLimit: Self { Self("-n", "--limit", value: "N", help: "Show at most N lines (default 50, at most 10000).") }
}

/// `skillbook schedule history [NAME] [--limit N] [--json]`: what the fire ledger recorded.
enum ScheduleHistoryCommand: Command {
    static let spec = CommandSpec(
        name: "schedule history",
        summary: "List the fires of the schedules: started, skipped (overlap) and missed (catch_up, window).",
        arguments: "[NAME]", options: [Option.historyLimit.spec, Option.json.withHelp("Print the records as a JSON array.").spec],
        positionals: 0...1,
        discussion: """
            Newest scheduled instant first, every playbook or the one named. A line is a fire started, a fire
            skipped because the previous run still ran ('overlap'), or a batch of fires missed while nothing
            ran and not caught up: 'catch_up' (catch_up none, all but the newest with latest, beyond the
            1,000 of all) or 'window' (older than catch_up_window). Times are in the workspace's time zone.
            """,
        examples: ["skillbook schedule history", "skillbook schedule history nightly --json"],
        operands: .playbook)

    static func execute(_ arguments: ParsedArguments, _ invocation: Invocation) async throws -> ExitCode {
        var limit = 50
        if let text = arguments[.historyLimit] {
            guard let number = Int(text), (1...10_000).contains(number) else {
                throw UsageError(message: "--limit: '\(text)' is not a whole number from 1 to 10000", command: spec.name)
            }
            limit = number
        }
        let host = try invocation.host(arguments)
        let records = try await host.fireHistory(playbook: arguments.positionals.first, limit: limit)
        let zone = host.configuration.timeZone
        if arguments[.json] {
            invocation.console.out(JSONText.encode(.array(records.map { json($0, zone: zone) }), pretty: true))
            return .success
        }
        if records.isEmpty, let name = arguments.positionals.first {
            // No fire of a name that is no playbook here: a typo, said as one.
            let names = host.playbookNames()
            if !names.contains(name) {
                let suggestion = Suggestion.closest(to: name, in: names).map { "; did you mean '\($0)'?" } ?? ""
                throw UsageError(message: "no fires recorded for '\(name)', and no playbook has that name\(suggestion)", command: spec.name)
            }
        }
        if records.isEmpty {
            invocation.console.err("no fires recorded\(arguments.positionals.first.map { " for \($0)" } ?? "")")
        }
        for record in records { invocation.console.out(line(record, zone: zone)) }
        return .success
    }

    static func line(_ record: FireRecord, zone: TimeZone) -> String {
        let at = ISOTime.format(record.scheduledAt, in: zone)
        let entry = "\(record.playbook)#\(record.entry)"
        guard let reason = record.missed else { return "\(at)  \(entry)  started\(record.isCatchUp ? " (catch-up)" : "")" }
        if reason == .overlap { return "\(at)  \(entry)  skipped (overlap)" }
        let through = record.count > 1 ? " through \(ISOTime.format(record.lastScheduledAt, in: zone))" : ""
        return "\(at)  \(entry)  missed \(record.count)\(through) (\(reason.rawValue))"
    }

    static func json(_ record: FireRecord, zone: TimeZone) -> Value {
        var object = ValueObject()
        object["playbook"] = .string(record.playbook)
        object["entry"] = .int(record.entry)
        object["scheduled_at"] = .string(ISOTime.format(record.scheduledAt, in: zone))
        object["outcome"] = .string(record.missed == nil ? "started" : record.missed == .overlap ? "skipped" : "missed")
        object["reason"] = record.missed.map { .string($0.rawValue) } ?? .null
        object["count"] = .int(record.count)
        object["last_scheduled_at"] = .string(ISOTime.format(record.lastScheduledAt, in: zone))
        object["catch_up"] = .bool(record.isCatchUp)
        object["recorded"] = .string(ISOTime.format(record.recorded, in: zone))
        return .object(object)
    }
}
