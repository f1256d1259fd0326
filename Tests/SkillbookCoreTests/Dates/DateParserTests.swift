import Foundation
import Testing

@testable import SkillbookCore

private let berlin = TimeZone(identifier: "Europe/Berlin")!
/// Monday 2026-11-30 10:15:00 in Berlin (09:15:00Z).
private let monday = Date(timeIntervalSince1970: 1_796_030_100)
private let parser = DateParser(now: monday, timeZone: berlin)

/// The parse of `text` as Berlin local time text, with `*` appended when it has a time.
private func resolved(_ text: String, by parser: DateParser = parser) -> String? {
    guard let parsed = parser.parse(text) else { return nil }
    let shown = DateParser.formatDateTime(parsed.date, timeZone: berlin)
    return parsed.hasTime ? shown + " *" : shown
}

@Suite struct DateParserTests {
    @Test(arguments: [
        ("2026-11-30", "2026-11-30T00:00:00+01:00"),
        ("2026-02-28", "2026-02-28T00:00:00+01:00"),
        ("2028-02-29", "2028-02-29T00:00:00+01:00"),
        ("2026-07-01", "2026-07-01T00:00:00+02:00"),
        ("2026-11-30T09:00:00Z", "2026-11-30T10:00:00+01:00 *"),
        ("2026-11-30t09:00:00z", "2026-11-30T10:00:00+01:00 *"),
        ("2026-11-30T09:00:00+05:30", "2026-11-30T04:30:00+01:00 *"),
        ("2026-11-30T09:00:00-0500", "2026-11-30T15:00:00+01:00 *"),
        ("2026-11-30T09:00+01", "2026-11-30T09:00:00+01:00 *"),
        ("2026-11-30T09:00", "2026-11-30T09:00:00+01:00 *"),
        ("2026-11-30 09:00:30", "2026-11-30T09:00:30+01:00 *"),
        ("2026-07-01T12:00:00", "2026-07-01T12:00:00+02:00 *"),
        ("  2026-11-30  ", "2026-11-30T00:00:00+01:00"),
    ])
    func iso8601(text: String, expected: String) {
        #expect(resolved(text) == expected)
    }

    @Test func isoFractionAndExactInstant() throws {
        let parsed = try #require(parser.parse("2026-11-30T09:15:00.250Z"))
        #expect(parsed.date.timeIntervalSince1970 == 1_796_030_100.25)
        #expect(parsed.hasTime)
        let local = try #require(parser.parse("2026-11-30 10:15"))
        #expect(local.date == monday)
    }

    @Test(arguments: [
        ("today", "2026-11-30T00:00:00+01:00"),
        ("Today", "2026-11-30T00:00:00+01:00"),
        ("tomorrow", "2026-12-01T00:00:00+01:00"),
        ("  TOMORROW\n", "2026-12-01T00:00:00+01:00"),
        ("yesterday", "2026-11-29T00:00:00+01:00"),
        ("day after tomorrow", "2026-12-02T00:00:00+01:00"),
        ("the day after tomorrow", "2026-12-02T00:00:00+01:00"),
        ("day before yesterday", "2026-11-28T00:00:00+01:00"),
        // Weekday names: the next one strictly after today (today is a Monday).
        ("monday", "2026-12-07T00:00:00+01:00"),
        ("next monday", "2026-12-07T00:00:00+01:00"),
        ("on Monday", "2026-12-07T00:00:00+01:00"),
        ("tuesday", "2026-12-01T00:00:00+01:00"),
        ("next tuesday", "2026-12-01T00:00:00+01:00"),
        ("friday", "2026-12-04T00:00:00+01:00"),
        ("next friday", "2026-12-04T00:00:00+01:00"),
        ("Fri", "2026-12-04T00:00:00+01:00"),
        ("sunday", "2026-12-06T00:00:00+01:00"),
        // Offsets: days and longer name a day, hours and shorter an instant.
        ("in 3 days", "2026-12-03T00:00:00+01:00"),
        ("in 1 day", "2026-12-01T00:00:00+01:00"),
        ("in a week", "2026-12-07T00:00:00+01:00"),
        ("in 2 weeks", "2026-12-14T00:00:00+01:00"),
        ("in 1 month", "2026-12-30T00:00:00+01:00"),
        ("2 days ago", "2026-11-28T00:00:00+01:00"),
        ("in 2 hours", "2026-11-30T12:15:00+01:00 *"),
        ("in 2h", "2026-11-30T12:15:00+01:00 *"),
        ("in an hour", "2026-11-30T11:15:00+01:00 *"),
        ("in 30 minutes", "2026-11-30T10:45:00+01:00 *"),
        ("in 90 mins", "2026-11-30T11:45:00+01:00 *"),
        ("in 45 seconds", "2026-11-30T10:15:45+01:00 *"),
        ("3 hours ago", "2026-11-30T07:15:00+01:00 *"),
        ("an hour ago", "2026-11-30T09:15:00+01:00 *"),
        ("now", "2026-11-30T10:15:00+01:00 *"),
    ])
    func relativeDays(text: String, expected: String) {
        #expect(resolved(text) == expected)
    }

