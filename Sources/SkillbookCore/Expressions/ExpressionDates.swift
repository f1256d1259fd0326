import Foundation

/// Calendar arithmetic for `today()`, `now()` and `add_days` on proleptic Gregorian day numbers
/// (days since 1970-01-01), without formatters.
enum ExpressionDates {
    /// The dates these functions produce: years 1 to 9999.
    static let dayRange = days(year: 1, month: 1, day: 1)...days(year: 9999, month: 12, day: 31)

    /// The day number of a civil date (the calendar arithmetic lives in `CivilTime`).
    static func days(year: Int, month: Int, day: Int) -> Int {
        CivilTime.days(year: year, month: month, day: day)
    }

    /// The civil date of a day number in `dayRange`.
    static func civil(days: Int) -> (year: Int, month: Int, day: Int) {
        CivilTime.civil(fromDays: days)
    }

    /// Seconds since 1970-01-01 00:00 of the wall-clock time of `date` in `timeZone`.
    static func localSeconds(_ date: Date, in timeZone: TimeZone) -> Int? {
        let t = date.timeIntervalSince1970
        guard t.isFinite, abs(t) < 300_000_000_000 else { return nil }
        return Int(t.rounded(.down)) + timeZone.secondsFromGMT(for: date)
    }

    /// `YYYY-MM-DD` of a day number in `dayRange`.
    static func format(days: Int) -> String {
        let (year, month, day) = civil(days: days)
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
    }

    /// The date of `date` in `timeZone`, as `YYYY-MM-DD`.
    static func formatDate(_ date: Date, in timeZone: TimeZone) -> String? {
        guard let seconds = localSeconds(date, in: timeZone) else { return nil }
        let days = floorDivide(seconds, 86_400)
        return dayRange.contains(days) ? format(days: days) : nil
    }

    /// ISO 8601 date-time with the zone's offset: `2026-11-30T09:15:00+01:00` (`Z` for UTC).
    static func formatDateTime(_ date: Date, in timeZone: TimeZone) -> String? {
        guard let seconds = localSeconds(date, in: timeZone) else { return nil }
        let days = floorDivide(seconds, 86_400)
        guard dayRange.contains(days) else { return nil }
        let time = seconds - days * 86_400
        let offset = timeZone.secondsFromGMT(for: date)
        let zone =
            offset == 0
            ? "Z" : "\(offset < 0 ? "-" : "+")\(pad(abs(offset) / 3600, 2)):\(pad(abs(offset) % 3600 / 60, 2))"
        return "\(format(days: days))T\(pad(time / 3600, 2)):\(pad(time % 3600 / 60, 2)):\(pad(time % 60, 2))\(zone)"
    }

    /// The day number of exactly `YYYY-MM-DD` (a real date), else `nil`.
    static func parseDay(_ text: String) -> Int? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isWholeNumber } }),
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
            (1...12).contains(month), day >= 1, day <= daysInMonth(year: year, month: month)
        else { return nil }
        return days(year: year, month: month, day: day)
    }

    static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    private static func floorDivide(_ a: Int, _ b: Int) -> Int {
        a >= 0 ? a / b : -((-a + b - 1) / b)
    }

    private static func pad(_ number: Int, _ width: Int) -> String {
        let digits = String(abs(number))
        let padded = String(repeating: "0", count: max(0, width - digits.count)) + digits
        return number < 0 ? "-" + padded : padded
    }
}
