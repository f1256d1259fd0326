import SkillbookCore
import Testing

@Suite struct JSONParsingTests {
    @Test func decodesWhatEncodeWrites() throws {
        let values: [Value] = [
            .null, true, false, 0, -42, .int(Int.max), 1.5, -0.25, 1e300, "", "héllo ✓ \"quoted\" back\\slash\n\t\u{1}",
            [], [1, "two", [3], ["four": 4]],
            .object(["z": 1, "a": 2, "m": ["nested": [true, .null]]]),
        ]
        for value in values {
            #expect(try JSONText.decode(JSONText.encode(value)) == value)
            #expect(try JSONText.decode(JSONText.encode(value, pretty: true)) == value)
        }
    }

    @Test func keepsKeyOrderAndTellsIntegersFromOtherNumbers() throws {
        let value = try JSONText.decode(#"{"b": 1, "a": 2.0, "c": 3e2, "d": 12345678901234567890}"#)
        #expect(value.objectValue?.keys == ["b", "a", "c", "d"])
        #expect(value["b"] == .int(1))
        #expect(value["a"] == .double(2))
        #expect(value["c"] == .double(300))
        #expect(value["d"] == .double(12_345_678_901_234_567_168))
    }

    @Test func readsEscapesAndSurrogatePairs() throws {
        #expect(try JSONText.decode(#""\u00e9\/\b\f\ud83d\ude00""#) == .string("é/\u{08}\u{0C}😀"))
    }

    @Test func rejectsWhatIsNotJSON() {
        for text in ["", "{", "[1,]", "{\"a\" 1}", "tru", "01x", "\"abc", "\"\\ud83d\"", "1 2", "{\"a\":1,}", "-", "1.", "\"\u{1}\""] {
            #expect(throws: JSONParseError.self, "\(text)") { try JSONText.decode(text) }
        }
    }
}
