import SkillbookCore
import Testing

@testable import SkillbookAgent

/// A word no target knows is read as the known word one typo away, when both are long enough to
/// tell apart.
@Suite struct WordIndexTests {
    @Test func oneEditApartIsOneLetterLeftOutAddedChangedOrTwoSwapped() {
        func apart(_ a: String, _ b: String) -> Bool { WordIndex.oneEditApart(Array(a), Array(b)) }
        #expect(apart("apend", "append") && apart("append", "apend"))
        #expect(apart("jurnal", "journal") && apart("sumarize", "summarize"))
        #expect(apart("recieve", "receive") && apart("summarise", "summarize"))
        #expect(!apart("append", "append") && !apart("apnde", "append") && !apart("ab", "abcd"))
    }

    @Test func misspeltRequestsRouteAsWrittenRight() {
        let written = shippedMatcher.decide("apend 'done' to /srv/log.txt", clock: berlinClock)
        #expect(written.candidates.first?.target == "files.write", "\(RoutingSet.describe(written))")
        let journal = shippedMatcher.decide("start my jurnal", clock: berlinClock)
        #expect(journal.target == "daily-journal", "\(RoutingSet.describe(journal))")
    }

    /// Short words are too often other words: "moon" is no "morn", "timer" no "time".
    @Test func shortWordsAreNotRespelt() {
        #expect(shippedMatcher.decide("how far is the moon", clock: berlinClock).layer == .none)
        #expect(shippedMatcher.decide("start a timer", clock: berlinClock).layer == .none)
    }
}
