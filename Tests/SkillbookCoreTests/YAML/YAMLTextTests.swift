import Testing

@testable import SkillbookCore

/// `YAMLText` writes, libyaml (`YAMLLoader`) reads back: the value must be identical (issue 28.2–4).
@Suite struct YAMLTextTests {
    /// Every character YAML treats specially, one of each.
    static let special: [Unicode.Scalar] =
        (0x00...0x20).map { Unicode.Scalar($0)! } + (0x7F...0xA0).map { Unicode.Scalar($0)! }
        + ["\"", "\\", "'", ":", "#", "-", "?", "&", "*", "!", "|", ">", "%", "@", "`", "{", "}", "[", "]", ","]
        + [0x2028, 0x2029, 0xFEFF, 0xFFFE, 0xFFFF, 0xD7FF, 0xE000, 0xFFFD, 0x10000, 0x10FFFF].map { Unicode.Scalar($0)! }

    private func readBack(_ text: String) throws -> Value? {
        try YAMLLoader().load(text, file: "plan.yaml")?.value
    }

    @Test func everySpecialCharacterReadsBackIdentical() throws {
        for scalar in Self.special {
            let c = String(Character(scalar))
            for s in [c, "line two \(c) end", "  \(c)  ", "\(c)\(c)\n\(c)", "a \(c)"] {
                let value: Value = .object(["k\(c)": .string(s), "list": .array([.string(s), .object([s: .string(s)])])])
                let text = "value: " + YAMLText.flow(value) + "\n" + YAMLText.blockEntry(key: s, value: .string(s), indent: 0)[0] + "\n"
                let expected: Value = .object(["value": value, s: .string(s)])
                #expect(try readBack(text) == expected, "U+\(String(scalar.value, radix: 16)): \(text.debugDescription)")
            }
        }
    }

    @Test func aStringOfEveryUnicodeScalarReadsBackIdentical() throws {
        var all = String.UnicodeScalarView()
        for value in UInt32(0)...0x10FFFF {
            if let scalar = Unicode.Scalar(value) { all.append(scalar) }
        }
        let s = String(all)
        #expect(try readBack("description: " + YAMLText.quoted(s) + "\n") == .object(["description": .string(s)]))
    }

    @Test func theEscapesAreJSONs() {
        #expect(YAMLText.quoted("line two \u{85} end") == #""line two \u0085 end""#)
        #expect(YAMLText.quoted("a\u{2028}b\u{2029}c\u{7F}\u{9F}\u{FEFF}\u{FFFE}\u{FFFF}") == #""a\u2028b\u2029c\u007f\u009f\ufeff\ufffe\uffff""#)
        #expect(YAMLText.quoted("\"\\\n\r\t\u{0}é😀") == #""\"\\\n\r\t\u0000é😀""#)
        #expect(YAMLText.flow(["a": [1, 2.5, true, .null], "b": "x"]) == #"{"a":[1,2.5,true,null],"b":"x"}"#)
    }

    /// libyaml refuses an implicit key longer than 1,024 characters: a longer one is written `? key`.
    @Test func keysAtAndPastTheImplicitKeyLimitReadBack() throws {
        let limit = Limits.yamlImplicitKeyBytes
        #expect(YAMLText.blockEntry(key: String(repeating: "k", count: limit - 2), value: 1, indent: 2) == ["  \"" + String(repeating: "k", count: limit - 2) + "\": 1"])
        #expect(YAMLText.blockEntry(key: String(repeating: "k", count: limit - 1), value: 1, indent: 2) == ["  ? \"" + String(repeating: "k", count: limit - 1) + "\"", "  : 1"])
        for unit in ["k", "é", "好", "😀", "\u{85}"] {
            for count in [limit / 6, limit / 2 - 10, limit - 10, limit - 2, limit - 1, limit, 1_024, 1_025, 5_000] {
                let key = String(repeating: unit, count: count)
                let lines = ["with:"] + YAMLText.blockEntry(key: key, value: .object([key: .string(key)]), indent: 2)
                    + YAMLText.blockEntry(key: "next", value: 1, indent: 2)
                let expected: Value = .object(["with": .object([key: .object([key: .string(key)]), "next": 1])])
                #expect(try readBack(lines.joined(separator: "\n") + "\n") == expected, "\(count) × \(unit.debugDescription)")
            }
        }
    }
}
