import SkillbookCore
import SkillbookSkills
import Testing

@Suite struct TextJoinSkillTests {
    @Test func joinsWithLineBreaksByDefault() async throws {
        try await withHarness { (harness) async throws in
            #expect(try await harness.run("text.join", ["items": ["a", "b", "c"]]) == ["text": "a\nb\nc"])
            #expect(try await harness.run("text.join", ["items": []]) == ["text": ""])
            #expect(try await harness.run("text.join", ["items": ["only"]]) == ["text": "only"])
        }
    }

    @Test func separatorPrefixAndSuffixMakeListsAndSentences() async throws {
        try await withHarness { (harness) async throws in
            let bullets = try await harness.run("text.join", ["items": ["milk", "eggs"], "prefix": "- "])
            #expect(bullets == ["text": "- milk\n- eggs"])
            let quoted = try await harness.run(
                "text.join", ["items": ["Anna", "Bob"], "separator": ", ", "prefix": "'", "suffix": "'"])
            #expect(quoted == ["text": "'Anna', 'Bob'"])
            let glued = try await harness.run("text.join", ["items": ["a", "b"], "separator": ""])
            #expect(glued == ["text": "ab"])
        }
    }

    @Test func anyItemIsWrittenAsTextAndNullsAreLeftOut() async throws {
        try await withHarness { (harness) async throws in
            let output = try await harness.run(
                "text.join",
                ["items": [1, 2.5, true, nil, "x", ["a", 1], ["k": "v"]], "separator": " | "])
            #expect(output == ["text": #"1 | 2.5 | true | x | ["a",1] | {"k":"v"}"#])
        }
    }
}
