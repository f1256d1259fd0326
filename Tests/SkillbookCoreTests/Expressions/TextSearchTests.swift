import Foundation
import SkillbookCore
import Testing

/// Issue 28.6: `contains`, `split` and `replace` search in linear time (Knuth–Morris–Pratt over
/// characters) and give the results Foundation's quadratic searches gave, on ordinary texts and on
/// combining characters, emoji sequences, CRLF and near misses.
@Suite struct TextSearchTests {
    static let texts = [
        "", "a", "aaa", "aaaa", "abab", "ababab", "abcabcabd", "a-b-c", "--a--", "aabaabaab",
        "e\u{301}te\u{301}", "\u{E9}t\u{E9}", "cafe\u{301}s", "👨‍👩‍👧x👨‍👩‍👧", "🇫🇷🇩🇪🇫🇷", "line\r\nline\r\n",
        "é好😀é好😀", "a\u{0085}b\u{2028}c", "x😀😀😀y",
    ]
    static let needles = [
        "a", "aa", "ab", "abab", "abd", "-", "--", "aab", "e", "\u{301}", "\u{E9}", "e\u{301}", "👨", "👨‍👩‍👧",
        "🇫🇷", "🇷🇩", "\r", "\n", "\r\n", "😀", "😀😀", "好😀é", "\u{0085}", "zzz", "aaaaa",
    ]

    @Test func containsGivesTheResultsItGaveBefore() throws {
        for text in Self.texts {
            for needle in Self.needles {
                let before = needle.isEmpty || text.contains(needle)
                #expect(try call("contains", text, needle) == .bool(before), "contains(\(debug(text)), \(debug(needle)))")
            }
        }
    }

    @Test func splitGivesTheResultsItGaveBefore() throws {
        for text in Self.texts where !text.isEmpty {
            for needle in Self.needles {
                let before = Value.array(text.components(separatedBy: needle).map(Value.string))
                #expect(try call("split", text, needle) == before, "split(\(debug(text)), \(debug(needle)))")
            }
        }
    }

    @Test func replaceGivesTheResultsItGaveBefore() throws {
        for text in Self.texts {
            for needle in Self.needles {
                let before = text.replacingOccurrences(of: needle, with: "<\u{301}>")
                #expect(try call("replace", text, needle, "<\u{301}>") == .string(before), "replace(\(debug(text)), \(debug(needle)))")
            }
        }
    }

    @Test func nearMissesAtLength() throws {
        let a = String(repeating: "a", count: 20_000)
        let nearMiss = String(repeating: "a", count: 10_000) + "b"
        #expect(try call("contains", a, nearMiss) == false)
        #expect(try call("contains", a + "b", nearMiss) == true)
        #expect(try call("split", a + "b" + a, nearMiss) == .array([.string(String(repeating: "a", count: 10_000)), .string(a)]))
        #expect(try call("replace", "x" + nearMiss + nearMiss, nearMiss, "-") == "x--")
        #expect(try call("replace", a, "aa", "b") == .string(String(repeating: "b", count: 10_000)))
    }

    private func call(_ function: String, _ arguments: String...) throws -> Value {
        var inputs = ValueObject()
        for (i, argument) in arguments.enumerated() { inputs["a\(i)"] = .string(argument) }
        let list = arguments.indices.map { "inputs.a\($0)" }.joined(separator: ", ")
        return try value("\(function)(\(list))", in: EvaluationContext(inputs: inputs))
    }

    private func debug(_ text: String) -> String {
        text.unicodeScalars.map { $0.isASCII && $0.value >= 32 ? String($0) : "\\u{\(String($0.value, radix: 16))}" }.joined()
    }
}
