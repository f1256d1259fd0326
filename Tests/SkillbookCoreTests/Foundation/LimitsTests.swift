import Foundation
import Testing

@testable import SkillbookCore

/// Each of `Limits` at the limit and one past it, with the exact message (issue 28). The limits
/// of other modules are tested beside them: `mcpLineBytes` in `LineChannelTests`, the console's
/// body and chat message in `ConsoleSecurityTests` and `ConsoleChatTests`, `sourceFileBytes` in
/// `SourceFileTests`, `expressionSteps` in `EvaluationLimitTests`, `suggestionNameLength` in
/// `SuggestionTests`, `yamlImplicitKeyBytes` in `YAMLTextTests`, `playbookNesting` (five levels
/// load, six do not) in `RollbackTests.subPlaybookCyclesAndDeepNestingAreLoadErrors`,
/// `journalTextBytes` in `JournalValueLimitTests`.
@Suite struct LimitsTests {
    /// Every diagnostic of loading `text` as `line:column: message`.
    private func yamlProblems(_ text: String) -> [String] {
        do {
            _ = try YAMLLoader().load(text, file: "limits.yaml")
            return []
        } catch {
            return error.diagnostics.map { "\($0.location.map { "\($0.line):\($0.column)" } ?? "?"): \($0.message)" }
        }
    }

    @Test func yamlNesting() {
        #expect(Limits.yamlDepth == 200)
        let atLimit = String(repeating: "[", count: 200) + "1" + String(repeating: "]", count: 200)
        #expect(yamlProblems(atLimit) == [])
        let past = String(repeating: "[", count: 201) + "1" + String(repeating: "]", count: 201)
        #expect(yamlProblems(past) == ["1:201: YAML nesting deeper than 200 levels"])
    }

    @Test func yamlAliasExpansion() {
        #expect(Limits.yamlAliasNodes == 100_000)
        // An anchored list of 999 items is 1,000 nodes; 100 aliases of it add exactly 100,000.
        let list = "[" + Array(repeating: "1", count: 999).joined(separator: ",") + "]"
        let atLimit = "a: &a \(list)\nb: [" + Array(repeating: "*a", count: 100).joined(separator: ",") + "]\n"
        #expect(yamlProblems(atLimit) == [])
        let past = "a: &a \(list)\nb: [" + Array(repeating: "*a", count: 101).joined(separator: ",") + "]\n"
        let column = 5 + 100 * 3
        #expect(yamlProblems(past) == ["2:\(column): aliases expand to more than 100000 nodes; refusing to expand '*a'"])
    }

    @Test func jsonNesting() throws {
        #expect(Limits.jsonDepth == 512)
        let atLimit = String(repeating: "[", count: 512) + "1" + String(repeating: "]", count: 512)
        var value = try JSONText.decode(atLimit)
        var depth = 0
        while case .array(let items) = value, let first = items.first {
            depth += 1
            value = first
        }
        #expect(depth == 512 && value == .int(1))
        let objects = String(repeating: #"{"a":"#, count: 512) + "null" + String(repeating: "}", count: 512)
        #expect(throws: Never.self) { try JSONText.decode(objects) }
        let past = String(repeating: "[", count: 513) + "1" + String(repeating: "]", count: 513)
        #expect(throws: JSONParseError(message: "arrays and objects nested deeper than 512 levels", offset: 512)) { try JSONText.decode(past) }
        #expect(
            throws: JSONParseError(message: "arrays and objects nested deeper than 512 levels", offset: 512 * 5)
        ) { try JSONText.decode(String(repeating: #"{"a":"#, count: 513) + "null" + String(repeating: "}", count: 513)) }
    }

    @Test func expressionNesting() {
        #expect(Limits.expressionDepth == 100)
        func parentheses(_ count: Int) -> String { "${{ " + String(repeating: "(", count: count) + "1" + String(repeating: ")", count: count) + " }}" }
        func nots(_ count: Int) -> String { "${{ " + String(repeating: "!", count: count) + "true }}" }
        let deepestParentheses = (1...Limits.expressionDepth + 1).last { syntaxError(parentheses($0)) == nil }
        let deepestNots = (1...Limits.expressionDepth + 1).last { syntaxError(nots($0)) == nil }
        // The top of the tree is a level: 99 parentheses or `!`s fit; past them, the error points at
        // what the 100th holds.
        #expect(deepestParentheses == 99)
        #expect(deepestNots == 99)
        for past in [parentheses(100), nots(100)] {
            #expect(syntaxError(past)?.message == "expression is nested too deeply")
            #expect(syntaxError(past)?.offset == 4 + 100)  // what stands inside the 100th
        }
    }
}