    @Test(arguments: [
        // A time alone is that time today, even when it has passed.
        ("9am", "2026-11-30T09:00:00+01:00 *"),
        ("9 AM", "2026-11-30T09:00:00+01:00 *"),
        ("9 a.m.", "2026-11-30T09:00:00+01:00 *"),
        ("9:30pm", "2026-11-30T21:30:00+01:00 *"),
        ("9:30 PM", "2026-11-30T21:30:00+01:00 *"),
        ("12am", "2026-11-30T00:00:00+01:00 *"),
        ("12pm", "2026-11-30T12:00:00+01:00 *"),
        ("12:45am", "2026-11-30T00:45:00+01:00 *"),
        ("21:00", "2026-11-30T21:00:00+01:00 *"),
        ("7:05", "2026-11-30T07:05:00+01:00 *"),
        ("21:00:30", "2026-11-30T21:00:30+01:00 *"),
        ("noon", "2026-11-30T12:00:00+01:00 *"),
        ("midnight", "2026-11-30T00:00:00+01:00 *"),
        ("at 9", "2026-11-30T09:00:00+01:00 *"),
        ("at 18:30", "2026-11-30T18:30:00+01:00 *"),
    ])
    func timesOfDay(text: String, expected: String) {
        #expect(resolved(text) == expected)
    }

    @Test(arguments: [
        ("tomorrow 9am", "2026-12-01T09:00:00+01:00 *"),
        ("Tomorrow 9 AM", "2026-12-01T09:00:00+01:00 *"),
        ("tomorrow at 9:30", "2026-12-01T09:30:00+01:00 *"),
        ("tomorrow at 9", "2026-12-01T09:00:00+01:00 *"),
        ("tomorrow, 9 a.m.", "2026-12-01T09:00:00+01:00 *"),
        ("tomorrow noon", "2026-12-01T12:00:00+01:00 *"),
        ("next friday 18:00", "2026-12-04T18:00:00+01:00 *"),
        ("next friday at 6pm", "2026-12-04T18:00:00+01:00 *"),
        ("monday at 5pm", "2026-12-07T17:00:00+01:00 *"),
        ("on monday at 5pm", "2026-12-07T17:00:00+01:00 *"),
        ("day after tomorrow 8:15am", "2026-12-02T08:15:00+01:00 *"),
        ("in 3 days at 10am", "2026-12-03T10:00:00+01:00 *"),
        ("9am tomorrow", "2026-12-01T09:00:00+01:00 *"),
        ("at 9am on friday", "2026-12-04T09:00:00+01:00 *"),
        ("2026-12-24 6pm", "2026-12-24T18:00:00+01:00 *"),
        ("2026-12-24 at 18:00", "2026-12-24T18:00:00+01:00 *"),
    ])
    func combinations(text: String, expected: String) {
        #expect(resolved(text) == expected)
    }

