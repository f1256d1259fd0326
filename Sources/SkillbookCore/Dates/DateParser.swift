public import Foundation
import Synchronization

/// A point in time read from text, and whether the text named a time of day.
public struct ParsedDate: Sendable, Hashable {
    /// The instant; local midnight of the day when `hasTime` is false.
    public var date: Date
    /// False for a day alone (`tomorrow`, `2026-11-30`, `下周一`).
    public var hasTime: Bool

    public init(date: Date, hasTime: Bool) {
        self.date = date
        self.hasTime = hasTime
    }
}

/// The one date parser of the program: ISO 8601 text and relative words in English and Chinese,
/// resolved against a fixed `now` in a time zone (Gregorian calendar).
///
/// Choices where the words are ambiguous:
/// - A weekday name alone (`monday`, `mon`, `周一`, `星期一`) and `next monday` mean the next such
///   day strictly after today: said on a Monday, all of them mean the Monday seven days later.
/// - `下周一`…`下周日` (also `下星期一`, `下礼拜一`) mean that day of next calendar week, weeks
///   starting on Monday: said on a Wednesday, `下周五` is nine days later, not two.
///   `这周五` / `本周五` mean that day of the current week, which may already have passed.
/// - A calendar day without a year (`december 15`, `15 dec`, `12月15日`) means the next such day
///   from today on, today included: said on December 20, `december 15` is next year's. A day of the
///   month alone (`the 15th`, `15号`) likewise means the next 15th, this month's or a later one's
///   (the next month that has a 31st for `the 31st`). `下个月15号` is the 15th of next month; a year
///   (`december 15 2027`, `2027年12月15日`) makes the day exact.
/// - A time alone (`9am`, `21:00`, `noon`, `下午3点`) means that time today, even if it has passed.
/// - `in 3 days`, `2 days ago`, `in 2 weeks`, `3天后` name a day (no time of day);
///   `in 2 hours`, `30 minutes ago`, `半小时后` name an instant.
/// - A bare hour needs `at` (`tomorrow at 9`); otherwise a time has minutes or am/pm (`9:30`, `9am`).
/// - `晚上` moves hours 6–11 to the evening, 12 to the following midnight and 1–5 into the small
///   hours after midnight (`晚上1点` is 01:00 of the next day); `中午` reads 1–3 as afternoon.
/// - A local time skipped by a daylight-saving change is resolved as `Calendar` resolves it
///   (moved forward by the length of the gap); an ISO date-time with `Z` or an offset is exact.
public struct DateParser: Sendable {
    public let now: Date
    public let timeZone: TimeZone

    /// Made when a phrase needs it, not with the parser: every run makes a parser, few parse a date.
    private var calendar: Calendar { Self.gregorian(timeZone) }

    public init(now: Date, timeZone: TimeZone) {
        self.now = now
        self.timeZone = timeZone
    }

    /// Parses ISO 8601 (date `2026-11-30`, date-time with `T` or space, with `Z`/offset or none = local),
    /// calendar days (`december 15`, `dec 15th 2027`, `15 december`, `the 15th of december`, `the 15th`,
    /// `12月15日`, `15号`, `下个月15号`),
    /// and relative words: today, tomorrow, yesterday, "day after tomorrow", weekday names and "next monday",
    /// "in 2 hours", "in 3 days", "in 30 minutes", "2 days ago", times "9am", "9:30pm", "21:00", "noon",
    /// combinations "tomorrow 9am", "tomorrow at 9:30", "next friday 18:00", and Chinese
    /// 今天 明天 后天 昨天, 下周一…下周日 (also 下星期一), 周一…周日 / 星期一…星期日,
    /// 早上/上午/中午/下午/晚上 + N点 (N点半, N点M分), e.g. 明天早上9点, 后天下午3点半.
    ///
    /// Case-insensitive; surrounding whitespace is ignored. `nil` for anything else.
    public func parse(_ text: String) -> ParsedDate? {
        let trimmed = text.trimmingWhiteSpace().lowercased()
        guard !trimmed.isEmpty, trimmed.count <= 200 else { return nil }
        if let iso = parseISO(trimmed) { return iso }
        if trimmed.unicodeScalars.contains(where: Self.isHan) { return parseChinese(trimmed) }
        return parseEnglish(trimmed)
    }

    /// `2026-11-30`: the day of `date` in `timeZone`.
    public static func formatDate(_ date: Date, timeZone: TimeZone) -> String {
        let c = gregorian(timeZone).dateComponents([.year, .month, .day], from: date)
        return "\(pad(c.year ?? 0, 4))-\(pad(c.month ?? 0, 2))-\(pad(c.day ?? 0, 2))"
    }

