import Foundation
import SkillbookSchedule
import Testing

@Suite struct ISOTimeTests {
    let berlin = TimeZone(identifier: "Europe/Berlin")!

    @Test func formatsWithTheZonesOffset() {
        let instant = Date(timeIntervalSince1970: 1_774_746_000)  // 2026-03-29T01:00:00Z
        #expect(ISOTime.format(instant, in: berlin) == "2026-03-29T03:00:00+02:00")
        #expect(ISOTime.format(instant, in: TimeZone(identifier: "UTC")!) == "2026-03-29T01:00:00Z")
        #expect(ISOTime.format(instant, in: TimeZone(identifier: "America/St_Johns")!) == "2026-03-28T22:30:00-02:30")
    }

    @Test func parsesOffsetsAndWallTimes() {
        #expect(ISOTime.parse("2026-03-29T03:00:00+02:00", in: berlin)?.timeIntervalSince1970 == 1_774_746_000)
        #expect(ISOTime.parse("2026-03-29T01:00:00Z", in: berlin)?.timeIntervalSince1970 == 1_774_746_000)
        #expect(ISOTime.parse("2026-03-29T03:00", in: berlin)?.timeIntervalSince1970 == 1_774_746_000)
        // A wall time in the gap is the end of the gap; a repeated one its first occurrence.
        #expect(ISOTime.parse("2026-03-29T02:30", in: berlin)?.timeIntervalSince1970 == 1_774_746_000)
        #expect(ISOTime.parse("2026-10-25 02:30", in: berlin)?.timeIntervalSince1970 == 1_792_888_200)
        #expect(ISOTime.parse("2026-03-29", in: berlin)?.timeIntervalSince1970 == 1_774_738_800)
        #expect(ISOTime.parse("2026-02-30T00:00", in: berlin) == nil)
        #expect(ISOTime.parse("tomorrow", in: berlin) == nil)
        #expect(ISOTime.parse("2026-03-29T25:00", in: berlin) == nil)
    }

    /// Issue 28.1: a text over 16 characters ending in a sign (nothing, or only `:`, after it) read
    /// the first part of an empty split and crashed.
    @Test func aSignWithNoOffsetAfterItIsNotATime() {
        for text in ["2026-03-29T01:30+", "2026-03-29T01:30-", "2026-03-29T01:30-:", "2026-03-29T01:30+::", "2026-03-29T01:30:00+"] {
            #expect(ISOTime.parse(text, in: berlin) == nil, "\(text)")
        }
        #expect(ISOTime.parse("2026-03-29T01:30+01", in: berlin)?.timeIntervalSince1970 == 1_774_744_200)
    }
}

@Suite struct ScheduleNextTests {
    @Test func printsTheNextFiresWithOffsets() throws {
        let lines = try ScheduleNext.lines(
            expression: "30 2 * * *", timezone: "Europe/Berlin", from: "2026-03-28T12:00", count: 3
        ).get()
        #expect(lines == ["2026-03-29T03:00:00+02:00", "2026-03-30T02:30:00+02:00", "2026-03-31T02:30:00+02:00"])
        let now = Date(timeIntervalSince1970: 1_796_083_200)  // 2026-12-01T00:00:00Z
        #expect(try ScheduleNext.lines(expression: "@hourly", timezone: "UTC", count: 2, now: now).get() == [
            "2026-12-01T01:00:00Z", "2026-12-01T02:00:00Z",
        ])
    }

    @Test func reportsEveryBadArgument() {
        guard case .failure(let failure) = ScheduleNext.lines(
            expression: "61 * * * *", timezone: "Europe/Berln", from: "soon", count: 0)
        else { Issue.record("accepted"); return }
        #expect(
            failure.messages == [
                "--timezone: unknown time zone 'Europe/Berln'; did you mean 'Europe/Berlin'?",
                "--from: 'soon' is not a time such as 2026-03-29T01:30 or 2026-03-29T01:30:00+01:00",
                "--count: must be a whole number between 1 and 1000",
                "cron '61 * * * *': field 1 (minute): 61 is out of range 0-59",
            ])
    }

    @Test func aTrailingSignIsReportedNotACrash() {
        for from in ["2026-03-29T01:30+", "2026-03-29T01:30-:"] {
            guard case .failure(let failure) = ScheduleNext.lines(expression: "* * * * *", timezone: "UTC", from: from)
            else { Issue.record("accepted \(from)"); continue }
            #expect(failure.messages == ["--from: '\(from)' is not a time such as 2026-03-29T01:30 or 2026-03-29T01:30:00+01:00"])
        }
    }
}

@Suite struct IntervalScheduleTests {
    @Test func anchoredToTheFirstFire() {
        let anchor = Date(timeIntervalSince1970: 1000)
        let schedule = IntervalSchedule(anchor: anchor, interval: 900)
        #expect(schedule.nextFire(after: Date(timeIntervalSince1970: 0)) == anchor)
        #expect(schedule.nextFire(after: anchor).timeIntervalSince1970 == 1900)
        #expect(schedule.nextFire(after: Date(timeIntervalSince1970: 1899.5)).timeIntervalSince1970 == 1900)
        #expect(schedule.count(after: anchor, through: Date(timeIntervalSince1970: 1000 + 900 * 4)) == 4)
        #expect(schedule.count(after: Date(timeIntervalSince1970: 0), through: anchor) == 1)
    }
}