    @Test(arguments: [
        ("今天", "2026-11-30T00:00:00+01:00"),
        ("明天", "2026-12-01T00:00:00+01:00"),
        ("后天", "2026-12-02T00:00:00+01:00"),
        ("大后天", "2026-12-03T00:00:00+01:00"),
        ("昨天", "2026-11-29T00:00:00+01:00"),
        ("前天", "2026-11-28T00:00:00+01:00"),
        // 下周X: that day of next week (weeks start on Monday).
        ("下周一", "2026-12-07T00:00:00+01:00"),
        ("下周三", "2026-12-09T00:00:00+01:00"),
        ("下周日", "2026-12-13T00:00:00+01:00"),
        ("下周天", "2026-12-13T00:00:00+01:00"),
        ("下星期一", "2026-12-07T00:00:00+01:00"),
        ("下礼拜五", "2026-12-11T00:00:00+01:00"),
        // 周X / 星期X: the next such day strictly after today.
        ("周一", "2026-12-07T00:00:00+01:00"),
        ("周二", "2026-12-01T00:00:00+01:00"),
        ("周日", "2026-12-06T00:00:00+01:00"),
        ("星期一", "2026-12-07T00:00:00+01:00"),
        ("星期五", "2026-12-04T00:00:00+01:00"),
        ("星期日", "2026-12-06T00:00:00+01:00"),
        ("星期天", "2026-12-06T00:00:00+01:00"),
        ("这周日", "2026-12-06T00:00:00+01:00"),
        ("本周一", "2026-11-30T00:00:00+01:00"),
        // Times.
        ("明天早上9点", "2026-12-01T09:00:00+01:00 *"),
        ("后天下午3点半", "2026-12-02T15:30:00+01:00 *"),
        ("明天 早上 9点", "2026-12-01T09:00:00+01:00 *"),
        ("明天上午10点15分", "2026-12-01T10:15:00+01:00 *"),
        ("明天上午10点15", "2026-12-01T10:15:00+01:00 *"),
        ("明天中午", "2026-12-01T12:00:00+01:00 *"),
        ("中午12点", "2026-11-30T12:00:00+01:00 *"),
        ("中午1点", "2026-11-30T13:00:00+01:00 *"),
        ("下午3点", "2026-11-30T15:00:00+01:00 *"),
        ("下午3:30", "2026-11-30T15:30:00+01:00 *"),
        ("晚上8点", "2026-11-30T20:00:00+01:00 *"),
        ("晚上十点", "2026-11-30T22:00:00+01:00 *"),
        ("晚上12点", "2026-12-01T00:00:00+01:00 *"),
        ("晚上1点", "2026-12-01T01:00:00+01:00 *"),
        ("今晚8点", "2026-11-30T20:00:00+01:00 *"),
        ("明晚七点半", "2026-12-01T19:30:00+01:00 *"),
        ("凌晨2点", "2026-11-30T02:00:00+01:00 *"),
        ("9点", "2026-11-30T09:00:00+01:00 *"),
        ("九点一刻", "2026-11-30T09:15:00+01:00 *"),
        ("十一点三刻", "2026-11-30T11:45:00+01:00 *"),
        ("明天15点", "2026-12-01T15:00:00+01:00 *"),
        ("明天二十点三十分", "2026-12-01T20:30:00+01:00 *"),
        ("明天两点零五分", "2026-12-01T02:05:00+01:00 *"),
        ("下周五下午两点", "2026-12-11T14:00:00+01:00 *"),
        ("周三晚上7点", "2026-12-02T19:00:00+01:00 *"),
        ("星期四上午9点整", "2026-12-03T09:00:00+01:00 *"),
        // Offsets.
        ("3天后", "2026-12-03T00:00:00+01:00"),
        ("三天以后", "2026-12-03T00:00:00+01:00"),
        ("2天前", "2026-11-28T00:00:00+01:00"),
        ("1周后", "2026-12-07T00:00:00+01:00"),
        ("2小时后", "2026-11-30T12:15:00+01:00 *"),
        ("两个小时后", "2026-11-30T12:15:00+01:00 *"),
        ("半小时后", "2026-11-30T10:45:00+01:00 *"),
        ("30分钟后", "2026-11-30T10:45:00+01:00 *"),
    ])
    func chinese(text: String, expected: String) {
        #expect(resolved(text) == expected)
    }

