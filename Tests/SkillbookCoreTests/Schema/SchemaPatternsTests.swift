import Foundation
import Testing

@testable import SkillbookCore

/// Issue 28: a schema's patterns are compiled once, not once per key tested (the `json-schema`
/// fuzzer's slow input compiled 40 patterns for each of 40 keys).
@Suite struct SchemaPatternsTests {
    @Test func everyPatternOfASchemaIsCompiledOnceAndKeptWhileKeysAreTested() throws {
        let tag = UUID().uuidString.prefix(8)
        let patterns = (0..<30).map { "^k\($0)_\(tag)[0-9]*$" }
        let schemaValue: Value = .object([
            "type": "object",
            "patternProperties": .object(ValueObject(patterns.map { ($0, Value.object(["maxLength": 3])) })),
            "additionalProperties": false,
        ])
        var diagnostics: [Diagnostic] = []
        let schema = try #require(SchemaDecoder().decode(schemaValue, diagnostics: &diagnostics))
        var members = ValueObject()
        for index in 0..<30 { members["k\(index)_\(tag)\(index)"] = .string(index == 7 ? "long" : "ok") }
        let violations = SchemaValidator.validate(.object(members), against: schema)
        #expect(violations.map(\.description) == ["k7_\(tag)7 must be at most 3 characters long, got 4"])
        #expect(patterns.allSatisfy(SchemaPatterns.isKept))
        #expect(SchemaPatterns.regex("(") == nil, "not a regular expression: nil, kept so")
        #expect(SchemaPatterns.isKept("("))
    }
}
