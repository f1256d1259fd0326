import SkillbookTesting
import Foundation
import SkillbookCore
import SkillbookSkills
import SkillbookSQLite
import Testing

@Suite struct RemindersListSkillTests {
    /// Monday 2026-11-30 10:15 UTC.
    static let now = Date(timeIntervalSince1970: 1_796_033_700)

    func context(_ identifier: String) throws -> SkillContext {
        SkillContext(runID: "r", stepID: "s", timeZone: try zone(identifier))
    }

    /// Reminders around the UTC midnight between 2026-11-30 and 2026-12-01, and one without a time.
    @discardableResult
    func seed(_ harness: Harness) async throws -> [String: String] {
        var ids: [String: String] = [:]
        for (title, due) in [
            ("late sunday utc", "2026-11-29T23:30:00Z"), ("monday morning", "2026-11-30T08:00:00Z"),
            ("monday late", "2026-11-30T23:30:00Z"), ("tuesday noon", "2026-12-01T12:00:00Z"),
        ] {
            ids[title] = try await harness.run("reminders.create", ["title": .string(title), "due": .string(due)])["id"]?.stringValue
        }
        ids["undated"] = try await harness.run("reminders.create", ["title": "undated"])["id"]?.stringValue
        return ids
    }

    func titles(_ output: Value) -> [String] {
        output["items"]?.arrayValue?.compactMap { $0["title"]?.stringValue } ?? []
    }

    @Test func descriptorIsAQuery() async throws {
        try await withHarness { (harness) async throws in
            let descriptor = try harness.skill("reminders.list").descriptor
            #expect(descriptor.kind == .query && descriptor.idempotent && !descriptor.reversible)
            #expect(descriptor.parameters.property("due_on")?.format == "date")
            #expect(descriptor.parameters.property("due_before")?.format == "date-time")
            #expect(descriptor.parameters.property("include_done")?.defaultValue == false)
            #expect(descriptor.output.required == ["items", "count", "text"])
        }
    }

