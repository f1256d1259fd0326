import SkillbookCore
import Testing

/// `CanonicalJSON` accepts exactly the texts the writer writes back unchanged, and re-indents them
/// as the writer's pretty form.
@Suite struct CanonicalJSONTests {
    /// Values whose compact text is canonical: nested objects and arrays (empty ones too), every
    /// escape the writer uses, text beyond ASCII, numbers of every form the writer writes.
    static let values: [Value] = [
        .null, true, false, 0, -7, .int(Int.max), .int(Int.min), .int(999_999_999_999_999_999), .double(0.1), .double(-2.5e-8), .double(1e15),
        .double(-1.5e300), .double(123_456_789.125), .double(.leastNonzeroMagnitude), .double(1.0),
        "", "plain", "quote \" backslash \\ slash / newline \n return \r tab \t nul \u{0} bell \u{7} unit \u{1F} delete \u{7F}",
        "ü ✓ 😀 e\u{301} line\u{2028}separator",
        [], [:], [[], [:], [[]], [[:]]],
        [
            "b": 1, "a": ["x": [1, 2.5, "three", .null, [:]], "": [], "key \"quoted\"\n": true],
            "ü": ["😀": -0.000123], "e\u{301}": "decomposed, not the same key as é", "é": "composed",
        ],
        .array((0..<40).map { .object(["i": .int($0), "half": .double(Double($0) / 2)]) }),
    ]

    @Test func theWritersTextIsCanonicalAndReindentsAsItsPrettyText() throws {
        for value in Self.values {
            let compact = JSONText.encode(value)
            #expect(CanonicalJSON.isCanonical(compact), "\(compact)")
            #expect(JSONText.encode(try JSONText.decode(compact)) == compact)
            for indent in 0...4 {
                #expect(CanonicalJSON.pretty(compact, indent: indent) == JSONText.encode(value, pretty: true, indent: indent), "\(compact)")
            }
        }
    }

    /// Each of these is JSON the decoder reads (or refuses) whose value the writer would write
    /// otherwise: not passed through.
    static let others: [String] = [
        "{\"a\": 1}", " 1", "1 ", "[1, 2]", "{\"a\":1,\"a\":2}", "{\"é\":1,\"e\u{301}\":2}", "{\";\":1,\"\u{37E}\":2}",
        "{\"a\":{\"b\":1,\"b\":1}}", "1.0", "1.50", "-0", "-0.0", "01", "-01", "1e5", "1E5", "1e+15", "0.1e1",
        "12345678901234567890", "-9223372036854775809", "\"\\/\"", "\"\\u00e9\"", "\"\\u001F\"", "\"\\u000a\"", "\"\\u0009\"",
        "\"\\b\"", "\"\\f\"", "\"\\ud83d\\ude00\"", "\"\\u0100\"", "\"tab\there\"",
        "[1,]", "{\"a\"}", "{\"a\":}", "\"open", "tru", "nul", "nan", "", "[", "{", "]", "[1]]", "{}{}", "'a'",
        String(repeating: "[", count: 513) + String(repeating: "]", count: 513),
    ]

    @Test func anyOtherTextIsNotCanonical() {
        for text in Self.others {
            #expect(!CanonicalJSON.isCanonical(text), "\(text)")
            // The long way writes something else, or refuses the text: passing it through would be wrong.
            if let value = try? JSONText.decode(text) { #expect(JSONText.encode(value) != text, "\(text)") }
        }
        // Up to the decoder's depth, nesting is canonical; as many keys as are checked, too.
        let deep = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        #expect(CanonicalJSON.isCanonical(deep))
        let wide = "{" + (1...CanonicalJSON.objectKeysChecked).map { "\"k\($0)\":\($0)" }.joined(separator: ",") + "}"
        #expect(CanonicalJSON.isCanonical(wide))
        // One key more and it takes the long way, though the writer would write it back the same.
        let wider = "{" + (0...CanonicalJSON.objectKeysChecked).map { "\"k\($0)\":\($0)" }.joined(separator: ",") + "}"
        #expect(!CanonicalJSON.isCanonical(wider))
    }

    /// Random values: their texts are canonical and re-indent as the writer's; the same texts
    /// with a space put in are not.
    @Test func randomValuesRoundTrip() throws {
        var generator = SplitMix64(seed: 29)
        for _ in 0..<300 {
            let value = Self.random(depth: 0, &generator)
            let compact = JSONText.encode(value)
            #expect(CanonicalJSON.isCanonical(compact), "\(compact)")
            #expect(CanonicalJSON.pretty(compact, indent: 3) == JSONText.encode(value, pretty: true, indent: 3))
            if compact.hasPrefix("{\""), let colon = compact.firstIndex(of: ":") {
                var spaced = compact
                spaced.insert(" ", at: spaced.index(after: colon))
                #expect(!CanonicalJSON.isCanonical(spaced), "\(spaced)")
            }
        }
    }

    static func random(depth: Int, _ generator: inout SplitMix64) -> Value {
        let texts = ["", "a", "ü", "\"", "\\", "\n", "\u{1}", "😀 x", "k", "key two", "\u{7F}"]
        switch generator.next() % (depth > 3 ? 6 : 8) {
        case 0: return .null
        case 1: return .bool(generator.next() % 2 == 0)
        case 2: return .int(Int(truncatingIfNeeded: generator.next()) >> Int(generator.next() % 64))
        case 3: return .double(Double(Int(truncatingIfNeeded: generator.next()) >> 20) / Double(1 << (generator.next() % 40)))
        case 4: return .double(Double(bitPattern: generator.next() & 0x7FEF_FFFF_FFFF_FFFF) * (generator.next() % 2 == 0 ? 1 : -1))
        case 5: return .string(texts[Int(generator.next() % UInt64(texts.count))] + texts[Int(generator.next() % UInt64(texts.count))])
        case 6: return .array((0..<Int(generator.next() % 4)).map { _ in random(depth: depth + 1, &generator) })
        default:
            var object = ValueObject()
            for _ in 0..<Int(generator.next() % 5) {
                object[texts[Int(generator.next() % UInt64(texts.count))] + String(generator.next() % 3)] = random(depth: depth + 1, &generator)
            }
            return .object(object)
        }
    }
}
