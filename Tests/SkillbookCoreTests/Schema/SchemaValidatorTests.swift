import Testing

@testable import SkillbookCore

/// Every violation of `value` against `schema`, as printed.
private func violations(_ value: Value, _ schema: Schema, at path: [PathComponent] = []) -> [String] {
    SchemaValidator.validate(value, against: schema, path: path).map(\.description)
}

@Suite struct SchemaValidatorTests {
    @Test func typeMismatch() {
        #expect(violations(5, .string()) == ["value expects string, got integer"])
        #expect(violations(5, .string(), at: [.key("title")]) == ["title expects string, got integer"])
        #expect(violations(4.5, .integer()) == ["value expects integer, got number"])
        #expect(violations("5", .integer()) == ["value expects integer, got string"])
        #expect(violations(true, .number()) == ["value expects number, got boolean"])
        #expect(violations(nil, .string()) == ["value expects string, got null"])
        #expect(violations("x", .array(.string())) == ["value expects array, got string"])
        #expect(violations(["x"], .object([:])) == ["value expects object, got array"])
        #expect(violations(["a": 1], .boolean()) == ["value expects boolean, got object"])
        #expect(violations(.double(.infinity), .integer()) == ["value expects integer, got number"])
        #expect(violations(.double(.nan), .integer()) == ["value expects integer, got number"])
        // Integers are numbers, and an integral number is an integer.
        #expect(violations(3, .number()).isEmpty)
        #expect(violations(4.0, .integer()).isEmpty)
        #expect(violations(nil, .any).isEmpty)
        #expect(violations(["a": [1, "x"]], .any).isEmpty)
        // A type mismatch stops further checks of that value.
        #expect(violations(5, .string(minLength: 10, pattern: "^x")) == ["value expects string, got integer"])
    }