    /// `2026-11-30T09:00:00+01:00`: local time in `timeZone` with its offset, `Z` when the offset is zero.
    /// Fractions of a second are dropped.
    public static func formatDateTime(_ date: Date, timeZone: TimeZone) -> String {
        // A run formats its start time at every step: remember the last answer.
        if let last = lastDateTime.withLock({ $0 }), last.date == date, last.timeZone == timeZone { return last.text }
        let text = formatDateTimeUncached(date, timeZone: timeZone)
        lastDateTime.withLock { $0 = (date, timeZone, text) }
        return text
    }

    /// `2026-11-30T09:00:00Z`: what `date.formatted(.iso8601)` gives, by arithmetic (see `wallClock`),
    /// so that recording a note's time at start-up makes no `Calendar`.
    public static func formatUTC(_ date: Date) -> String {
        guard let wall = wallClock(date, offset: 0) else { return date.formatted(.iso8601) }
        return text(of: wall) + "Z"
    }

    private static let lastDateTime = Mutex<(date: Date, timeZone: TimeZone, text: String)?>(nil)

    private static func formatDateTimeUncached(_ date: Date, timeZone: TimeZone) -> String {
        let offset = timeZone.secondsFromGMT(for: date)
        let c = wallClock(date, offset: offset) ?? {
            let c = gregorian(timeZone).dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
            return CivilTime(
                year: c.year ?? 0, month: c.month ?? 0, day: c.day ?? 0, hour: c.hour ?? 0, minute: c.minute ?? 0,
                second: c.second ?? 0)
        }()
        guard offset != 0 else { return text(of: c) + "Z" }
        let minutes = abs(offset) / 60
        return text(of: c) + (offset < 0 ? "-" : "+") + "\(pad(minutes / 60, 2)):\(pad(minutes % 60, 2))"
    }

    // MARK: - Shared pieces

    /// A resolved day (local midnight) or an exact instant.
    private enum Anchor {
        case day(Date)
        case instant(Date)
    }

    /// A time of day; `hour` may reach 24 or more for times after the day's midnight.
    private struct TimeOfDay {
        var hour: Int
        var minute: Int
        var second: Int = 0
    }

    /// The last calendar made, reused while the time zone is the same: making one is costly, and a
    /// run makes parsers and formats `run.started` at every step.
    private static let lastCalendar = Mutex<Calendar?>(nil)

    private static func gregorian(_ timeZone: TimeZone) -> Calendar {
        if let cached = lastCalendar.withLock({ $0 }), cached.timeZone == timeZone { return cached }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        lastCalendar.withLock { $0 = calendar }
        return calendar
    }

    /// The wall clock at `date` shifted by `offset` seconds, by arithmetic on the proleptic Gregorian
    /// calendar (`CivilTime`: what `Calendar` would say, without making one, which loads calendar
    /// data, costly at start-up). `nil` before 1583, where Foundation's Gregorian calendar is Julian.
    private static func wallClock(_ date: Date, offset: Int) -> CivilTime? {
        let seconds = date.timeIntervalSince1970.rounded(.down) + Double(offset)
        guard seconds >= -12_212_553_600, seconds < 253_402_300_800 else { return nil }  // 1583-01-01 ..< 10000-01-01
        return CivilTime(wallSeconds: Int64(seconds))
    }

    /// `2026-11-30T09:00:00`: the wall clock as ISO 8601 without an offset.
    private static func text(of wall: CivilTime) -> String {
        "\(pad(wall.year, 4))-\(pad(wall.month, 2))-\(pad(wall.day, 2))T\(pad(wall.hour, 2)):\(pad(wall.minute, 2)):\(pad(wall.second, 2))"
    }

    private static func pad(_ number: Int, _ width: Int) -> String {
        let digits = String(abs(number))
        let padded = String(repeating: "0", count: max(0, width - digits.count)) + digits
        return number < 0 ? "-" + padded : padded
    }

    private static func isHan(_ scalar: Unicode.Scalar) -> Bool {
        (0x4E00...0x9FFF).contains(scalar.value) || (0x3400...0x4DBF).contains(scalar.value)
    }

    /// Local midnight `days` days from today.
    private func day(offset days: Int) -> Anchor? {
        let today = calendar.startOfDay(for: now)
        guard let shifted = calendar.date(byAdding: .day, value: days, to: today) else { return nil }
        return .day(calendar.startOfDay(for: shifted))
    }

    /// Local midnight of a calendar date, or `nil` when the date does not exist.
    private func midnight(year: Int, month: Int, day: Int) -> Date? {
        guard (1...9999).contains(year), (1...12).contains(month), (1...31).contains(day) else { return nil }
        guard let date = calendar.date(from: DateComponents(year: year, month: month, day: day)) else { return nil }
        let check = calendar.dateComponents([.year, .month, .day], from: date)
        guard check.year == year, check.month == month, check.day == day else { return nil }
        return calendar.startOfDay(for: date)
    }

