import Foundation
import Testing

@testable import SkillbookCore

/// Monday 2026-11-30 10:15 in Berlin.
private let coercion = Coercion(
    dates: DateParser(now: Date(timeIntervalSince1970: 1_796_030_100), timeZone: TimeZone(identifier: "Europe/Berlin")!))

private func cli(_ text: String, _ schema: Schema) -> Value {
    coercion.coerceCommandLine(text, to: schema)
}

@Suite struct CoercionTests {
    // MARK: Command line

    @Test func commandLineIntegers() {
        #expect(cli("5", .integer()) == .int(5))
        #expect(cli(" 5 ", .integer()) == .int(5))
        #expect(cli("-12", .integer()) == .int(-12))
        #expect(cli("4.0", .integer()) == .int(4))
        #expect(cli("1e3", .integer()) == .int(1000))
        #expect(cli("4.5", .integer()) == .string("4.5"))
        #expect(cli("abc", .integer()) == .string("abc"))
        #expect(cli("", .integer()) == .string(""))
        #expect(cli("99999999999999999999", .integer()) == .string("99999999999999999999"))
    }

    @Test func commandLineNumbers() {
        #expect(cli("4.5", .number()) == .double(4.5))
        #expect(cli("42", .number()) == .int(42))
        #expect(cli("-0.25", .number()) == .double(-0.25))
        #expect(cli(".inf", .number()) == .string(".inf"))
        #expect(cli("nan", .number()) == .string("nan"))
        #expect(cli("4,5", .number()) == .string("4,5"))
    }

    @Test(arguments: [
        ("true", true), ("false", false), ("yes", true), ("no", false), ("1", true), ("0", false),
        ("TRUE", true), ("Yes", true), (" no ", false),
    ])
    func commandLineBooleans(text: String, expected: Bool) {
        #expect(cli(text, .boolean()) == .bool(expected))
    }

    @Test func commandLineBooleanThatIsNot() {
        #expect(cli("maybe", .boolean()) == .string("maybe"))
        #expect(cli("2", .boolean()) == .string("2"))
    }

    @Test func commandLineStringsStayStrings() {
        #expect(cli("42", .string()) == .string("42"))
        #expect(cli("true", .string()) == .string("true"))
        #expect(cli("null", .string()) == .string("null"))
        #expect(cli("[a, b]", .string()) == .string("[a, b]"))
        #expect(cli(" padded ", .string()) == .string(" padded "))
        #expect(cli("", .string()) == .string(""))
    }

    @Test func commandLineArrays() {
        let tags = Schema.array(.string())
        #expect(cli("[a, b]", tags) == ["a", "b"])
        #expect(cli("[]", tags) == .array([]))
        #expect(cli("urgent", tags) == ["urgent"])
        #expect(cli("a,b", tags) == ["a,b"])
        #expect(cli("", tags) == .array([]))
        #expect(cli("[1, 2]", tags) == ["1", "2"])
        #expect(cli("[\"a\", 'b c']", tags) == ["a", "b c"])
        let ids = Schema.array(.integer())
        #expect(cli("[1, \"2\", 3.0]", ids) == [1, 2, 3])
        #expect(cli("7", ids) == [7])
        #expect(cli("x", ids) == ["x"])
        let days = Schema.array(.string(format: "date"))
        #expect(cli("[today, tomorrow, 下周一]", days) == ["2026-11-30", "2026-12-01", "2026-12-07"])
        #expect(cli("tomorrow", days) == ["2026-12-01"])
    }

    @Test func commandLineBadFlowTextStaysAString() {
        let tags = Schema.array(.string())
        #expect(cli("[a, b", tags) == .string("[a, b"))
        #expect(cli("[a]: b", tags) == .string("[a]: b"))
        #expect(cli("[a] [b]", tags) == .string("[a] [b]"))
        let violations = SchemaValidator.validate(cli("[a, b", tags), against: tags, path: [.key("tags")])
        #expect(violations.map(\.description) == ["tags expects array, got string"])
    }

    @Test func commandLineObjects() {
        let options = Schema.object(["x": .integer(), "name": .string()])
        #expect(cli("{x: 1}", options) == ["x": 1])
        #expect(cli("{x: '5', name: 7}", options) == ["x": 5, "name": "7"])
        #expect(cli("{x: 1", options) == .string("{x: 1"))
        #expect(cli("x=1", options) == .string("x=1"))
        #expect(cli("[1]", options) == .string("[1]"))
    }

    @Test func commandLineAnyUsesYAMLScalars() {
        #expect(cli("42", .any) == .int(42))
        #expect(cli("4.5", .any) == .double(4.5))
        #expect(cli("true", .any) == .bool(true))
        #expect(cli("null", .any) == .null)
        #expect(cli("0x1F", .any) == .int(31))
        #expect(cli("hello world", .any) == .string("hello world"))
        #expect(cli("", .any) == .string(""))
        #expect(cli("[a, 1]", .any) == ["a", 1])
        #expect(cli("{k: v}", .any) == ["k": "v"])
        #expect(cli("[a, 1", .any) == .string("[a, 1"))
    }

