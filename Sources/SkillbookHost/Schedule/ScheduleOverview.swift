public import Foundation
public import SkillbookCore
import SkillbookSchedule

/// What `skillbook schedule` shows of one schedule entry: when it fires next, and its last fire.
public struct ScheduleOverview: Sendable {
    public var playbook: String
    public var entry: Int
    public var entryPath: String
    /// `cron 30 7 * * 1-5` or `every 15m`.
    public var trigger: String
    /// The zone fire times are shown in.
    public var zone: TimeZone
    public var next: [Date]
    /// The newest run this playbook's schedule started, with its status.
    public var lastRun: JournalRun?
}

extension PlaybookHost {
    /// Each entry of each scheduled playbook with its next `count` fires after `now` and the last
    /// run a fire of the playbook started; also the files with errors.
    public func scheduleOverview(now: Date, count: Int = 3) async throws(HostError) -> (entries: [ScheduleOverview], broken: [ScheduledWorkspace.Broken]) {
        let workspace = try scheduledWorkspace()
        let journal = try openJournal()
        let ledger = try openFireLedger()
        var overviews: [ScheduleOverview] = []
        for item in workspace.entries {
            let name = item.playbook.name
            let runs = try await HostError.journaling { try await journal.runs(playbook: name, status: nil, limit: 100) }
            let last = runs.first { $0.trigger == .schedule }
            for (index, entry) in item.playbook.schedule.enumerated() {
                // A ledger that cannot be read is an error, not a schedule that never fired.
                let state = try await HostError.journaling { try await ledger.state(playbook: name, entry: index) }
                let schedule = FireSchedule(entry, anchor: state.anchor ?? now, machineZone: configuration.timeZone)
                var next: [Date] = []
                var cursor = now
                if case .every = entry.trigger, state.anchor == nil { next.append(now) }
                while next.count < count, let fire = schedule.nextFire(after: cursor) {
                    next.append(fire)
                    cursor = fire
                }
                let zone: TimeZone
                let trigger: String
                switch entry.trigger {
                case .cron(let expression):
                    zone = entry.timezone.flatMap(TimeZone.init(identifier:)) ?? configuration.timeZone
                    trigger = "cron \(expression)"
                case .every(let seconds):
                    zone = configuration.timeZone
                    trigger = "every \(DurationText.short(seconds))"
                }
                overviews.append(
                    ScheduleOverview(
                        playbook: name, entry: index, entryPath: entry.path, trigger: trigger, zone: zone, next: next,
                        lastRun: last))
            }
        }
        return (overviews, workspace.broken)
    }
}

extension DurationText {
    /// `2s`, `15m`, `1h30m`, `1.5s`.
    static func short(_ seconds: Double) -> String {
        guard seconds == seconds.rounded() else { return "\(seconds)s" }
        var rest = Int(seconds)
        var text = ""
        for (unit, size) in [("d", 86400), ("h", 3600), ("m", 60)] where rest >= size {
            text += "\(rest / size)\(unit)"
            rest %= size
        }
        if rest > 0 || text.isEmpty { text += "\(rest)s" }
        return text
    }
}
