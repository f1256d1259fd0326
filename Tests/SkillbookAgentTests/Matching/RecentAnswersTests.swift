import Synchronization
import Testing

@testable import SkillbookAgent

/// A question asked again while it is among the last few is answered without asking the function;
/// one asked longer ago is asked again; the answers are always the function's.
@Suite struct RecentAnswersTests {
    @Test func aRecentQuestionIsAnsweredOnceAndAnOldOneAgain() {
        let asked = Mutex<[String]>([])
        let recent = RecentAnswers<Int>(capacity: 2)
        func length(_ text: String) -> Int {
            asked.withLock { $0.append(text) }
            return text.count
        }
        #expect(recent.answer("one", length) == 3)
        #expect(recent.answer("three", length) == 5)
        #expect(recent.answer("one", length) == 3)
        #expect(asked.withLock { $0 } == ["one", "three"])
        #expect(recent.answer("seven", length) == 5)  // "one" was the first kept: it goes
        #expect(recent.answer("three", length) == 5)
        #expect(recent.answer("one", length) == 3)
        #expect(asked.withLock { $0 } == ["one", "three", "seven", "one"])
    }

    @Test func theClausesAndValuesOfARequestAreTheSameAskedTwice() {
        let request = "read /tmp/a.md, then mail it to ana@example.com and post it to https://hooks.example.com/x"
        #expect(CompoundSplitter.clauses(of: request) == CompoundSplitter.clauses(of: request))
        #expect(CompoundSplitter.clauses(of: request).count == 3)
        let values = RequestValues(request)
        #expect(values == RequestValues(request))
        #expect(values.paths == ["/tmp/a.md"] && values.emails == ["ana@example.com"])
        #expect(values.addresses == ["https://hooks.example.com/x"])
    }
}
