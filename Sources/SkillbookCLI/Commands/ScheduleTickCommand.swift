import Foundation
import SkillbookCore
import SkillbookHost

/// `skillbook schedule tick`: starts what is due now, waits for those runs, exits.
enum ScheduleTickCommand: Command {
    static let spec = CommandSpec(
        name: "schedule tick", summary: "Start every scheduled fire that is due now, wait for those runs, then exit.",
        arguments: "", options: [],
        discussion: """
            Makes the same decisions as 'skillbook daemon' (catch_up, overlap, the watermark in the state
            database) and claims each fire by the same key (playbook, entry, scheduled instant), so a fire
            starts at most once whichever of them, and how many, run. Meant to be run every minute by cron or
            a systemd timer: 'skillbook schedule install --crontab|--systemd' prints the lines.
            A step that needs confirmation makes its run wait for an approval ('skillbook approvals'); a
            request that expired is declined on each tick. Log lines go to stderr. Exit 0 when every started
            run succeeded or waits for an approval, 1 otherwise — and 1 when a playbook with a 'schedule:' has
            errors, since its schedule cannot fire ('playbook broken' names it; 'skillbook validate' shows why).
            Tick is minute-grained: an 'every' shorter than a minute fires once per tick, the fires between
            ticks are missed (a line says so); 'skillbook daemon' keeps such intervals.
            """,
        examples: ["skillbook schedule tick --playbooks /home/ada/Routines --state /home/ada/.local/state/skillbook"])

    static func execute(_ arguments: ParsedArguments, _ invocation: Invocation) async throws -> ExitCode {
        let console = invocation.console
        let failures = Counter()
        let host = try invocation.host(arguments)
        let service = try ScheduleService(host: host) { line in
            if line.hasPrefix("run "), !line.contains("status=succeeded"), !line.contains("status=waiting") { failures.increment() }
            console.err("skillbook: \(line)")
        }
        for entry in service.loaded.entries {
            for case .every(let seconds) in entry.playbook.schedule.map(\.trigger) where seconds < 60 {
                console.err(
                    "skillbook: \(entry.playbook.name): every \(ShowCommand.everyText(seconds)) is shorter than a tick's minute; "
                        + "the fires between ticks are missed (skillbook daemon keeps it)")
            }
        }
        let broken = service.loaded.broken.filter(\.declaresSchedule).count
        let started = try await service.tick()
        console.err("skillbook: tick done started=\(started)" + (broken > 0 ? " broken=\(broken)" : ""))
        return failures.value == 0 && broken == 0 ? .success : .failure
    }
}

/// A count shared with log callbacks.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func increment() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}