    /// The next `month`/`day` from today on (this year's, or next year's when it has passed), or
    /// that day of `year` when given; `nil` when no such day exists.
    private func calendarDay(month: Int, day: Int, year: Int?) -> Anchor? {
        if let year { return midnight(year: year, month: month, day: day).map(Anchor.day) }
        let today = calendar.startOfDay(for: now)
        let thisYear = calendar.component(.year, from: today)
        for candidate in thisYear...(thisYear + 8) {
            // (February 29 waits for a leap year)
            if let date = midnight(year: candidate, month: month, day: day), date >= today { return .day(date) }
        }
        return nil
    }

    /// The next `day` of a month from today on, in `monthsAhead` months' time when given (0: this
    /// month, which may have passed).
    private func dayOfMonth(_ day: Int, monthsAhead: Int?) -> Anchor? {
        let today = calendar.startOfDay(for: now)
        let c = calendar.dateComponents([.year, .month], from: today)
        guard let year = c.year, let month = c.month, (1...31).contains(day) else { return nil }
        func shifted(_ k: Int) -> Date? {
            let index = year * 12 + (month - 1) + k
            return midnight(year: index / 12, month: index % 12 + 1, day: day)
        }
        if let monthsAhead { return shifted(monthsAhead).map(Anchor.day) }
        for k in 0...12 {
            if let date = shifted(k), date >= today { return .day(date) }
        }
        return nil
    }

    /// Today's weekday, Monday = 1 … Sunday = 7.
    private var isoWeekdayToday: Int {
        (calendar.component(.weekday, from: now) + 5) % 7 + 1
    }

    /// The next `weekday` (Monday = 1) strictly after today.
    private func nextOccurrence(of weekday: Int) -> Anchor? {
        let delta = (weekday - isoWeekdayToday + 7) % 7
        return day(offset: delta == 0 ? 7 : delta)
    }

    /// `weekday` of the current Monday-to-Sunday week.
    private func thisWeek(_ weekday: Int) -> Anchor? {
        day(offset: weekday - isoWeekdayToday)
    }

    /// `weekday` of the week after the current one.
    private func nextWeek(_ weekday: Int) -> Anchor? {
        day(offset: 7 - isoWeekdayToday + weekday)
    }

    /// A relative offset: calendar units for days and longer, exact seconds for shorter ones.
    private func offset(_ amount: Int, _ unit: Unit) -> Anchor? {
        switch unit {
        case .seconds(let seconds):
            return .instant(now.addingTimeInterval(Double(amount) * seconds))
        case .days(let days):
            return day(offset: amount * days)
        case .months(let months):
            let today = calendar.startOfDay(for: now)
            guard let shifted = calendar.date(byAdding: .month, value: amount * months, to: today) else { return nil }
            return .day(calendar.startOfDay(for: shifted))
        }
    }

    private enum Unit {
        case seconds(Double)
        case days(Int)
        case months(Int)
    }

    /// The instant `clock` on the day whose midnight is `midnight`.
    private func at(_ clock: TimeOfDay, on midnight: Date) -> Date? {
        var base = midnight
        if clock.hour >= 24 {
            guard let next = calendar.date(byAdding: .day, value: clock.hour / 24, to: midnight) else { return nil }
            base = next
        }
        var components = calendar.dateComponents([.year, .month, .day], from: base)
        components.hour = clock.hour % 24
        components.minute = clock.minute
        components.second = clock.second
        return calendar.date(from: components)
    }

    private func result(_ anchor: Anchor?, _ clock: TimeOfDay?) -> ParsedDate? {
        switch (anchor, clock) {
        case (.day(let midnight)?, nil):
            return ParsedDate(date: midnight, hasTime: false)
        case (.instant(let instant)?, nil):
            return ParsedDate(date: instant, hasTime: true)
        case (.day(let midnight)?, let clock?):
            return at(clock, on: midnight).map { ParsedDate(date: $0, hasTime: true) }
        case (nil, let clock?):
            guard case .day(let today)? = day(offset: 0) else { return nil }
            return at(clock, on: today).map { ParsedDate(date: $0, hasTime: true) }
        case (.instant?, .some), (nil, nil):
            return nil
        }
    }

    private static func number(_ text: some StringProtocol, digits: ClosedRange<Int>) -> Int? {
        guard digits.contains(text.count), text.allSatisfy(\.isASCIIDigit) else { return nil }
        return Int(text)
    }

    // MARK: - ISO 8601

