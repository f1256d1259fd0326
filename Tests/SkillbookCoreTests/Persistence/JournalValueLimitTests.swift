import SkillbookCore
import Testing

@Suite struct JournalValueLimitTests {
    let limit = JournalValueLimit(bytes: 8, keptBytes: 4)

    @Test func aLongTextIsCutWithItsSizeAndDigest() {
        let (value, cut) = limit.bounded(.string("abcdefghij"))
        #expect(cut)
        #expect(
            value
                == .string("abcd… [cut by the journal: 10 bytes, fnv1a64 \(SourceHash.of("abcdefghij"))]"))
    }

    /// `Limits.journalTextBytes`: a text of 1 MiB is kept whole, one byte more is cut.
    @Test func theStandardLimitKeepsOneMebibyteAndCutsOneByteMore() {
        #expect(Limits.journalTextBytes == 1_048_576)
        let atLimit = String(repeating: "a", count: 1_048_576)
        #expect(JournalValueLimit.standard.bounded(.string(atLimit)) == (.string(atLimit), false))
        let past = atLimit + "b"
        let (kept, cut) = JournalValueLimit.standard.bounded(.string(past))
        #expect(cut)
        #expect(kept == .string(String(repeating: "a", count: 1024) + "… [cut by the journal: 1048577 bytes, fnv1a64 \(SourceHash.of(past))]"))
    }

    @Test func shortTextsAndOtherValuesAreKeptAsTheyAre() {
        let value: Value = [
            "title": "short", "count": 12_345_678_901, "flags": [true, .null], "ratio": 0.5,
        ]
        let (kept, cut) = limit.bounded(value)
        #expect(!cut)
        #expect(kept == value)
        #expect(limit.bounded(.string("12345678")) == (.string("12345678"), false))
    }

    @Test func textsInsideListsAndObjectsAreCutInPlaceKeepingKeyOrder() {
        let (value, cut) = limit.bounded(["b": "tiny", "a": ["ok", "0123456789"]])
        #expect(cut)
        guard case .object(let object) = value else {
            Issue.record("not an object: \(value)")
            return
        }
        #expect(object.keys == ["b", "a"])
        #expect(object["b"] == "tiny")
        guard case .array(let items)? = object["a"], case .string(let text) = items[1] else {
            Issue.record("\(value)")
            return
        }
        #expect(items[0] == "ok")
        #expect(text.hasPrefix("0123… [cut by the journal: 10 bytes, fnv1a64 "))
    }

    /// The kept part ends on a whole character: a 3-byte character split by the limit is left out.
    @Test func aCharacterSplitByTheLimitIsLeftOutWhole() {
        let (value, _) = JournalValueLimit(bytes: 4, keptBytes: 4).bounded(.string("ab提醒我"))
        guard case .string(let text) = value else {
            Issue.record("\(value)")
            return
        }
        #expect(text.hasPrefix("ab… [cut by the journal: 11 bytes"))
    }

    /// An action's output keeps the fields its undo reads whole and cuts the others; `nil` keeps all.
    @Test func fieldsKeptWholeAreNotCut() {
        let output: Value = ["id": "0123456789", "title": "0123456789", "small": "ok"]
        let (value, cut) = limit.bounded(output, keepingWhole: ["id"])
        #expect(cut)
        #expect(value["id"] == "0123456789")
        #expect(value["small"] == "ok")
        #expect(value["title"]?.stringValue?.hasPrefix("0123… [cut by the journal: 10 bytes") == true)
        #expect(limit.bounded(output, keepingWhole: nil) == (output, false))
        #expect(limit.bounded(output, keepingWhole: []).cut, "a query's output: nothing is kept whole")
        #expect(limit.bounded(["id": "0123456789"], keepingWhole: ["id"]) == (["id": "0123456789"], false))
    }
}

