import SkillbookCore
import Testing

/// `JSONText.encode` measures the text, then writes it into the string's storage.
@Suite struct JSONTextTests {
    @Test func writesTheExactTextCompactAndPretty() {
        let value: Value = .object(["a": [1, "x\"y\\z\n\u{1}"], "b": .object([:]), "c": [], "d": .null, "é": 1.5])
        #expect(JSONText.encode(value) == #"{"a":[1,"x\"y\\z\n\u0001"],"b":{},"c":[],"d":null,"é":1.5}"#)
        #expect(
            JSONText.encode(value, pretty: true) == """
                {
                  "a": [
                    1,
                    "x\\"y\\\\z\\n\\u0001"
                  ],
                  "b": {},
                  "c": [],
                  "d": null,
                  "é": 1.5
                }
                """)
        #expect(JSONText.quoted("tab\there") == #""tab\there""#)
        #expect(JSONText.encode("") == #""""#)
    }

    @Test func bytesAreTheEncodedTextDeepIndentationIncluded() {
        var deep: Value = ["leaf": "x", "n": 7]
        for level in 0..<80 { deep = .object(["level": .int(level), "inner": [deep, .null]]) }
        for value in [deep, ["a": [1, "x\"y"], "b": .object([:]), "c": []] as Value, "", .null, 1.5] {
            #expect(JSONText.bytes(value) == Array(JSONText.encode(value).utf8))
            #expect(JSONText.bytes(value, pretty: true) == Array(JSONText.encode(value, pretty: true).utf8))
        }
        let pretty = JSONText.encode(deep, pretty: true)
        #expect(pretty.contains("\n" + String(repeating: " ", count: 2 * 161) + "\"leaf\": \"x\","))
    }

    @Test func aLargeTextWithEscapesAtItsEndsIsWrittenWhole() throws {
        let body = String(repeating: "0123456789abcdef", count: 1 << 16)  // 1 MiB
        let text = "\"" + body + "\n\u{7}"
        let encoded = JSONText.encode(["content": .string(text), "size": .int(text.utf8.count)])
        #expect(encoded.utf8.count == #"{"content":"\"\n\u0007","size":1048579}"#.utf8.count + body.utf8.count)
        #expect(encoded.hasPrefix(#"{"content":"\"0123"#))
        #expect(encoded.hasSuffix(#"cdef\n\u0007","size":1048579}"#))
        #expect(try JSONText.decode(encoded)["content"] == .string(text))
    }
}