    @Test func weekdaysSeenFromMidweek() {
        // Wednesday 2026-12-02 10:15 in Berlin.
        let wednesday = DateParser(now: Date(timeIntervalSince1970: 1_796_202_900), timeZone: berlin)
        #expect(resolved("friday", by: wednesday) == "2026-12-04T00:00:00+01:00")
        #expect(resolved("next friday", by: wednesday) == "2026-12-04T00:00:00+01:00")
        #expect(resolved("wednesday", by: wednesday) == "2026-12-09T00:00:00+01:00")
        #expect(resolved("monday", by: wednesday) == "2026-12-07T00:00:00+01:00")
        #expect(resolved("周五", by: wednesday) == "2026-12-04T00:00:00+01:00")
        #expect(resolved("下周五", by: wednesday) == "2026-12-11T00:00:00+01:00")
        #expect(resolved("下周一", by: wednesday) == "2026-12-07T00:00:00+01:00")
        #expect(resolved("这周一", by: wednesday) == "2026-11-30T00:00:00+01:00")
    }

    @Test func weekdaysSeenFromSunday() {
        // Sunday 2026-12-06 10:15 in Berlin: next week starts tomorrow.
        let sunday = DateParser(now: Date(timeIntervalSince1970: 1_796_548_500), timeZone: berlin)
        #expect(resolved("下周一", by: sunday) == "2026-12-07T00:00:00+01:00")
        #expect(resolved("下周日", by: sunday) == "2026-12-13T00:00:00+01:00")
        #expect(resolved("sunday", by: sunday) == "2026-12-13T00:00:00+01:00")
        #expect(resolved("周日", by: sunday) == "2026-12-13T00:00:00+01:00")
        #expect(resolved("monday", by: sunday) == "2026-12-07T00:00:00+01:00")
    }

    @Test func springForward() throws {
        // Saturday 2026-03-28 10:00 in Berlin; clocks go from 02:00 to 03:00 on Sunday.
        let saturday = DateParser(now: Date(timeIntervalSince1970: 1_774_688_400), timeZone: berlin)
        #expect(resolved("tomorrow", by: saturday) == "2026-03-29T00:00:00+01:00")
        #expect(resolved("tomorrow 9am", by: saturday) == "2026-03-29T09:00:00+02:00 *")
        #expect(resolved("day after tomorrow", by: saturday) == "2026-03-30T00:00:00+02:00")
        #expect(resolved("in 1 day", by: saturday) == "2026-03-29T00:00:00+01:00")
        // 24 hours is exact time, so it reads one hour later on the wall clock.
        #expect(resolved("in 24 hours", by: saturday) == "2026-03-29T11:00:00+02:00 *")
        #expect(resolved("明天早上9点", by: saturday) == "2026-03-29T09:00:00+02:00 *")
        let morning = try #require(saturday.parse("2026-03-29 09:00"))
        #expect(morning.date.timeIntervalSince1970 == 1_774_767_600)  // 07:00Z
        // 02:30 does not exist that night: moved forward by the one-hour gap.
        #expect(resolved("2026-03-29 02:30", by: saturday) == "2026-03-29T03:30:00+02:00 *")
    }

    @Test func fallBack() throws {
        // Saturday 2026-10-24 12:00 in Berlin; clocks go from 03:00 back to 02:00 on Sunday.
        let saturday = DateParser(now: Date(timeIntervalSince1970: 1_792_836_000), timeZone: berlin)
        #expect(resolved("tomorrow", by: saturday) == "2026-10-25T00:00:00+02:00")
        #expect(resolved("tomorrow 9am", by: saturday) == "2026-10-25T09:00:00+01:00 *")
        #expect(resolved("day after tomorrow", by: saturday) == "2026-10-26T00:00:00+01:00")
        #expect(resolved("in 24 hours", by: saturday) == "2026-10-25T11:00:00+01:00 *")
        #expect(resolved("2026-10-25T02:30:00+01:00", by: saturday) == "2026-10-25T02:30:00+01:00 *")
        #expect(resolved("2026-10-25T02:30:00+02:00", by: saturday) == "2026-10-25T02:30:00+02:00 *")
    }

