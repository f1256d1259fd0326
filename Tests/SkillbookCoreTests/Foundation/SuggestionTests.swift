import Testing

@testable import SkillbookCore

@Suite struct SuggestionTests {
    @Test func suggestsTheClosestWithinTheEditLimit() {
        #expect(Suggestion.closest(to: "notes.craete", in: ["notes.create", "notes.list"]) == "notes.create")
        #expect(Suggestion.closest(to: "Europe/Berln", in: ["Europe/Berlin", "Europe/Bern"]) == "Europe/Berlin")
        // Six characters allow two edits: a candidate three characters longer is not suggested.
        #expect(Suggestion.closest(to: "abcdef", in: ["abcdefgh"]) == "abcdefgh")
        #expect(Suggestion.closest(to: "abcdef", in: ["abcdefghi", "abc"]) == nil)
        #expect(Suggestion.closest(to: "ABCDEF", in: ["abcdéf"]) == "abcdéf")
        #expect(Suggestion.closest(to: "好好好好好好", in: ["好好好好好好好好"]) == "好好好好好好好好")
    }

    /// Issue 28.7: names are considered up to `Limits.suggestionNameLength` characters.
    @Test func namesPastTheLengthCapGetNoSuggestion() {
        let cap = Limits.suggestionNameLength
        #expect(cap == 256)
        let atCap = String(repeating: "a", count: cap)
        #expect(Suggestion.closest(to: atCap, in: [String(repeating: "a", count: cap - 1) + "b"]) != nil)
        #expect(Suggestion.closest(to: atCap + "a", in: [atCap + "b"]) == nil)
        #expect(Suggestion.closest(to: "aaa", in: ["aab" + String(repeating: " ", count: cap)]) == nil)
        #expect(Suggestion.closest(to: String(repeating: "é", count: cap), in: [String(repeating: "é", count: cap - 1)]) != nil)
        #expect(Suggestion.closest(to: String(repeating: "é", count: cap + 1), in: [String(repeating: "é", count: cap)]) == nil)
    }

    /// A 10 MB name against many candidates, and many long candidates: answered, not computed for minutes.
    @Test func hugeNamesAreNotCompared() {
        let huge = String(repeating: "x", count: 10_000_000)
        let candidates = (0..<600).map { "Zone/Name\($0)" }
        #expect(Suggestion.closest(to: huge, in: candidates) == nil)
        #expect(Suggestion.closest(to: "Zone/Name1", in: [huge, huge, huge] + candidates) == "Zone/Name1")
    }
}
