import Foundation
import SkillbookCore
import SkillbookHost
import SkillbookSchedule

/// `skillbook schedule`: every scheduled playbook, its next three fires and its last fire.
enum ScheduleCommand: Command {
    static let spec = CommandSpec(
        name: "schedule", summary: "List the scheduled playbooks: next three fires (local and UTC), last fire and its run's status.",
        arguments: "", options: [],
        discussion: """
            Reads every playbook of the playbooks folder that has a 'schedule:' block; a file with errors is
            listed with its first error. Fires are started by 'skillbook daemon' or, once a minute from cron or
            systemd, by 'skillbook schedule tick' (see 'skillbook schedule install'). Other subcommands:
            'schedule next', 'schedule tick', 'schedule install', 'schedule history'. A fire not
            started in the last 7 days (dropped by catch_up or its window, skipped by overlap) is counted
            as 'missed N since …'.
            """,
        examples: ["skillbook schedule", "skillbook schedule --playbooks ~/Routines"])

    static func execute(_ arguments: ParsedArguments, _ invocation: Invocation) async throws -> ExitCode {
        let host = try invocation.host(arguments)
        let (entries, broken) = try await host.scheduleOverview(now: host.configuration.clock.now())
        let console = invocation.console
        if entries.isEmpty && broken.isEmpty {
            console.err("no scheduled playbooks in \(host.displayPath(host.configuration.playbooksDirectory))")
        }
        for overview in entries {
            let zone = overview.zone.identifier
            console.out(console.style(overview.playbook, "1") + "  \(overview.entryPath): \(overview.trigger) (\(zone))")
            for fire in overview.next {
                console.out("  next  \(ISOTime.format(fire, in: overview.zone))  \(ISOTime.format(fire, in: .gmt))")
            }
            if let run = overview.lastRun {
                let at = run.scheduledAt.map { ISOTime.format($0, in: overview.zone) } ?? ISOTime.format(run.started, in: overview.zone)
                console.out("  last  \(at)  run \(run.id.prefix(8))  \(run.status.rawValue)")
            } else {
                console.out("  last  never")
            }
            if let missed = overview.missed {
                let reasons = MissReason.allCases.compactMap { reason in missed.reasons[reason].map { "\(reason.rawValue) \($0)" } }
                console.out(
                    "  missed \(missed.count) since \(ISOTime.format(missed.since, in: overview.zone))  (\(reasons.joined(separator: ", ")); see 'skillbook schedule history \(overview.playbook)')")
            }
        }
        for file in broken { console.err(file.message) }
        return broken.isEmpty ? .success : .failure
    }
}
