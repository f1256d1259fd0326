import Foundation
import SkillbookCore
import Testing

@Suite struct FunctionTests {
    @Test func length() throws {
        #expect(try value("length('héllo')") == 5)
        #expect(try value("length(inputs.feeds)") == 2)
        #expect(try value("length(steps.notes.output)") == 2)
        #expect(try value("length(steps.missing.output)") == 0)
    }

    @Test func defaultValue() throws {
        #expect(try value("default(steps.missing.output.x, 'fallback')") == "fallback")
        #expect(try value("default(inputs.day, 'fallback')") == "2026-03-01")
        #expect(try value("default(inputs.flag, true)") == false)
    }

    @Test func joinAndSplit() throws {
        #expect(try value("join(inputs.feeds, ', ')") == "a.example, b.example")
        #expect(try value("join([1, 2.5, true, null], '-')") == "1-2.5-true-")
        #expect(try value("split('a,b,,c', ',')") == ["a", "b", "", "c"])
        #expect(try value("split('abc', '')") == ["a", "b", "c"])
        #expect(try value("split('', ',')") == [])
        #expect(try value("split('one', ', ')") == ["one"])
    }

    @Test func caseAndContains() throws {
        #expect(try value("lower('ÄBC')") == "äbc")
        #expect(try value("upper('abc')") == "ABC")
        #expect(try value("contains('hello world', 'o w')") == true)
        #expect(try value("contains('hello', 'z')") == false)
        #expect(try value("contains('a1', 1)") == true)
        #expect(try value("contains(inputs.feeds, 'b.example')") == true)
        #expect(try value("contains([1, 2], 2.0)") == true)
        #expect(try value("contains(steps.notes.output, 'count')") == true)
        #expect(try value("contains(steps.missing.output, 'x')") == false)
    }

    @Test func json() throws {
        #expect(try value("json(steps.notes.output.items[0])") == "{\"id\":\"n1\",\"title\":\"Milk\",\"done\":false}")
        #expect(try value("json('a\"b')") == "\"a\\\"b\"")
        #expect(try value("json(null)") == "null")
    }

    @Test func todayAndNowUseTheContextTimeZone() throws {
        #expect(try value("today()") == "2026-12-01")
        #expect(try value("now()") == "2026-12-01T00:30:00+01:00")
        var utc = Fixture.context
        utc.timeZone = Fixture.utc
        #expect(try value("today()", in: utc) == "2026-11-30")
        #expect(try value("now()", in: utc) == "2026-11-30T23:30:00Z")
        var marquesas = Fixture.context
        marquesas.timeZone = TimeZone(secondsFromGMT: -(9 * 3600 + 30 * 60)) ?? .current
        #expect(try value("now()", in: marquesas) == "2026-11-30T14:00:00-09:30")
    }

    @Test func dateNormalizesISOText() throws {
        #expect(try value("date('2026-02-28')") == "2026-02-28")
        #expect(try value("date('2026-11-30T23:30:00Z')") == "2026-12-01")
        #expect(try value("date('2026-11-30T10:00')") == "2026-11-30")
        #expect(evaluationError("${{ date('someday') }}")?.message == "cannot read 'someday' as a date")
        #expect(evaluationError("${{ date('2026-02-30') }}")?.message == "cannot read '2026-02-30' as a date")
    }

    @Test func addDays() throws {
        #expect(try value("add_days('2026-02-27', 2)") == "2026-03-01")
        #expect(try value("add_days('2028-02-28', 1)") == "2028-02-29")
        #expect(try value("add_days('2026-01-01', -1)") == "2025-12-31")
        #expect(try value("add_days(today(), 30)") == "2026-12-31")
        #expect(try value("add_days('2026-11-30T23:30:00Z', 0)") == "2026-12-01")
        #expect(try value("add_days('2026-01-01', 2.0)") == "2026-01-03")
        #expect(evaluationError("${{ add_days('2026-01-01', 9223372036854775807) }}") != nil)
        #expect(evaluationError("${{ add_days('9999-12-31', 1) }}") != nil)
        #expect(evaluationError("${{ add_days('2026-01-01', 1.5) }}") != nil)
    }

    @Test func arityIsCheckedAtRuntimeToo() {
        let error = evaluationError("${{ join(inputs.feeds) }}")
        #expect(error?.message == "function 'join' takes 2 arguments, got 1")
        #expect(error?.offset == 4)
        #expect(evaluationError("${{ today(1) }}")?.message == "function 'today' takes 0 arguments, got 1")
        #expect(evaluationError("${{ lower() }}")?.message == "function 'lower' takes 1 argument, got 0")
    }
}
