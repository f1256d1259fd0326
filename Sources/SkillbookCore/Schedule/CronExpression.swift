/// A parsed five-field cron expression with Debian cron's semantics, as sets of allowed values.
///
/// Fields: minute (0-59), hour (0-23), day of month (1-31), month (1-12), day of week (0-7, 0 and
/// 7 both Sunday). A day matches when day-of-month *or* day-of-week matches if both fields are
/// restricted, and when both match otherwise; a field is *restricted* when its text does not start
/// with `*` (so `*/2` is unrestricted, as in Debian cron). Each set is a bitset, so the next match
/// is found by skipping whole months, days and hours.
public struct CronExpression: Sendable, Hashable, CustomStringConvertible {
    /// The text as written (a macro such as `@daily` stays as written).
    public var source: String
    /// The five fields after macro expansion.
    public var fields: [String]
    /// Bit `m` set: minute `m` matches.
    public var minutes: UInt64
    /// Bit `h` set: hour `h` matches.
    public var hours: UInt32
    /// Bit `d` set (1-31): day of month `d` matches.
    public var daysOfMonth: UInt32
    /// Bit `m` set (1-12): month `m` matches.
    public var months: UInt16
    /// Bit `w` set (0 = Sunday … 6 = Saturday): that weekday matches.
    public var daysOfWeek: UInt8
    public var dayOfMonthRestricted: Bool
    public var dayOfWeekRestricted: Bool
    /// Neither the minute nor the hour field starts with `*`: a fixed time of day, which Debian cron
    /// fires once across a DST change (a skipped time at the end of the gap, a repeated time once).
    /// Otherwise the schedule keeps real-time cadence.
    public var hasFixedTime: Bool

    public var description: String { source }

    /// Whether the day `day` of `month` (a `weekday`, 0 = Sunday) matches the day fields.
    public func matchesDay(day: Int, month: Int, weekday: Int) -> Bool {
        guard months & (1 << UInt16(month)) != 0 else { return false }
        let dom = daysOfMonth & (1 << UInt32(day)) != 0
        let dow = daysOfWeek & (1 << UInt8(weekday)) != 0
        return dayOfMonthRestricted && dayOfWeekRestricted ? (dom || dow) : (dom && dow)
    }

    /// The fixed times of day (hour, minute) when `hasFixedTime`, else empty.
    public var fixedTimes: [(hour: Int, minute: Int)] {
        guard hasFixedTime else { return [] }
        var times: [(Int, Int)] = []
        for hour in 0..<24 where hours & (1 << UInt32(hour)) != 0 {
            for minute in 0..<60 where minutes & (1 << UInt64(minute)) != 0 { times.append((hour, minute)) }
        }
        return times
    }

    /// The macros and the five fields each stands for.
    public static let macros: [String: String] = [
        "@yearly": "0 0 1 1 *", "@annually": "0 0 1 1 *", "@monthly": "0 0 1 * *", "@weekly": "0 0 * * 0",
        "@daily": "0 0 * * *", "@midnight": "0 0 * * *", "@hourly": "0 * * * *",
    ]
}

/// What is wrong with a cron expression, with the 0-based character offset it starts at.
public struct CronError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String
    /// Offset in the expression's text where the problem is.
    public var offset: Int

    public init(_ message: String, offset: Int) {
        self.message = message
        self.offset = offset
    }

    public var description: String { message }
}

/// Every problem of one cron expression.
public struct CronErrors: Error, Sendable, Hashable {
    public var problems: [CronError]

    public init(_ problems: [CronError]) {
        self.problems = problems
    }
}