    /// Calendar days, seen from Monday 2026-11-30: without a year the next such day, today included.
    @Test(arguments: [
        ("december 15", "2026-12-15T00:00:00+01:00"),
        ("on dec 15th at 9am", "2026-12-15T09:00:00+01:00 *"),
        ("Dec 15, 2027", "2027-12-15T00:00:00+01:00"),
        ("15 december", "2026-12-15T00:00:00+01:00"),
        ("15th of december at 18:30", "2026-12-15T18:30:00+01:00 *"),
        ("the 15th of december 2027", "2027-12-15T00:00:00+01:00"),
        ("november 30", "2026-11-30T00:00:00+01:00"),
        ("november 29", "2027-11-29T00:00:00+01:00"),
        ("jan 2", "2027-01-02T00:00:00+01:00"),
        ("may 1st", "2027-05-01T00:00:00+02:00"),
        ("feb 29", "2028-02-29T00:00:00+01:00"),
        ("the 15th", "2026-12-15T00:00:00+01:00"),
        ("on the 30th at 9am", "2026-11-30T09:00:00+01:00 *"),
        ("the 1st", "2026-12-01T00:00:00+01:00"),
        ("the 31st", "2026-12-31T00:00:00+01:00"),
        ("at 9am on the 2nd", "2026-12-02T09:00:00+01:00 *"),
        ("12月15日", "2026-12-15T00:00:00+01:00"),
        ("12月15号上午9点", "2026-12-15T09:00:00+01:00 *"),
        ("十二月十五日下午三点", "2026-12-15T15:00:00+01:00 *"),
        ("2027年1月5日", "2027-01-05T00:00:00+01:00"),
        ("11月1日", "2027-11-01T00:00:00+01:00"),
        ("15号", "2026-12-15T00:00:00+01:00"),
        ("30号晚上8点", "2026-11-30T20:00:00+01:00 *"),
        ("下个月15号", "2026-12-15T00:00:00+01:00"),
        ("本月1号", "2026-11-01T00:00:00+01:00"),
    ])
    func calendarDays(text: String, expected: String) {
        #expect(resolved(text) == expected)
    }

    @Test(arguments: [
        "december", "december 32", "dec 0", "the 15", "the 32nd", "the 15rd", "the 1th", "the 11st", "feb 30 2026", "15 of",
        "2月30日", "13月1日", "32号", "2027年15日", "本月31号", "下个月", "12月", "may", "march 1 2026 2027",
    ])
    func impossibleCalendarDaysAreNil(text: String) {
        #expect(parser.parse(text) == nil)
    }

    @Test(arguments: [
        "", "   ", "\n", "99:99", "25:00", "12:60", "9:5", "13pm", "0am", "9", "monday 9", "2026-13-45",
        "2026-02-30", "2026-02-29", "2026-00-10", "2026-1-5", "26-11-30", "2026-11-30T25:00", "2026-11-30T09:00+99:00",
        "2026-11-30T", "2026-11-30Tfoo", "2026-11-30T09:00:00.Z", "2026-11-30X09:00", "tomorrow tomorrow",
        "tomorrow at", "at", "next", "next week", "in", "in 2", "in -2 days", "in two fortnights", "2 days",
        "ago", "in 3 hours at 9am", "9am 10am", "abc", "😀", "明天😀", "🕘 tomorrow", "\u{0}", "下周", "下周八",
        "周八", "明天早上", "下午25点", "明天9am", "明天下午", "点", "三十五点", "十十点", "半天后", "3天", "tomorrow 9",
        String(repeating: "tomorrow ", count: 100), String(repeating: "9", count: 40),
    ])
    func garbageIsNil(text: String) {
        #expect(parser.parse(text) == nil)
    }

