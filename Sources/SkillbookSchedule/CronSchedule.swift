public import Foundation
public import SkillbookCore

/// A cron expression in a time zone: its fire instants, with Debian cron's DST rules.
///
/// - A schedule with a fixed time of day (neither minute nor hour starts with `*`) fires a wall
///   time that a DST change skips once, at the first instant after the gap, and a wall time that
///   the change repeats once, at its first occurrence.
/// - Any other schedule keeps real-time cadence: skipped wall times never fire, repeated ones fire
///   in both copies.
///
/// The next fire is found on bitsets (skipping whole months, days and hours), so a call costs
/// microseconds even for a schedule that fires once a year.
public struct CronSchedule: Sendable {
    public let expression: CronExpression
    public let mapping: ZoneMapping
    /// How far ahead a search gives up (an expression such as `0 0 31 2,4 5` still fires, rarely).
    public static let searchYears = 50

    public init(_ expression: CronExpression, zone: TimeZone) {
        self.expression = expression
        self.mapping = ZoneMapping(zone: zone)
    }

    /// The first fire strictly after `date`, or `nil` when none comes within `searchYears`.
    public func nextFire(after date: Date) -> Date? {
        nextFire(after: Int64(date.timeIntervalSince1970.rounded(.down))).map { Date(timeIntervalSince1970: Double($0)) }
    }

    /// The next `count` fires after `date`, in order.
    public func fires(after date: Date, count: Int) -> [Date] {
        var result: [Date] = []
        var cursor = date
        while result.count < count, let next = nextFire(after: cursor) {
            result.append(next)
            cursor = next
        }
        return result
    }

    /// The first fire instant (Unix seconds) strictly after `instant`, or `nil` when none comes
    /// within `searchYears`.
    public func nextFire(after instant: Int64) -> Int64? {
        let offsetNow = mapping.offset(at: instant)
        let offsetSoon = mapping.offset(at: instant + 86_400)
        var best: Int64?
        var bestOffset = offsetNow
        // The whole search ends `searchYears` on, not each match's: every match of `* 2 8 3 */7`
        // (March 8 a Sunday, 2 a.m.) is in America/New_York's spring gap, where a schedule without
        // a fixed time never fires, and the matches go on for ever (a daemon or `schedule next`
        // hung; found by the next-fires fuzzer).
        let horizon = instant + Int64(Self.searchYears) * 366 * 86_400
        var wall = nextMatch(atOrAfter: instant + min(offsetNow, offsetSoon) + 1)
        while let current = wall, current <= horizon {
            // Walls further on map to instants at least `current - largest offset`.
            if let best, current - max(offsetNow, offsetSoon, bestOffset) > best { break }
            var candidate: Int64?
            switch mapping.instants(forWall: current) {
            case .unique(let at): candidate = at > instant ? at : nil
            case .gap(let end): candidate = expression.hasFixedTime && end > instant ? end : nil
            case .overlap(let first, let second):
                candidate = first > instant ? first : (!expression.hasFixedTime && second > instant ? second : nil)
            }
            if let candidate, candidate < (best ?? .max) {
                best = candidate
                bestOffset = mapping.offset(at: candidate)
            }
            wall = nextMatch(atOrAfter: current + 60)
        }
        return best
    }

    /// The first wall time (whole minute) at or after `wall` that the fields match.
    public func nextMatch(atOrAfter wall: Int64) -> Int64? {
        let start = CivilTime(wallSeconds: wall + 59 - (wall + 59).floorModulo(60))
        var days = CivilTime.days(year: start.year, month: start.month, day: start.day)
        var (year, month, day) = (start.year, start.month, start.day)
        var hour = start.hour
        var minute = start.minute
        let lastYear = start.year + Self.searchYears
        func nextDay() {
            days += 1
            (year, month, day) = CivilTime.civil(fromDays: days)
            hour = 0
            minute = 0
        }
        while year <= lastYear {
            if expression.months & (1 << UInt16(month)) == 0 {
                days += CivilTime.daysInMonth(year: year, month: month) - day
                nextDay()
                continue
            }
            guard expression.matchesDay(day: day, month: month, weekday: CivilTime.weekday(days: days)) else {
                nextDay()
                continue
            }
            guard let matchingHour = Self.nextBit(UInt64(expression.hours), from: hour) else {
                nextDay()
                continue
            }
            if matchingHour != hour {
                hour = matchingHour
                minute = 0
            }
            guard let matchingMinute = Self.nextBit(expression.minutes, from: minute) else {
                hour += 1
                minute = 0
                if hour == 24 { nextDay() }
                continue
            }
            return Int64(days) * 86_400 + Int64(hour * 3600 + matchingMinute * 60)
        }
        return nil
    }

    /// The lowest set bit at or above `from`.
    static func nextBit(_ bits: UInt64, from: Int) -> Int? {
        guard from < 64 else { return nil }
        let masked = bits & (~UInt64(0) << UInt64(from))
        return masked == 0 ? nil : masked.trailingZeroBitCount
    }
}

extension Int64 {
    func floorModulo(_ divisor: Int64) -> Int64 {
        let remainder = self % divisor
        return remainder < 0 ? remainder + divisor : remainder
    }
}
