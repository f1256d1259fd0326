import Foundation
import SkillbookCore
import SkillbookSchedule
import Testing

func fires(_ text: String, _ zoneName: String, from start: String, count: Int = 4) throws -> [String] {
    let zone = try #require(TimeZone(identifier: zoneName))
    let expression = try CronParser.parse(text).get()
    let from = try #require(ISOTime.parse(start, in: zone))
    return CronSchedule(expression, zone: zone).fires(after: from, count: count).map { ISOTime.format($0, in: zone) }
}

@Suite struct CronScheduleTests {
    @Test func aFixedTimeInTheSkippedHourFiresOnceAtTheEndOfTheGap() throws {
        #expect(
            try fires("30 2 * * *", "Europe/Berlin", from: "2026-03-28T12:00", count: 3) == [
                "2026-03-29T03:00:00+02:00", "2026-03-30T02:30:00+02:00",
                "2026-03-31T02:30:00+02:00",
            ])
        // Two skipped times and the end of the gap itself collapse into one fire.
        #expect(
            try fires("0,30 2,3 * * *", "Europe/Berlin", from: "2026-03-29T01:00", count: 3) == [
                "2026-03-29T03:00:00+02:00", "2026-03-29T03:30:00+02:00", "2026-03-30T02:00:00+02:00",
            ])
        #expect(
            try fires("15 2 * * *", "Australia/Lord_Howe", from: "2026-10-04T00:00", count: 2) == [
                "2026-10-04T02:30:00+11:00", "2026-10-05T02:15:00+11:00",
            ])
    }

    @Test func aFixedTimeInTheRepeatedHourFiresOnce() throws {
        #expect(
            try fires("30 1 * * *", "America/New_York", from: "2026-10-31T12:00", count: 2) == [
                "2026-11-01T01:30:00-04:00", "2026-11-02T01:30:00-05:00",
            ])
        // From inside the second copy, the first copy is past: the next day.
        #expect(try fires("30 1 * * *", "America/New_York", from: "2026-11-01T01:10:00-05:00", count: 1) == ["2026-11-02T01:30:00-05:00"])
    }

    @Test func wildcardsKeepRealTimeCadence() throws {
        #expect(
            try fires("*/30 * * * *", "Europe/Berlin", from: "2026-03-29T01:00", count: 3) == [
                "2026-03-29T01:30:00+01:00", "2026-03-29T03:00:00+02:00", "2026-03-29T03:30:00+02:00",
            ])
        #expect(
            try fires("*/30 * * * *", "Europe/Berlin", from: "2026-10-25T02:00:00+02:00", count: 4) == [
                "2026-10-25T02:30:00+02:00", "2026-10-25T02:00:00+01:00", "2026-10-25T02:30:00+01:00",
                "2026-10-25T03:00:00+01:00",
            ])
        #expect(
            try fires("0 * * * *", "America/New_York", from: "2026-11-01T00:30", count: 3) == [
                "2026-11-01T01:00:00-04:00", "2026-11-01T01:00:00-05:00", "2026-11-01T02:00:00-05:00",
            ])
    }

    @Test func theSkippedDayOfApia() throws {
        #expect(
            try fires("0 9 * * *", "Pacific/Apia", from: "2011-12-29T12:00", count: 2) == [
                "2011-12-31T00:00:00+14:00", "2011-12-31T09:00:00+14:00",
            ])
        #expect(try fires("0 9 * * *", "Pacific/Apia", from: "2011-12-29T12:00", count: 1).count == 1)
        #expect(try fires("0 */12 * * *", "Pacific/Apia", from: "2011-12-29T13:00", count: 2) == [
            "2011-12-31T00:00:00+14:00", "2011-12-31T12:00:00+14:00",
        ])
    }

    @Test func dayRulesAndRareDays() throws {
        // Friday the 13th OR any 13th OR any Friday.
        #expect(
            try fires("0 0 13 * 5", "UTC", from: "2026-02-01T00:00", count: 4) == [
                "2026-02-06T00:00:00Z", "2026-02-13T00:00:00Z", "2026-02-20T00:00:00Z", "2026-02-27T00:00:00Z",
            ])
        #expect(try fires("0 12 29 2 *", "UTC", from: "2026-01-01T00:00", count: 2) == ["2028-02-29T12:00:00Z", "2032-02-29T12:00:00Z"])
        #expect(try fires("0 0 31 * *", "UTC", from: "2026-01-31T00:00", count: 2) == ["2026-03-31T00:00:00Z", "2026-05-31T00:00:00Z"])
        // Feb 31 with weekdays restricted too: Mondays of February.
        #expect(try fires("0 0 31 2 1", "UTC", from: "2026-01-01T00:00", count: 1) == ["2026-02-02T00:00:00Z"])
    }

    @Test func aYearlyScheduleIsCheapToCompute() throws {
        let zone = try #require(TimeZone(identifier: "Europe/Berlin"))
        let schedule = CronSchedule(try CronParser.parse("0 0 29 2 1").get(), zone: zone)
        let started = ContinuousClock.now
        var cursor = Date(timeIntervalSince1970: 1_700_000_000)
        for _ in 0..<2000 { cursor = try #require(schedule.nextFire(after: cursor)) }
        #expect(ContinuousClock.now - started < .seconds(2))
    }
}

/// Issue 28 (found by the next-fires fuzzer, 2026-12-04): a schedule whose every match falls in a
/// DST gap, where a schedule without a fixed time never fires, has no next fire — the search
/// ended only where a match's own 50 years held none, so it went on for ever.
@Suite struct CronScheduleGapForEverTests {
    @Test func aScheduleThatOnlyEverMatchesInsideAGapHasNoNextFire() throws {
        let expression = try CronParser.parse("* 2 8 3 */7").get()
        let newYork = try #require(TimeZone(identifier: "America/New_York"))
        let schedule = CronSchedule(expression, zone: newYork)
        // (March 8 is a Sunday only in years whose second Sunday of March it is: the change day)
        #expect(schedule.nextFire(after: 1_772_755_200) == nil)  // 2026-03-06T00:00Z
        // The same expression in Berlin fires: no change falls on March 8 there.
        let berlin = CronSchedule(expression, zone: try #require(TimeZone(identifier: "Europe/Berlin")))
        #expect(berlin.nextFire(after: 1_772_755_200) == 1_772_931_600)  // 2026-03-08T02:00+01:00
    }
}