    private func parseISO(_ text: String) -> ParsedDate? {
        let chars = Array(text)
        guard chars.count >= 10, let (year, month, day) = Self.isoDate(chars[0..<10]) else { return nil }
        if chars.count == 10 {
            return midnight(year: year, month: month, day: day).map { ParsedDate(date: $0, hasTime: false) }
        }
        guard chars[10] == "t" || chars[10] == " " else { return nil }
        var rest = String(chars[11...])
        var zone: TimeZone?
        if rest.hasSuffix("z") {
            zone = TimeZone(secondsFromGMT: 0)
            rest.removeLast()
        } else if let sign = rest.lastIndex(where: { $0 == "+" || $0 == "-" }) {
            guard let seconds = Self.isoOffset(rest[sign...]), let offsetZone = TimeZone(secondsFromGMT: seconds)
            else { return nil }
            zone = offsetZone
            rest = String(rest[..<sign])
        }
        guard let (clock, nanoseconds) = Self.isoTime(rest) else { return nil }
        guard midnight(year: year, month: month, day: day) != nil else { return nil }
        var zoned = calendar
        if let zone { zoned.timeZone = zone }
        let components = DateComponents(
            year: year, month: month, day: day, hour: clock.hour, minute: clock.minute, second: clock.second,
            nanosecond: nanoseconds)
        return zoned.date(from: components).map { ParsedDate(date: $0, hasTime: true) }
    }

    /// `2026-11-30`
    private static func isoDate(_ chars: ArraySlice<Character>) -> (Int, Int, Int)? {
        let parts = String(chars).split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, let year = number(parts[0], digits: 4...4),
            let month = number(parts[1], digits: 2...2), let day = number(parts[2], digits: 2...2)
        else { return nil }
        return (year, month, day)
    }

    /// `09:30`, `09:30:15`, `09:30:15.250`
    private static func isoTime(_ text: String) -> (TimeOfDay, Int)? {
        var body = Substring(text)
        var nanoseconds = 0
        if let dot = body.firstIndex(where: { $0 == "." || $0 == "," }) {
            let fraction = body[body.index(after: dot)...]
            guard !fraction.isEmpty, fraction.count <= 9, fraction.allSatisfy(\.isASCIIDigit),
                let value = Int(fraction)
            else { return nil }
            nanoseconds = value * Int(pow(10, Double(9 - fraction.count)))
            body = body[..<dot]
        }
        let parts = body.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3,
            let hour = number(parts[0], digits: 2...2), let minute = number(parts[1], digits: 2...2),
            hour < 24, minute < 60
        else { return nil }
        var second = 0
        if parts.count == 3 {
            guard let s = number(parts[2], digits: 2...2), s < 60 else { return nil }
            second = s
        } else if nanoseconds != 0 {
            return nil
        }
        return (TimeOfDay(hour: hour, minute: minute, second: second), nanoseconds)
    }

    /// `+01:00`, `-0530`, `+01` → seconds east of UTC.
    private static func isoOffset(_ text: Substring) -> Int? {
        guard let sign = text.first else { return nil }
        let body = text.dropFirst().filter { $0 != ":" }
        guard text.dropFirst().filter({ $0 == ":" }).count <= 1,
            let hours = number(body.prefix(2), digits: 2...2)
        else { return nil }
        var minutes = 0
        if body.count == 4 {
            guard let m = number(body.suffix(2), digits: 2...2) else { return nil }
            minutes = m
        } else if body.count != 2 {
            return nil
        }
        guard hours <= 18, minutes < 60 else { return nil }
        let seconds = (hours * 60 + minutes) * 60
        return sign == "-" ? -seconds : seconds
    }

    // MARK: - English

    private static let weekdays: [String: Int] = [
        "monday": 1, "mon": 1, "tuesday": 2, "tue": 2, "tues": 2, "wednesday": 3, "wed": 3,
        "thursday": 4, "thu": 4, "thur": 4, "thurs": 4, "friday": 5, "fri": 5,
        "saturday": 6, "sat": 6, "sunday": 7, "sun": 7,
    ]

    private static let months: [String: Int] = [
        "january": 1, "jan": 1, "february": 2, "feb": 2, "march": 3, "mar": 3, "april": 4, "apr": 4, "may": 5,
        "june": 6, "jun": 6, "july": 7, "jul": 7, "august": 8, "aug": 8, "september": 9, "sep": 9, "sept": 9,
        "october": 10, "oct": 10, "november": 11, "nov": 11, "december": 12, "dec": 12,
    ]

    /// `15`, `15th`, `1st`, `2nd`, `23rd`: a day of the month (1–31), and whether it had an ordinal suffix.
    private static func dayNumber(_ token: String) -> (day: Int, isOrdinal: Bool)? {
        let digits = token.prefix { $0.isASCIIDigit }
        let suffix = token.dropFirst(digits.count)
        guard let day = number(digits, digits: 1...2), (1...31).contains(day) else { return nil }
        if suffix.isEmpty { return (day, false) }
        let expected: String
        switch (day % 10, day / 10) {
        case (1, let tens) where tens != 1: expected = "st"
        case (2, let tens) where tens != 1: expected = "nd"
        case (3, let tens) where tens != 1: expected = "rd"
        default: expected = "th"
        }
        return suffix == expected ? (day, true) : nil
    }

