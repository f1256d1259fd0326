import SkillbookCore
import Testing

private func parsed(_ text: String) throws -> CronExpression {
    try CronParser.parse(text).get()
}

private func problems(_ text: String) -> [String] {
    switch CronParser.parse(text) {
    case .success: return []
    case .failure(let errors): return errors.problems.map { "\($0.offset): \($0.message)" }
    }
}

private func bits(_ values: [Int]) -> UInt64 { values.reduce(0) { $0 | 1 << UInt64($1) } }

@Suite struct CronParserTests {
    @Test func fieldsBecomeBitsets() throws {
        let expression = try parsed("30 7 * * 1-5")
        #expect(expression.minutes == bits([30]))
        #expect(expression.hours == UInt32(bits([7])))
        #expect(expression.daysOfMonth == UInt32(bits(Array(1...31))))
        #expect(expression.months == UInt16(bits(Array(1...12))))
        #expect(expression.daysOfWeek == UInt8(bits([1, 2, 3, 4, 5])))
        #expect(!expression.dayOfMonthRestricted && expression.dayOfWeekRestricted)
        #expect(expression.hasFixedTime)
    }

    @Test func listsRangesStepsAndNames() throws {
        let expression = try parsed("0,15-17,*/20 1-10/3 5/10 jan-MAR,Dec sun,5-7")
        #expect(expression.minutes == bits([0, 15, 16, 17, 20, 40]))
        #expect(expression.hours == UInt32(bits([1, 4, 7, 10])))
        // A step from a single value runs to the field's maximum.
        #expect(expression.daysOfMonth == UInt32(bits([5, 15, 25])))
        #expect(expression.months == UInt16(bits([1, 2, 3, 12])))
        // 7 is Sunday, folded into 0.
        #expect(expression.daysOfWeek == UInt8(bits([0, 5, 6])))
    }

    @Test func restrictedMeansNotStartingWithAStar() throws {
        let everyOtherDay = try parsed("0 0 1 * */2")
        #expect(everyOtherDay.dayOfMonthRestricted && !everyOtherDay.dayOfWeekRestricted)
        #expect(everyOtherDay.daysOfWeek == UInt8(bits([0, 2, 4, 6])))
        // Both restricted: OR. One unrestricted: AND.
        let either = try parsed("0 0 13 * 5")
        #expect(either.matchesDay(day: 13, month: 1, weekday: 2))
        #expect(either.matchesDay(day: 2, month: 1, weekday: 5))
        #expect(!either.matchesDay(day: 2, month: 1, weekday: 4))
        #expect(everyOtherDay.matchesDay(day: 1, month: 3, weekday: 0))
        #expect(!everyOtherDay.matchesDay(day: 1, month: 3, weekday: 1))
        #expect(!everyOtherDay.matchesDay(day: 2, month: 3, weekday: 2))
        #expect(try !parsed("*/5 3 * * *").hasFixedTime)
        #expect(try !parsed("5 * * * *").hasFixedTime)
    }

    @Test func macrosExpand() throws {
        #expect(try parsed("@daily").fields == ["0", "0", "*", "*", "*"])
        #expect(try parsed("@midnight").fields == ["0", "0", "*", "*", "*"])
        #expect(try parsed("@weekly").fields == ["0", "0", "*", "*", "0"])
        #expect(try parsed("@monthly").fields == ["0", "0", "1", "*", "*"])
        #expect(try parsed("@yearly").fields == ["0", "0", "1", "1", "*"])
        #expect(try parsed("@annually").fields == ["0", "0", "1", "1", "*"])
        #expect(try parsed("@HOURLY").fields == ["0", "*", "*", "*", "*"])
        #expect(try parsed("@daily").source == "@daily")
    }

    @Test func everyProblemHasItsFieldAndOffset() {
        #expect(problems("* 25 * * *") == ["2: field 2 (hour): 25 is out of range 0-23"])
        #expect(
            problems("60 24 0 13 8") == [
                "0: field 1 (minute): 60 is out of range 0-59", "3: field 2 (hour): 24 is out of range 0-23",
                "6: field 3 (day-of-month): 0 is out of range 1-31", "8: field 4 (month): 13 is out of range 1-12",
                "11: field 5 (day-of-week): 8 is out of range 0-7",
            ])
        #expect(problems("30-10 * * * *") == ["0: field 1 (minute): range 30-10 ends before it starts"])
        #expect(problems("*/0 * * * *") == ["2: field 1 (minute): step 0 must be at least 1"])
        #expect(problems("*/x * * * *") == ["2: field 1 (minute): step 'x' must be a whole number"])
        #expect(problems("1,,2 * * * *") == ["2: field 1 (minute): empty entry in the list '1,,2'"])
        #expect(problems("0 0 * * mnn") == ["8: field 5 (day-of-week): 'mnn' is not a number or a day name; did you mean 'mon'?"])
        #expect(problems("0 0 * junn *") == ["6: field 4 (month): 'junn' is not a number or a month name; did you mean 'jun'?"])
        #expect(problems("0 0 * * 1-9") == ["10: field 5 (day-of-week): 9 is out of range 0-7"])
        #expect(problems("0 0 * *") == ["0: expected 5 fields (minute hour day-of-month month day-of-week), got 4"])
        #expect(
            problems("0 0 0 * * *") == [
                "0: expected 5 fields (minute hour day-of-month month day-of-week), got 6 (a seconds field is not part of cron)"
            ])
        #expect(
            problems("@dayly") == [
                "0: unknown macro '@dayly' (known: @hourly, @daily, @weekly, @monthly, @yearly, @annually, @midnight); did you mean '@daily'?"
            ])
        #expect(problems("0 0 30 2 *") == ["4: never fires: no month in field 4 has a day 30"])
        // With day-of-week restricted too, day 30 OR a weekday can still match in February.
        #expect(problems("0 0 30 2 1").isEmpty)
        #expect(problems("0 0 29 2 *").isEmpty)
    }

    @Test func fixedTimesListEveryHourAndMinute() throws {
        let times = try parsed("0,30 2,3 * * *").fixedTimes.map { "\($0.hour):\($0.minute)" }
        #expect(times == ["2:0", "2:30", "3:0", "3:30"])
        #expect(try parsed("*/30 2 * * *").fixedTimes.isEmpty)
    }
}

@Suite struct CivilTimeTests {
    @Test func wallSecondsRoundTrip() {
        let leap = CivilTime(year: 2028, month: 2, day: 29, hour: 23, minute: 59, second: 58)
        #expect(CivilTime(wallSeconds: leap.wallSeconds) == leap)
        #expect(CivilTime(year: 1970, month: 1, day: 1).wallSeconds == 0)
        #expect(CivilTime(wallSeconds: -1).description == "1969-12-31T23:59:59")
        #expect(CivilTime(year: 2026, month: 12, day: 1).weekday == 2)
        #expect(CivilTime(year: 1969, month: 12, day: 19).weekday == 5)
        #expect(CivilTime.daysInMonth(year: 2100, month: 2) == 28)
        #expect(CivilTime.daysInMonth(year: 2000, month: 2) == 29)
    }
}
