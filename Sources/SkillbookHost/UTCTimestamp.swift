public import Foundation

/// `2026-12-02T14:40:55.293Z`: a date in UTC with milliseconds, as `Date.ISO8601FormatStyle(
/// includingFractionalSeconds: true)` writes it (the milliseconds cut, not rounded, from the
/// fraction of the second) — computed with integer arithmetic, about twenty times faster, for the
/// run answers that write three dates per step. Dates before 1900 or after 9999 are left to
/// Foundation (its calendar is Julian before 1582).
public enum UTCTimestamp {
    public static func milliseconds(_ date: Date) -> String {
        let time = date.timeIntervalSince1970
        guard time >= -2_208_988_800, time < 253_402_300_800 else {
            return date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
        }
        let whole = time.rounded(.down)
        let seconds = Int(whole)
        let millisecond = min(999, Int((time - whole) * 1000))
        var day = seconds / 86_400
        var secondOfDay = seconds % 86_400
        if secondOfDay < 0 {
            secondOfDay += 86_400
            day -= 1
        }
        let (year, month, dayOfMonth) = civil(daysSince1970: day)
        return String(unsafeUninitializedCapacity: 24) { buffer in
            var at = 0
            func put(_ value: Int, digits: Int) {
                var value = value
                for index in stride(from: digits - 1, through: 0, by: -1) {
                    buffer[at + index] = UInt8(ascii: "0") + UInt8(value % 10)
                    value /= 10
                }
                at += digits
            }
            func put(_ character: Unicode.Scalar) {
                buffer[at] = UInt8(ascii: character)
                at += 1
            }
            put(year, digits: 4)
            put("-")
            put(month, digits: 2)
            put("-")
            put(dayOfMonth, digits: 2)
            put("T")
            put(secondOfDay / 3600, digits: 2)
            put(":")
            put(secondOfDay / 60 % 60, digits: 2)
            put(":")
            put(secondOfDay % 60, digits: 2)
            put(".")
            put(millisecond, digits: 3)
            put("Z")
            return at
        }
    }

    /// The proleptic Gregorian date `days` after 1970-01-01 (the days-to-civil algorithm: count
    /// 400-year eras from 0000-03-01, so that the leap day ends a year).
    static func civil(daysSince1970 days: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
        let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