    @Test func randomTextNeverCrashes() {
        let pieces = [
            "tomorrow", "next", "in", "at", "ago", "9", "am", "pm", ":", "30", "-", "2026", "11", "t", "z", "+",
            "明天", "下周", "点", "半", "十", "分", "后", "周", "星期", "上午", " ", "😀", "day", "after", "hours", ".",
        ]
        var generator = SplitMix64(seed: 42)
        for _ in 0..<3_000 {
            let count = Int(generator.next() % 6)
            let text = (0..<count).map { _ in pieces[Int(generator.next() % UInt64(pieces.count))] }.joined()
            _ = parser.parse(text)
        }
    }

    @Test func formatting() {
        let instant = Date(timeIntervalSince1970: 1_796_030_100.75)
        #expect(DateParser.formatDate(instant, timeZone: berlin) == "2026-11-30")
        #expect(DateParser.formatDateTime(instant, timeZone: berlin) == "2026-11-30T10:15:00+01:00")
        #expect(DateParser.formatDateTime(instant, timeZone: TimeZone(identifier: "UTC")!) == "2026-11-30T09:15:00Z")
        #expect(
            DateParser.formatDateTime(instant, timeZone: TimeZone(identifier: "Asia/Kolkata")!)
                == "2026-11-30T14:45:00+05:30")
        #expect(
            DateParser.formatDateTime(instant, timeZone: TimeZone(identifier: "America/New_York")!)
                == "2026-11-30T04:15:00-05:00")
        #expect(
            DateParser.formatDate(instant.addingTimeInterval(3600), timeZone: TimeZone(identifier: "Pacific/Kiritimati")!)
                == "2026-12-01")
        #expect(DateParser.formatDate(Date(timeIntervalSince1970: 0), timeZone: berlin) == "1970-01-01")
    }

    /// The date-time is worked out by arithmetic, not by a `Calendar`: it must agree with one on
    /// instants from 1583 to 9999 (before and after 1970, around midnight and leap days), in zones
    /// with whole, half-hour and negative offsets.
    @Test func formattedDateTimeAgreesWithTheGregorianCalendar() {
        var generator = SplitMix64(seed: 42)
        let zones = ["UTC", "Europe/Berlin", "Asia/Kolkata", "America/New_York", "Pacific/Kiritimati", "Australia/Lord_Howe"]
            .map { TimeZone(identifier: $0)! }
        let edges: [Double] = [-12_212_553_600, -1, 0, 951_782_400, 951_868_799, 253_402_300_799, 1_796_030_100.75]
        let randoms = (0..<2000).map { _ in Double(generator.next() % 265_614_854_400) - 12_212_553_600 }
        for (index, seconds) in (edges + randoms).enumerated() {
            let date = Date(timeIntervalSince1970: seconds)
            let zone = zones[index % zones.count]
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
            func two(_ n: Int?) -> String { n.map { $0 < 10 ? "0\($0)" : "\($0)" } ?? "?" }
            let year = String(repeating: "0", count: max(0, 4 - String(c.year ?? 0).count)) + String(c.year ?? 0)
            let expected = "\(year)-\(two(c.month))-\(two(c.day))T\(two(c.hour)):\(two(c.minute)):\(two(c.second))"
            #expect(DateParser.formatDateTime(date, timeZone: zone).hasPrefix(expected), "\(seconds) in \(zone.identifier)")
        }
    }

    @Test func utcFormatIsFoundationsISO8601() {
        var generator = SplitMix64(seed: 7)
        let instants = [-12_212_553_600, 0, 951_782_400, 1_796_030_100.75, 253_402_300_799]
            + (0..<500).map { _ in Double(generator.next() % 265_614_854_400) - 12_212_553_600 }
        for seconds in instants {
            let date = Date(timeIntervalSince1970: seconds)
            #expect(DateParser.formatUTC(date) == date.formatted(.iso8601), "\(seconds)")
        }
    }

    @Test func formattedTextParsesBack() throws {
        for text in ["tomorrow 9am", "in 2 hours", "下周五下午两点", "2026-07-01T12:00"] {
            let parsed = try #require(parser.parse(text))
            let again = try #require(parser.parse(DateParser.formatDateTime(parsed.date, timeZone: berlin)))
            #expect(again.date == parsed.date)
        }
    }
}

/// A small seeded generator so random tests repeat.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