    private static let englishUnits: [String: Unit] = {
        var units: [String: Unit] = [:]
        for word in ["second", "seconds", "sec", "secs", "s"] { units[word] = .seconds(1) }
        for word in ["minute", "minutes", "min", "mins", "m"] { units[word] = .seconds(60) }
        for word in ["hour", "hours", "hr", "hrs", "h"] { units[word] = .seconds(3600) }
        for word in ["day", "days", "d"] { units[word] = .days(1) }
        for word in ["week", "weeks", "w"] { units[word] = .days(7) }
        for word in ["month", "months"] { units[word] = .months(1) }
        for word in ["year", "years"] { units[word] = .months(12) }
        return units
    }()

    private static let numberWords: [String: Int] = [
        "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
        "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
    ]

    private func parseEnglish(_ text: String) -> ParsedDate? {
        let spaced = text.replacingOccurrences(of: "a.m.", with: "am")
            .replacingOccurrences(of: "p.m.", with: "pm")
            .replacingOccurrences(of: ",", with: " ")
        var tokens: [String] = []
        for word in spaced.split(whereSeparator: \.isWhitespace).map(String.init) {
            if (word == "am" || word == "pm"), let last = tokens.last, last.last?.isASCIIDigit == true {
                tokens[tokens.count - 1] += word
            } else {
                tokens.append(word)
            }
        }
        guard !tokens.isEmpty else { return nil }
        if tokens == ["now"] { return ParsedDate(date: now, hasTime: true) }

        // day [at] [time]
        let start = tokens.first == "on" ? 1 : 0
        if let (anchor, next) = dayPhrase(tokens, start) {
            if next == tokens.count { return result(anchor, nil) }
            guard case .day = anchor else { return nil }
            var index = next
            let hasAt = tokens[index] == "at"
            if hasAt { index += 1 }
            guard let (clock, end) = timePhrase(tokens, index, bareHour: hasAt), end == tokens.count else {
                return nil
            }
            return result(anchor, clock)
        }

        // [at] time [on] [day]
        let hasAt = tokens.first == "at"
        guard let (clock, next) = timePhrase(tokens, hasAt ? 1 : 0, bareHour: hasAt) else { return nil }
        if next == tokens.count { return result(nil, clock) }
        let dayStart = tokens[next] == "on" ? next + 1 : next
        guard let (anchor, end) = dayPhrase(tokens, dayStart), end == tokens.count, case .day = anchor else {
            return nil
        }
        return result(anchor, clock)
    }

    /// A day or instant starting at `index`, and the index after it.
    private func dayPhrase(_ tokens: [String], _ index: Int) -> (Anchor, Int)? {
        guard index < tokens.count else { return nil }
        func word(_ offset: Int) -> String? {
            index + offset < tokens.count ? tokens[index + offset] : nil
        }
        func found(_ anchor: Anchor?, _ length: Int) -> (Anchor, Int)? {
            anchor.map { ($0, index + length) }
        }
        let first = tokens[index]
        switch first {
        case "today": return found(day(offset: 0), 1)
        case "tomorrow", "tmrw", "tmr": return found(day(offset: 1), 1)
        case "yesterday": return found(day(offset: -1), 1)
        case "the", "day":
            if first == "the", let ordinal = word(1).flatMap(Self.dayNumber) {
                // the 15th [of december [2027]]
                if word(2) == "of", let month = word(3).flatMap({ Self.months[$0] }) {
                    let year = word(4).flatMap { Self.number($0, digits: 4...4) }
                    return found(calendarDay(month: month, day: ordinal.day, year: year), year == nil ? 4 : 5)
                }
                return ordinal.isOrdinal ? found(dayOfMonth(ordinal.day, monthsAhead: nil), 2) : nil
            }
            let skip = first == "the" ? 1 : 0
            guard word(skip) == "day" else { return nil }
            switch (word(skip + 1), word(skip + 2)) {
            case ("after", "tomorrow"): return found(day(offset: 2), skip + 3)
            case ("before", "yesterday"): return found(day(offset: -2), skip + 3)
            default: return nil
            }
        case "next":
            guard let name = word(1), let weekday = Self.weekdays[name] else { return nil }
            return found(nextOccurrence(of: weekday), 2)
        case "in":
            guard let (amount, unit, length) = amountAndUnit(tokens, index + 1) else { return nil }
            return found(offset(amount, unit), 1 + length)
        default:
            if let weekday = Self.weekdays[first] { return found(nextOccurrence(of: weekday), 1) }
            // december 15[th] [2027]
            if let month = Self.months[first], let dayWord = word(1), let dayNumber = Self.dayNumber(dayWord) {
                let year = word(2).flatMap { Self.number($0, digits: 4...4) }
                return found(calendarDay(month: month, day: dayNumber.day, year: year), year == nil ? 2 : 3)
            }
            // 15[th] [of] december [2027]
            if let dayNumber = Self.dayNumber(first) {
                let of = word(1) == "of" ? 1 : 0
                if let month = word(1 + of).flatMap({ Self.months[$0] }) {
                    let year = word(2 + of).flatMap { Self.number($0, digits: 4...4) }
                    return found(calendarDay(month: month, day: dayNumber.day, year: year), (year == nil ? 2 : 3) + of)
                }
            }
            if let (year, month, dayOfMonth) = Self.isoDate(ArraySlice(Array(first))) {
                return found(midnight(year: year, month: month, day: dayOfMonth).map(Anchor.day), 1)
            }
            if let (amount, unit, length) = amountAndUnit(tokens, index), word(length) == "ago" {
                return found(offset(-amount, unit), length + 1)
            }
            return nil
        }
    }

