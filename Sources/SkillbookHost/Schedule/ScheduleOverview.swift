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
    /// Fires of this entry not started in the last `ScheduleOverview.missedPeriod` seconds: how
    /// many, the oldest's instant, and how many per reason.
    public var missed: (count: Int, since: Date, reasons: [MissReason: Int])?
    /// The newest records of those fires (at most `ScheduleOverview.recentMisses`), newest first:
    /// each a fire skipped (`overlap`) or a batch missed (`catch_up`, `window`).
    public var recentMisses: [FireRecord] = []

    /// How many missed or skipped records an overview keeps: 5.
    public static let recentMisses = 5

    /// How far back `skillbook schedule` counts missed fires: 7 days.
    public static let missedPeriod: Double = 7 * 86400
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
            let history = try await HostError.journaling { try await ledger.history(playbook: name, limit: 1000) }
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
                        lastRun: last, missed: Self.missed(history, entry: index, now: now),
                        recentMisses: Self.misses(history, entry: index, now: now)))
            }
        }
        return (overviews, workspace.broken)
    }
}

extension PlaybookHost {
    /// What the fire ledger recorded (started, skipped and missed fires), newest first: of one
    /// playbook, or of all when `playbook` is `nil`.
    public func fireHistory(playbook: String?, limit: Int = 100) async throws(HostError) -> [FireRecord] {
        let ledger = try openFireLedger()
        return try await HostError.journaling { try await ledger.history(playbook: playbook, limit: limit) }
    }

    /// The newest records of fires of `entry` not started within `ScheduleOverview.missedPeriod`.
    static func misses(_ history: [FireRecord], entry: Int, now: Date) -> [FireRecord] {
        let cutoff = now.addingTimeInterval(-ScheduleOverview.missedPeriod)
        return Array(
            history.filter { $0.entry == entry && $0.missed != nil && $0.lastScheduledAt >= cutoff }.prefix(ScheduleOverview.recentMisses))
    }

    static func missed(_ history: [FireRecord], entry: Int, now: Date) -> (count: Int, since: Date, reasons: [MissReason: Int])? {
        let cutoff = now.addingTimeInterval(-ScheduleOverview.missedPeriod)
        var count = 0
        var since: Date?
        var reasons: [MissReason: Int] = [:]
        for record in history where record.entry == entry && record.lastScheduledAt >= cutoff {
            guard let reason = record.missed else { continue }
            count += record.count
            reasons[reason, default: 0] += record.count
            since = min(since ?? record.scheduledAt, record.scheduledAt)
        }
        guard let since, count > 0 else { return nil }
        return (count, since, reasons)
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
