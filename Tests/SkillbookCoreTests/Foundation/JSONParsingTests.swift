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

    /// Found by `make fuzz TARGET=json-schema`: `1e784` became infinity, which JSON writes back as
    /// `null`; a number past a double's range is refused, at its offset.
    @Test func refusesNumbersPastADoublesRange() throws {
        for (text, offset) in [("1e784", 0), ("[0, -1e309]", 4), ("{\"a\": 2E+99999}", 6)] {
            let error = #expect(throws: JSONParseError.self) { try JSONText.decode(text) }
            #expect(error?.message == "number \(text.dropFirst(offset).prefix { !",]}".contains($0) }) is out of range (beyond ±1.8e308)")
            #expect(error?.offset == offset, "\(text)")
        }
        #expect(try JSONText.decode("[1.7976931348623157e308, 1e-400, -0.0]") == .array([.double(.greatestFiniteMagnitude), .double(0), .double(-0.0)]))
        let written = JSONText.encode(try JSONText.decode("[1.7976931348623157e308]"))
        #expect(try JSONText.decode(written) == .array([.double(.greatestFiniteMagnitude)]))
    }
}