    @Test func commandLineDates() {
        let day = Schema.string(format: "date")
        #expect(cli("tomorrow", day) == "2026-12-01")
        #expect(cli("next monday", day) == "2026-12-07")
        #expect(cli("明天", day) == "2026-12-01")
        #expect(cli("2026-11-30", day) == "2026-11-30")
        #expect(cli("someday", day) == "someday")
        let at = Schema.string(format: "date-time")
        #expect(cli("tomorrow 9am", at) == "2026-12-01T09:00:00+01:00")
        #expect(cli("后天下午3点半", at) == "2026-12-02T15:30:00+01:00")
    }

    // MARK: Model output and shared rules

    @Test func datesByFormat() {
        let day = Schema.string(format: "date")
        #expect(coercion.coerce("today", to: day) == "2026-11-30")
        #expect(coercion.coerce("in 3 days", to: day) == "2026-12-03")
        #expect(coercion.coerce("下周一", to: day) == "2026-12-07")
        #expect(coercion.coerce("2026-11-30T23:30:00Z", to: day) == "2026-12-01")
        #expect(coercion.coerce("2026-02-30", to: day) == "2026-02-30")

        let at = Schema.string(format: "date-time")
        #expect(coercion.coerce("tomorrow 9am", to: at) == "2026-12-01T09:00:00+01:00")
        #expect(coercion.coerce("in 2 hours", to: at) == "2026-11-30T12:15:00+01:00")
        #expect(coercion.coerce("tomorrow", to: at) == "2026-12-01T00:00:00+01:00")
        #expect(coercion.coerce("2026-11-30 09:00", to: at) == "2026-11-30T09:00:00+01:00")
        #expect(coercion.coerce("2026-11-30", to: at) == "2026-11-30T00:00:00+01:00")
        #expect(coercion.coerce("2026-11-30T09:00:00Z", to: at) == "2026-11-30T09:00:00Z")
        #expect(coercion.coerce("2026-11-30T09:00:00-05:00", to: at) == "2026-11-30T09:00:00-05:00")
        #expect(coercion.coerce("whenever", to: at) == "whenever")

        let time = Schema.string(format: "time")
        // An RFC 3339 time needs its offset: the time zone's, on the day of the request.
        #expect(coercion.coerce("9am", to: time) == "09:00:00+01:00")
        #expect(coercion.coerce("9:30pm", to: time) == "21:30:00+01:00")
        #expect(coercion.coerce("下午3点半", to: time) == "15:30:00+01:00")
        #expect(coercion.coerce("21:30", to: time) == "21:30:00+01:00")
        #expect(coercion.coerce("08:30:06Z", to: time) == "08:30:06Z")
        #expect(coercion.coerce("tomorrow", to: time) == "tomorrow")

        let duration = Schema.string(format: "duration")
        #expect(coercion.coerce("30s", to: duration) == "PT30S")
        #expect(coercion.coerce("5m", to: duration) == "PT5M")
        #expect(coercion.coerce("2h", to: duration) == "PT2H")
        #expect(coercion.coerce("1d", to: duration) == "P1D")
        #expect(coercion.coerce("3605", to: duration) == "PT1H0M5S")
        #expect(coercion.coerce("PT5M", to: duration) == "PT5M")
        #expect(coercion.coerce("0.5s", to: duration) == "0.5s")

        // An IRI becomes its URI (RFC 3987 §3.1); a URI, or a text that stays no URI, as written.
        let uri = Schema.string(format: "uri")
        #expect(coercion.coerce("https://example.com/博客", to: uri) == "https://example.com/%E5%8D%9A%E5%AE%A2")
        #expect(coercion.coerce("https://example.com/a%20b?q=ü", to: uri) == "https://example.com/a%20b?q=%C3%BC")
        #expect(coercion.coerce("https://example.com/x", to: uri) == "https://example.com/x")
        #expect(coercion.coerce("博客", to: uri) == "博客")

        #expect(coercion.coerce("tomorrow", to: .string()) == "tomorrow")
        #expect(coercion.coerce("tomorrow", to: Schema(format: "date")) == "2026-12-01")
    }

    @Test func scalarsFromTheModel() {
        #expect(coercion.coerce(.int(5), to: .string()) == .string("5"))
        #expect(coercion.coerce(.double(4.5), to: .string()) == .string("4.5"))
        #expect(coercion.coerce(.bool(true), to: .string()) == .bool(true))
        #expect(coercion.coerce(.double(4.0), to: .integer()) == .int(4))
        #expect(coercion.coerce(.double(-0.0), to: .integer()) == .int(0))
        #expect(coercion.coerce(.double(4.5), to: .integer()) == .double(4.5))
        #expect(coercion.coerce(.double(.infinity), to: .integer()) == .double(.infinity))
        #expect(coercion.coerce(.string("42"), to: .integer()) == .int(42))
        #expect(coercion.coerce(.string("4.5"), to: .number()) == .double(4.5))
        #expect(coercion.coerce(.int(3), to: .number()) == .int(3))
        #expect(coercion.coerce(.string("true"), to: .boolean()) == .bool(true))
        #expect(coercion.coerce(.string("No"), to: .boolean()) == .bool(false))
        #expect(coercion.coerce(.int(1), to: .boolean()) == .bool(true))
        #expect(coercion.coerce(.int(0), to: .boolean()) == .bool(false))
        #expect(coercion.coerce(.int(2), to: .boolean()) == .int(2))
        #expect(coercion.coerce(.bool(true), to: .integer()) == .bool(true))
        #expect(coercion.coerce(["a"], to: .string()) == ["a"])
        #expect(coercion.coerce(.string("x"), to: .any) == .string("x"))
    }