    /// `2 hours`, `an hour`, `2h`: the amount, the unit and how many tokens they took.
    private func amountAndUnit(_ tokens: [String], _ index: Int) -> (Int, Unit, Int)? {
        guard index < tokens.count else { return nil }
        let token = tokens[index]
        let digits = token.prefix { $0.isASCIIDigit }
        if !digits.isEmpty, digits.count < token.count {
            guard let amount = Self.number(digits, digits: 1...6),
                let unit = Self.englishUnits[String(token.dropFirst(digits.count))]
            else { return nil }
            return (amount, unit, 1)
        }
        guard index + 1 < tokens.count, let unit = Self.englishUnits[tokens[index + 1]],
            let amount = Self.number(token, digits: 1...6) ?? Self.numberWords[token]
        else { return nil }
        return (amount, unit, 2)
    }

    /// A time of day starting at `index`, and the index after it.
    private func timePhrase(_ tokens: [String], _ index: Int, bareHour: Bool) -> (TimeOfDay, Int)? {
        guard index < tokens.count else { return nil }
        switch tokens[index] {
        case "noon", "midday": return (TimeOfDay(hour: 12, minute: 0), index + 1)
        case "midnight": return (TimeOfDay(hour: 0, minute: 0), index + 1)
        default: return Self.clock(tokens[index], bareHour: bareHour).map { ($0, index + 1) }
        }
    }