    @Test func listsOpenRemindersByDueTimeWithASummary() async throws {
        try await withHarness(clock: FixedClock(Self.now)) { (harness) async throws in
            try await seed(harness)
            let output = try await harness.run("reminders.list", ["order": "oldest"], context: try context("UTC"))
            #expect(titles(output) == ["late sunday utc", "monday morning", "monday late", "tuesday noon", "undated"])
            #expect(output["count"] == 5)
            let first = try #require(output["items"]?.arrayValue?.first)
            #expect(first["due"] == "2026-11-29T23:30:00Z")
            #expect(first["notes"] == "" && first["done"] == false)
            #expect(
                output["text"]
                    == """
                    5 reminders:
                    - 2026-11-29 23:30 late sunday utc
                    - 2026-11-30 08:00 monday morning
                    - 2026-11-30 23:30 monday late
                    - 2026-12-01 12:00 tuesday noon
                    - undated
                    """)
        }
    }

    @Test func dueOnIsADayOfTheRunsTimeZone() async throws {
        try await withHarness(clock: FixedClock(Self.now)) { (harness) async throws in
            try await seed(harness)
            let utc = try await harness.run("reminders.list", ["order": "oldest", "due_on": "2026-11-30"], context: try context("UTC"))
            #expect(titles(utc) == ["monday morning", "monday late"])
            #expect(utc["text"] == "2 reminders due:\n- 08:00 monday morning\n- 23:30 monday late")

            // Berlin is an hour ahead: 23:30 UTC on Monday is already Tuesday there, and Sunday's 23:30 is Monday.
            let berlin = try await harness.run("reminders.list", ["order": "oldest", "due_on": "2026-11-30"], context: try context("Europe/Berlin"))
            #expect(titles(berlin) == ["late sunday utc", "monday morning"])
            #expect(berlin["text"] == "2 reminders due:\n- 00:30 late sunday utc\n- 09:00 monday morning")
            let berlinTuesday = try await harness.run(
                "reminders.list", ["order": "oldest", "due_on": "2026-12-01"], context: try context("Europe/Berlin"))
            #expect(titles(berlinTuesday) == ["monday late", "tuesday noon"])

            // New York is five hours behind: Monday there runs from 05:00 UTC Monday to 05:00 UTC Tuesday.
            let newYork = try await harness.run("reminders.list", ["order": "oldest", "due_on": "2026-11-30"], context: try context("America/New_York"))
            #expect(titles(newYork) == ["monday morning", "monday late"])
            #expect(newYork["text"] == "2 reminders due:\n- 03:00 monday morning\n- 18:30 monday late")
        }
    }

    @Test func dueOnADayLengthenedOrShortenedByDaylightSavingCoversTheWholeDay() async throws {
        try await withHarness(clock: FixedClock(Self.now)) { (harness) async throws in
            // Berlin's 2026-03-29 has 23 hours (clocks jump from 02:00 to 03:00): from 23:00Z to 22:00Z.
            for (title, due) in [
                ("just before", "2026-03-28T22:59:59Z"), ("first second", "2026-03-28T23:00:00Z"),
                ("last second", "2026-03-29T21:59:59Z"), ("next day", "2026-03-29T22:00:00Z"),
            ] {
                _ = try await harness.run("reminders.create", ["title": .string(title), "due": .string(due)])
            }
            let output = try await harness.run("reminders.list", ["order": "oldest", "due_on": "2026-03-29"], context: try context("Europe/Berlin"))
            #expect(titles(output) == ["first second", "last second"])
            #expect(output["text"] == "2 reminders due:\n- 00:00 first second\n- 23:59 last second")
        }
    }

    @Test func relativeDaysAndTimesAreCoercedInTheRunsTimeZone() async throws {
        try await withHarness(clock: FixedClock(Self.now)) { (harness) async throws in
            try await seed(harness)
            let berlin = try zone("Europe/Berlin")
            let tomorrow = try await harness.runCoerced("reminders.list", ["order": "oldest", "due_on": "tomorrow"], now: Self.now, timeZone: berlin)
            #expect(titles(tomorrow) == ["monday late", "tuesday noon"])
            let today = try await harness.runCoerced("reminders.list", ["order": "oldest", "due_on": "today"], now: Self.now, timeZone: berlin)
            #expect(titles(today) == ["late sunday utc", "monday morning"])
            let beforeNine = try await harness.runCoerced(
                "reminders.list", ["order": "oldest", "due_before": "today 9am"], now: Self.now, timeZone: berlin)
            #expect(titles(beforeNine) == ["late sunday utc"])  // 09:00 in Berlin is 08:00Z: not before it
        }
    }

    @Test func dueBeforeIsExclusiveAndCombinesWithDueOn() async throws {
        try await withHarness(clock: FixedClock(Self.now)) { (harness) async throws in
            try await seed(harness)
            let utc = try context("UTC")
            let before = try await harness.run("reminders.list", ["order": "oldest", "due_before": "2026-11-30T23:30:00Z"], context: utc)
            #expect(titles(before) == ["late sunday utc", "monday morning"])
            #expect(before["text"] == "2 reminders due:\n- 2026-11-29 23:30 late sunday utc\n- 2026-11-30 08:00 monday morning")
            let both = try await harness.run(
                "reminders.list", ["order": "oldest", "due_on": "2026-11-30", "due_before": "2026-11-30T12:00:00Z"], context: utc)
            #expect(titles(both) == ["monday morning"])
            let none = try await harness.run("reminders.list", ["order": "oldest", "due_before": "2026-01-01T00:00:00Z"], context: utc)
            #expect(none == ["items": [], "count": 0, "text": "No reminders due."])
        }
    }

    @Test func doneRemindersOnlyWithIncludeDoneAndLimitBoundsTheList() async throws {
        try await withHarness(clock: FixedClock(Self.now)) { (harness) async throws in
            let ids = try await seed(harness)
            _ = try await harness.run("reminders.complete", ["id": .string(try #require(ids["monday morning"]))])
            let utc = try context("UTC")
            let open = try await harness.run("reminders.list", ["order": "oldest", "due_on": "2026-11-30"], context: utc)
            #expect(titles(open) == ["monday late"])
            #expect(open["text"] == "1 reminder due:\n- 23:30 monday late")
            let all = try await harness.run("reminders.list", ["order": "oldest", "due_on": "2026-11-30", "include_done": true], context: utc)
            #expect(titles(all) == ["monday morning", "monday late"])
            #expect(all["items"]?.arrayValue?.first?["done"] == true)
            #expect(all["text"] == "2 reminders due:\n- 08:00 monday morning (done)\n- 23:30 monday late")
            let limited = try await harness.run("reminders.list", ["order": "oldest", "limit": 2], context: utc)
            #expect(titles(limited) == ["late sunday utc", "monday late"])
            #expect(limited["count"] == 2)
            // The default, newest, is the end of that order, last first: limit 2 is the last two.
            let newest = try await harness.run("reminders.list", ["limit": 2], context: utc)
            let every = try await harness.run("reminders.list", ["order": "oldest"], context: utc)
            #expect(titles(newest) == Array(titles(every).suffix(2).reversed()))
            #expect(newest["count"] == 2)
        }
    }

    @Test func emptyListsSaySo() async throws {
        try await withHarness { (harness) async throws in
            #expect(try await harness.run("reminders.list", ["order": "oldest"])["text"] == "No reminders.")
            #expect(try await harness.run("reminders.list", ["order": "oldest", "due_on": "2026-11-30"])["text"] == "No reminders due.")
        }
    }

    @Test func aLineBreakInATitleDoesNotBreakTheSummary() async throws {
        try await withHarness { (harness) async throws in
            _ = try await harness.run("reminders.create", ["title": "two\nlines"])
            #expect(try await harness.run("reminders.list", ["order": "oldest"])["text"] == "1 reminder:\n- two lines")
        }
    }

    @Test func aDayItCannotReadIsAClearError() async throws {
        try await withHarness { (harness) async throws in
            let skill = try harness.skill("reminders.list")
            await #expect(throws: SkillError("due_on 'someday' is not a day; write it like 2026-11-30, today or tomorrow")) {
                _ = try await skill.run(["due_on": "someday"], context: harness.context)
            }
        }
    }
}