    @Test func nullIsLeftAlone() {
        for schema in [Schema.string(), .integer(), .number(), .boolean(), .array(.string()), .object([:]), .any] {
            #expect(coercion.coerce(.null, to: schema) == .null)
        }
        #expect(coercion.coerce([nil, "1"], to: .array(.integer())) == [nil, 1])
    }

    @Test func scalarBecomesOneElementArray() {
        #expect(coercion.coerce("urgent", to: .array(.string())) == ["urgent"])
        #expect(coercion.coerce("3", to: .array(.integer())) == [3])
        #expect(coercion.coerce(.int(3), to: .array(.string())) == ["3"])
        #expect(coercion.coerce(["x": 1], to: .array(.object(["x": .integer()]))) == [["x": 1]])
        // A model that sends a list as JSON text.
        #expect(coercion.coerce(#"["a", "b"]"#, to: .array(.string())) == ["a", "b"])
        #expect(coercion.coerce(#"{"x": "2"}"#, to: .object(["x": .integer()])) == ["x": 2])
        #expect(coercion.coerce("[oops", to: .array(.string())) == "[oops")
    }

    @Test func nestedValuesFollowItemsAndProperties() {
        let note = Schema.object(["title": .string(), "due": .string(format: "date"), "done": .boolean()])
        let schema = Schema.object([
            "count": .integer(), "ratio": .number(), "ids": .array(.integer()), "notes": .array(note),
        ])
        let value: Value = [
            "notes": [["title": 5, "due": "tomorrow", "done": "yes"], ["title": "b", "due": "明天"]],
            "count": "3",
            "ids": ["1", 2.0, "x"],
            "ratio": "0.5",
            "extra": "9",
        ]
        let expected: Value = [
            "notes": [["title": "5", "due": "2026-12-01", "done": true], ["title": "b", "due": "2026-12-01"]],
            "count": 3,
            "ids": [1, 2, "x"],
            "ratio": 0.5,
            "extra": "9",
        ]
        let coerced = coercion.coerce(value, to: schema)
        #expect(coerced == expected)
        #expect(coerced.objectValue?.keys == ["notes", "count", "ids", "ratio", "extra"])
    }

    @Test func enumIgnoresLetterCase() {
        let priority = Schema.string(enum: ["low", "high"])
        #expect(coercion.coerce("High", to: priority) == "high")
        #expect(coercion.coerce("high", to: priority) == "high")
        #expect(coercion.coerce("urgent", to: priority) == "urgent")
        let ambiguous = Schema.string(enum: ["a", "A"])
        #expect(coercion.coerce("a", to: ambiguous) == "a")
        #expect(coercion.coerce("A", to: ambiguous) == "A")
    }

    @Test func uncoercibleValuesAreReportedByValidation() {
        let schema = Schema.object(["count": .integer(), "tags": .array(.string()), "when": .string(format: "date")])
        let value = coercion.coerce(["count": "many", "tags": "[a", "when": "someday"], to: schema)
        #expect(value == ["count": "many", "tags": "[a", "when": "someday"])
        #expect(
            SchemaValidator.validate(value, against: schema).map(\.description) == [
                "count expects integer, got string",
                "tags expects array, got string",
                "when must be a date like 2026-11-30, got 'someday'",
            ])
    }

    @Test func unionsCoerceTowardTheFirstAlternativeThatFits() {
        let coercion = Coercion(dates: DateParser(now: Date(timeIntervalSince1970: 0), timeZone: TimeZone(identifier: "UTC")!))
        var optional = SchemaFields()
        optional.anyOf = [Schema(type: .integer), Schema(type: .null)]
        let limit = Schema(fields: optional)
        #expect(coercion.coerce("5", to: limit) == 5)
        #expect(coercion.coerce(.null, to: limit) == .null)
        #expect(coercion.coerce("five", to: limit) == "five")
        #expect(coercion.coerceCommandLine("7", to: limit) == 7)
        #expect(coercion.coerceCommandLine("null", to: limit) == .null)
        var flag = SchemaFields()
        flag.oneOf = [Schema(type: .boolean), Schema(type: .string, enumValues: ["auto"])]
        #expect(coercion.coerce("yes", to: Schema(fields: flag)) == true)
        #expect(coercion.coerce("AUTO", to: Schema(fields: flag)) == "auto")
    }
}