    /// `9am`, `9:30pm`, `12am`, `21:00`, `21:00:30`, and a bare `9` when `bareHour`.
    private static func clock(_ token: String, bareHour: Bool) -> TimeOfDay? {
        var body = Substring(token)
        var meridiem: Substring?
        if body.hasSuffix("am") || body.hasSuffix("pm") {
            meridiem = body.suffix(2)
            body = body.dropLast(2)
        }
        let parts = body.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count), var hour = number(parts[0], digits: 1...2) else { return nil }
        var minute = 0
        var second = 0
        if parts.count >= 2 {
            guard let m = number(parts[1], digits: 2...2), m < 60 else { return nil }
            minute = m
        }
        if parts.count == 3 {
            guard let s = number(parts[2], digits: 2...2), s < 60 else { return nil }
            second = s
        }
        if let meridiem {
            guard (1...12).contains(hour) else { return nil }
            hour = hour % 12 + (meridiem == "pm" ? 12 : 0)
        } else {
            guard hour < 24, parts.count >= 2 || bareHour else { return nil }
        }
        return TimeOfDay(hour: hour, minute: minute, second: second)
    }

    // MARK: - Chinese

    private static let chineseWeekdays: [Character: Int] = [
        "一": 1, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "日": 7, "天": 7,
    ]

    private enum Period: String, CaseIterable {
        case smallHours = "凌晨", earlyMorning = "早晨", morning = "早上", forenoon = "上午", noon = "中午"
        case afternoon = "下午", dusk = "傍晚", evening = "晚上", night = "夜里"

        /// The 24-hour hour for `hour` said in this part of the day; may be 24 or more for after midnight.
        func hour(_ hour: Int) -> Int? {
            switch self {
            case .smallHours:
                return hour <= 6 ? hour : (hour == 12 ? 0 : nil)
            case .earlyMorning, .morning, .forenoon:
                return hour <= 12 ? hour : nil
            case .noon:
                return (1...3).contains(hour) ? hour + 12 : ((11...13).contains(hour) ? hour : nil)
            case .afternoon, .dusk:
                return hour < 12 ? hour + 12 : (hour <= 23 ? hour : nil)
            case .evening, .night:
                if (1...5).contains(hour) { return hour + 24 }
                if (6...11).contains(hour) { return hour + 12 }
                if hour == 12 || hour == 0 { return 24 }
                return hour <= 23 ? hour : nil
            }
        }
    }

    private func parseChinese(_ text: String) -> ParsedDate? {
        var rest = Substring(text.filter { !$0.isWhitespace })
        if let relative = chineseRelative(rest) { return relative }

        var anchor: Anchor?
        var period: Period?
        let days: [(String, Int, Period?)] = [
            ("大后天", 3, nil), ("后天", 2, nil), ("明天", 1, nil), ("明日", 1, nil), ("今天", 0, nil),
            ("今日", 0, nil), ("昨天", -1, nil), ("昨日", -1, nil), ("前天", -2, nil),
            ("今晚", 0, .evening), ("明晚", 1, .evening), ("今早", 0, .morning), ("明早", 1, .morning),
        ]
        if let (word, offset, impliedPeriod) = days.first(where: { rest.hasPrefix($0.0) }) {
            anchor = day(offset: offset)
            period = impliedPeriod
            rest = rest.dropFirst(word.count)
        } else if let (dateAnchor, length) = chineseCalendarDay(rest) {
            guard let dateAnchor else { return nil }
            anchor = dateAnchor
            rest = rest.dropFirst(length)
        } else if let (weekAnchor, length) = chineseWeekday(rest) {
            anchor = weekAnchor
            rest = rest.dropFirst(length)
        }
        if period == nil, let match = Period.allCases.first(where: { rest.hasPrefix($0.rawValue) }) {
            period = match
            rest = rest.dropFirst(match.rawValue.count)
        }
        var clock: TimeOfDay?
        if !rest.isEmpty {
            guard let (time, length) = Self.chineseClock(rest), length == rest.count else { return nil }
            clock = time
        }
        if let period {
            if var time = clock {
                guard let hour = period.hour(time.hour) else { return nil }
                time.hour = hour
                clock = time
            } else if period == .noon {
                clock = TimeOfDay(hour: 12, minute: 0)
            } else {
                return nil
            }
        }
        return result(anchor, clock)
    }

    /// `12月15日`, `12月15号`, `2027年12月15日`, `十二月十五日`, `15号`, `15日`, `下个月15号`, `本月20日`:
    /// the day (`nil` when no such day exists) and the characters taken; `nil` when the text does
    /// not start with one.
    private func chineseCalendarDay(_ text: Substring) -> (Anchor?, Int)? {
        var rest = text
        var year: Int?
        var monthsAhead: Int?
        let digits = rest.prefix { $0.isASCIIDigit }
        if digits.count == 4, rest.dropFirst(4).first == "年" {
            year = Int(digits)
            rest = rest.dropFirst(5)
        } else if let (word, ahead) = [("下个月", 1), ("下月", 1), ("这个月", 0), ("本月", 0), ("这月", 0)].first(where: { rest.hasPrefix($0.0) }) {
            monthsAhead = ahead
            rest = rest.dropFirst(word.count)
        }
        var month: Int?
        if monthsAhead == nil, let (value, length) = Self.chineseNumber(rest, maxValue: 12), rest.dropFirst(length).first == "月" {
            month = value
            rest = rest.dropFirst(length + 1)
        }
        guard let (dayValue, length) = Self.chineseNumber(rest, maxValue: 31), let mark = rest.dropFirst(length).first,
            ["日", "号", "號"].contains(mark)
        else { return nil }
        rest = rest.dropFirst(length + 1)
        let taken = text.count - rest.count
        guard month != nil || year == nil else { return nil }
        if let month { return (calendarDay(month: month, day: dayValue, year: year), taken) }
        return (dayOfMonth(dayValue, monthsAhead: monthsAhead), taken)
    }

    /// `下周一`, `下星期五`, `这周三`, `本周日`, `周一`, `星期天`, `礼拜六`: the day and the characters taken.
    private func chineseWeekday(_ text: Substring) -> (Anchor, Int)? {
        let forms: [(prefixes: [String], resolve: (Int) -> Anchor?)] = [
            (["下个星期", "下个礼拜", "下星期", "下礼拜", "下周"], nextWeek),
            (["这个星期", "这个礼拜", "这星期", "这礼拜", "这周", "本星期", "本周"], thisWeek),
            (["星期", "礼拜", "周"], nextOccurrence),
        ]
        for form in forms {
            for prefix in form.prefixes where text.hasPrefix(prefix) {
                let after = text.dropFirst(prefix.count)
                guard let name = after.first, let weekday = Self.chineseWeekdays[name],
                    let anchor = form.resolve(weekday)
                else { return nil }
                return (anchor, prefix.count + 1)
            }
        }
        return nil
    }

    /// `3天后`, `2个小时后`, `半小时后`, `30分钟以后`, `2天前`, `1周后`, `3个月后`.
    private func chineseRelative(_ text: Substring) -> ParsedDate? {
        var rest = text
        let amount: Int
        let unit: Unit
        if rest.hasPrefix("半") {
            rest = rest.dropFirst()
            if rest.hasPrefix("个") { rest = rest.dropFirst() }
            guard let word = ["小时", "钟头"].first(where: { rest.hasPrefix($0) }) else { return nil }
            rest = rest.dropFirst(word.count)
            (amount, unit) = (30, .seconds(60))
        } else {
            guard let (value, length) = Self.chineseNumber(rest, maxValue: 999) else { return nil }
            rest = rest.dropFirst(length)
            if rest.hasPrefix("个") { rest = rest.dropFirst() }
            let units: [(String, Unit)] = [
                ("分钟", .seconds(60)), ("小时", .seconds(3600)), ("钟头", .seconds(3600)), ("天", .days(1)),
                ("星期", .days(7)), ("礼拜", .days(7)), ("周", .days(7)), ("月", .months(1)), ("年", .months(12)),
            ]
            guard let (word, found) = units.first(where: { rest.hasPrefix($0.0) }) else { return nil }
            rest = rest.dropFirst(word.count)
            (amount, unit) = (value, found)
        }
        let direction: Int
        switch rest {
        case "后", "以后", "之后": direction = 1
        case "前", "以前", "之前": direction = -1
        default: return nil
        }
        return result(offset(direction * amount, unit), nil)
    }

    /// `9点`, `9点半`, `3点15分`, `3点15`, `十点一刻`, `9点整`, `21:30`: the time and the characters taken.
    private static func chineseClock(_ text: Substring) -> (TimeOfDay, Int)? {
        guard let (hour, hourLength) = chineseNumber(text, maxValue: 24) else { return nil }
        var rest = text.dropFirst(hourLength)
        if rest.first == ":" || rest.first == "：" {
            let parts = rest.dropFirst().split(separator: ":", omittingEmptySubsequences: false)
            guard (1...2).contains(parts.count), let minute = number(parts[0], digits: 2...2), minute < 60
            else { return nil }
            var second = 0
            if parts.count == 2 {
                guard let s = number(parts[1], digits: 2...2), s < 60 else { return nil }
                second = s
            }
            return (TimeOfDay(hour: hour, minute: minute, second: second), text.count)
        }
        guard rest.first == "点" || rest.first == "时" else { return nil }
        rest = rest.dropFirst()
        if rest.first == "钟" { rest = rest.dropFirst() }
        var minute = 0
        for (word, value) in [("半", 30), ("一刻", 15), ("三刻", 45), ("整", 0)] where rest.hasPrefix(word) {
            rest = rest.dropFirst(word.count)
            return (TimeOfDay(hour: hour, minute: value), text.count - rest.count)
        }
        if let (value, length) = chineseNumber(rest, maxValue: 59) {
            minute = value
            rest = rest.dropFirst(length)
            if rest.first == "分" { rest = rest.dropFirst() }
        }
        return (TimeOfDay(hour: hour, minute: minute), text.count - rest.count)
    }

    /// A number written in ASCII digits (at most three) or Chinese numerals (`九`, `十二`, `二十三`, `两`, `零五`).
    private static func chineseNumber(_ text: Substring, maxValue: Int) -> (Int, Int)? {
        let ascii = text.prefix { $0.isASCIIDigit }
        if !ascii.isEmpty {
            guard ascii.count <= 3, let value = Int(ascii), value <= maxValue else { return nil }
            return (value, ascii.count)
        }
        let numerals: [Character: Int] = [
            "零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9,
        ]
        let run = text.prefix { numerals[$0] != nil || $0 == "十" }
        guard !run.isEmpty, run.count <= 3 else { return nil }
        let value: Int
        if let ten = run.firstIndex(of: "十") {
            let left = run[..<ten]
            let right = run[run.index(after: ten)...]
            guard left.count <= 1, right.count <= 1, !right.contains("十"), left.first != "零", right.first != "零"
            else { return nil }
            let tens = left.first.flatMap { numerals[$0] } ?? 1
            value = tens * 10 + (right.first.flatMap { numerals[$0] } ?? 0)
        } else if run.count == 2, run.first == "零" || run.first == "〇", let digit = numerals[run.last!] {
            value = digit
        } else {
            guard run.count == 1, let digit = numerals[run.first!] else { return nil }
            value = digit
        }
        guard value <= maxValue else { return nil }
        return (value, run.count)
    }
}