    @Test func enumValues() {
        let priority = Schema.string(enum: ["low", "high"])
        #expect(violations("urgent", priority) == ["value must be one of 'low', 'high'; got 'urgent'"])
        #expect(violations("low", priority).isEmpty)
        let sizes = Schema(type: .integer, enumValues: [1, 2, 4])
        #expect(violations(3, sizes) == ["value must be one of 1, 2, 4; got 3"])
        #expect(violations(4.0, sizes).isEmpty)
        #expect(violations(Value.string(String(repeating: "x", count: 80)), priority) == [
            "value must be one of 'low', 'high'; got '\(String(repeating: "x", count: 56))..."
        ])
    }

    @Test func minimumAndMaximum() {
        let count = Schema.integer(minimum: 1, maximum: 10)
        #expect(violations(0, count) == ["value must be at least 1, got 0"])
        #expect(violations(11, count) == ["value must be at most 10, got 11"])
        #expect(violations(1, count).isEmpty)
        #expect(violations(10, count).isEmpty)
        let ratio = Schema.number(minimum: 0.5, maximum: 2.5)
        #expect(violations(0.25, ratio) == ["value must be at least 0.5, got 0.25"])
        #expect(violations(3, ratio) == ["value must be at most 2.5, got 3"])
    }

    @Test func stringLengths() {
        #expect(violations("", .string(minLength: 1)) == ["value must not be empty"])
        #expect(violations("ab", .string(minLength: 3)) == ["value must be at least 3 characters long, got 2"])
        #expect(violations("abcdefg", .string(maxLength: 5)) == ["value must be at most 5 characters long, got 7"])
        // Unicode code points, as JSON Schema counts: not bytes, not grapheme clusters.
        #expect(violations("名字名字名", .string(maxLength: 5)).isEmpty)
        #expect(violations("名字名字名字", .string(maxLength: 5)) == ["value must be at most 5 characters long, got 6"])
        #expect(violations("👍🏽", .string(maxLength: 1)) == ["value must be at most 1 characters long, got 2"])
        #expect(violations("e\u{301}", .string(maxLength: 1)) == ["value must be at most 1 characters long, got 2"])
        #expect(violations("\u{1F4A9}", .string(minLength: 2)) == ["value must be at least 2 characters long, got 1"])
    }

    @Test func pattern() {
        #expect(violations("Abc", .string(pattern: "^[a-z]+$")) == ["value must match the pattern '^[a-z]+$'"])
        #expect(violations("abc", .string(pattern: "^[a-z]+$")).isEmpty)
        // Unanchored patterns match anywhere, as in JSON Schema.
        #expect(violations("x-123-y", .string(pattern: "[0-9]{3}")).isEmpty)
        #expect(violations("abc", .string(pattern: "([")) == ["value has an invalid pattern '([' in its schema"])
        // The pattern sees the same code points the lengths count.
        #expect(violations("e\u{301}", .string(pattern: "^.$")) == ["value must match the pattern '^.$'"])
        #expect(violations("e\u{301}", .string(pattern: "^..$")).isEmpty)
    }

    @Test func formats() {
        let date = Schema.string(format: "date")
        #expect(violations("2026-11-30", date).isEmpty)
        #expect(violations("2028-02-29", date).isEmpty)
        #expect(violations("2026-13-01", date) == ["value must be a date like 2026-11-30, got '2026-13-01'"])
        #expect(violations("2026-02-30", date) == ["value must be a date like 2026-11-30, got '2026-02-30'"])
        #expect(violations("2026-02-29", date) == ["value must be a date like 2026-11-30, got '2026-02-29'"])
        #expect(violations("tomorrow", date) == ["value must be a date like 2026-11-30, got 'tomorrow'"])

        let dateTime = Schema.string(format: "date-time")
        for valid in ["2026-11-30T09:00:00Z", "2026-11-30T09:00:00+01:00", "2026-11-30t09:00:00.5-05:00", "1998-12-31T23:59:60Z", "1998-12-31T15:59:60-08:00"] {
            #expect(violations(.string(valid), dateTime).isEmpty, "\(valid)")
        }
        // RFC 3339: an offset is required, written +HH:MM; a leap second only at 23:59:60 UTC.
        for invalid in ["2026-11-30 09:00", "2026-11-30T09:00:00", "2026-11-30T09:00:00+01", "2026-11-30T09:00:00.5-0500", "1998-12-31T23:58:60Z", "1998-12-31T22:59:60Z"] {
            #expect(violations(.string(invalid), dateTime) == ["value must be a date-time like 2026-11-30T09:00:00Z, got '\(invalid)'"])
        }
        #expect(
            violations("tomorrow 9am", dateTime) == [
                "value must be a date-time like 2026-11-30T09:00:00Z, got 'tomorrow 9am'"
            ])
        #expect(
            violations("2026-11-30T25:00:00Z", dateTime) == [
                "value must be a date-time like 2026-11-30T09:00:00Z, got '2026-11-30T25:00:00Z'"
            ])

        let uri = Schema.string(format: "uri")
        #expect(violations("https://example.com/feed?x=1", uri).isEmpty)
        #expect(violations("mailto:anna@example.com", uri).isEmpty)
        #expect(violations("ldap://[2001:db8::7]/c=GB?objectClass?one", uri).isEmpty)
        for invalid in ["http://example.com:abc/", "http://example.com/%6G", "https://example.org/a<>b", "//example.com", "1http://x"] {
            #expect(violations(.string(invalid), uri) == ["value must be a URI like https://example.com, got '\(invalid)'"])
        }
        #expect(violations("not a uri", uri) == ["value must be a URI like https://example.com, got 'not a uri'"])
        #expect(violations("example.com", uri) == ["value must be a URI like https://example.com, got 'example.com'"])

        let email = Schema.string(format: "email")
        #expect(violations("anna@example.com", email).isEmpty)
        for valid in ["\"joe bloggs\"@example.com", "\"a@b\"@example.com", "joe@[127.0.0.1]", "joe@[IPv6:::1]", "te.s.t@localhost"] {
            #expect(violations(.string(valid), email).isEmpty, "\(valid)")
        }
        for invalid in ["anna@", "anna example.com", "te..st@example.com", ".test@example.com", "joe@[127.0.0.300]", "a@b=c.com"] {
            #expect(violations(.string(invalid), email) == ["value must be an email address like ada@example.com, got '\(invalid)'"])
        }

        let time = Schema.string(format: "time")
        for valid in ["08:30:06Z", "08:30:06+01:00", "08:30:06.25-05:30", "23:59:60Z", "01:29:60+01:30"] {
            #expect(violations(.string(valid), time).isEmpty, "\(valid)")
        }
        for invalid in ["09:30", "09:30:00", "9.30", "12:59:60Z", "08:30:06+01"] {
            #expect(violations(.string(invalid), time) == ["value must be a time with an offset like 09:30:00Z or 09:30:00+01:00, got '\(invalid)'"])
        }
        let duration = Schema.string(format: "duration")
        for valid in ["PT5M", "P4DT12H30M5S", "P2W", "P1M2D", "PT36H"] {
            #expect(violations(.string(valid), duration).isEmpty, "\(valid)")
        }
        for invalid in ["5m", "PT1D", "P2D1Y", "P1", "PT1H2S", "P1Y2W", "soon"] {
            #expect(violations(.string(invalid), duration) == ["value must be an ISO 8601 duration like PT30S, PT5M, P1DT2H or P2W, got '\(invalid)'"])
        }
        #expect(violations("", .string(format: "path")) == ["value must be a non-empty file path"])
        // ICU's syntax, as text.extract matches: (?i), \d, named groups and \p{Han} compile.
        let regex = Schema.string(format: "regex")
        for valid in [#"\d+"#, "(?i)invoice #(\\d+)", "(?<year>\\d{4})", "\\p{Han}+", "(?m)^ERROR.*$"] {
            #expect(violations(.string(valid), regex).isEmpty, "\(valid)")
        }
        for invalid in ["(unclosed", "[a-", "*x", "a{2,1}"] {
            #expect(
                violations(.string(invalid), regex) == [
                    #"value must be a regular expression that compiles (ICU syntax, such as \d+ or (?i)total: (\d+)), got '"# + invalid + "'"
                ])
        }
        #expect(violations("anything", .string(format: "unknown-format")).isEmpty)
    }

    @Test func itemCounts() {
        #expect(violations([], .array(.string(), minItems: 1)) == ["value must have at least 1 item, got 0"])
        #expect(violations(["a"], .array(.string(), minItems: 2)) == ["value must have at least 2 items, got 1"])
        #expect(violations(["a", "b", "c"], .array(.string(), maxItems: 2)) == ["value must have at most 2 items, got 3"])
        #expect(violations(["a", "b"], .array(.string(), minItems: 2, maxItems: 2)).isEmpty)
    }

    @Test func nestedPaths() {
        let note = Schema.object(["title": .string(minLength: 1), "tags": .array(.string())], required: ["title"])
        let schema = Schema.object(["notes": .array(note)])
        let value: Value = ["notes": [["title": "a"], ["title": "b", "tags": ["x", 7]], ["title": 5]]]
        #expect(
            violations(value, schema) == [
                "notes[1].tags[1] expects string, got integer",
                "notes[2].title expects string, got integer",
            ])
        #expect(
            violations(value, schema, at: [.key("steps"), .index(2), .key("with")]) == [
                "steps[2].with.notes[1].tags[1] expects string, got integer",
                "steps[2].with.notes[2].title expects string, got integer",
            ])
        let violation = SchemaValidator.validate(value, against: schema).last
        #expect(violation?.path == [.key("notes"), .index(2), .key("title")])
        #expect(violation?.kind == .typeMismatch(expected: "string", got: "integer"))
    }

    @Test func missingRequired() {
        let schema = Schema.object(["title": .string(), "body": .string()], required: ["title", "body"])
        #expect(
            violations(["body": "x"], schema) == ["value is missing required property 'title'"])
        // A property present with null is present: its type is what fails.
        #expect(
            violations(["title": nil], schema) == [
                "value is missing required property 'body'", "title expects string, got null",
            ])
        #expect(
            violations(["notes": [[:]]], .object(["notes": .array(schema)])) == [
                "notes[0] is missing required property 'title'", "notes[0] is missing required property 'body'",
            ])
    }

    @Test func unknownProperties() {
        let schema = Schema.object(["title": .string(), "body": .string()])
        #expect(violations(["titel": "x"], schema) == ["value has unknown property 'titel'; did you mean 'title'?"])
        #expect(violations(["zzzzzz": "x"], schema) == ["value has unknown property 'zzzzzz'"])
        #expect(
            violations(["with": ["bdy": "x"]], .object(["with": schema])) == [
                "with has unknown property 'bdy'; did you mean 'body'?"
            ])
        // Undeclared properties are allowed unless `additionalProperties` is false.
        #expect(violations(["extra": 1], Schema(type: .object, properties: [("title", .string())])).isEmpty)
        #expect(violations(["extra": 1], .freeObject()).isEmpty)
        let violation = SchemaValidator.validate(["titel": "x"], against: schema).first
        #expect(violation?.kind == .unknownProperty("titel", suggestion: "title"))
    }

    @Test func secretValuesAreMasked() {
        let token = Schema(type: .string, enumValues: ["a-token"], minLength: 20, format: "email", secret: true)
        let found = violations("hunter2", token)
        #expect(
            found == [
                "value must be one of 'a-token'; got ***",
                "value must be at least 20 characters long, got 7",
                "value must be an email address like ada@example.com, got ***",
            ])
        #expect(found.allSatisfy { !$0.contains("hunter2") })
        let pin = Schema(type: .integer, minimum: 1000, maximum: 9999, secret: true)
        #expect(violations(123, pin) == ["value must be at least 1000, got ***"])
        #expect(violations(12345, pin) == ["value must be at most 9999, got ***"])
    }

    @Test func everyProblemIsReportedAtOnce() {
        let schema = Schema.object(
            [
                "title": .string(minLength: 1),
                "count": .integer(minimum: 1),
                "due": .string(format: "date"),
                "tags": .array(.string(), maxItems: 2),
                "priority": .string(enum: ["low", "high"]),
            ], required: ["title", "due"])
        let value: Value = [
            "title": "", "count": 0, "tags": ["a", "b", 3], "priority": "urgent", "colour": "red",
        ]
        #expect(
            violations(value, schema, at: [.key("with")]) == [
                "with is missing required property 'due'",
                "with.title must not be empty",
                "with.count must be at least 1, got 0",
                "with.tags must have at most 2 items, got 3",
                "with.tags[2] expects string, got integer",
                "with.priority must be one of 'low', 'high'; got 'urgent'",
                "with has unknown property 'colour'",
            ])
    }
}
