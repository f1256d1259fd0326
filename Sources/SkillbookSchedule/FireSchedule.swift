public import Foundation
public import SkillbookCore

/// A schedule entry's trigger made concrete: a cron schedule in its zone, or an anchored interval.
public enum FireSchedule: Sendable {
    case cron(CronSchedule)
    case interval(IntervalSchedule)

    /// The entry's schedule; an interval needs its anchor (its first fire).
    public init(_ entry: ScheduleEntry, anchor: Date, machineZone: TimeZone = .current) {
        switch entry.trigger {
        case .cron(let expression):
            let zone = entry.timezone.flatMap(TimeZone.init(identifier:)) ?? machineZone
            self = .cron(CronSchedule(expression, zone: zone))
        case .every(let seconds):
            self = .interval(IntervalSchedule(anchor: anchor, interval: seconds))
        }
    }

    /// The first fire strictly after `date`.
    public func nextFire(after date: Date) -> Date? {
        switch self {
        case .cron(let schedule): schedule.nextFire(after: date)
        case .interval(let schedule): schedule.nextFire(after: date)
        }
    }

    /// The zone fire times are shown in.
    public var zone: TimeZone {
        switch self {
        case .cron(let schedule): schedule.mapping.zone
        case .interval: .current
        }
    }
}
