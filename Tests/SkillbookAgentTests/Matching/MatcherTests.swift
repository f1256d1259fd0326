import Foundation
import SkillbookCore
import Testing

@testable import SkillbookAgent

@Suite struct MatcherTests {
    static func skill(_ id: String, _ title: String, examples: [String], inputs: [(String, Schema)] = [], required: [String] = [])
        -> RouteTarget
    {
        RouteTarget(
            layer: .skill, name: id, title: title, summary: "", phrases: examples, inputs: inputs.map { ($0.0, $0.1) },
            required: required)
    }

    @Test func aNearTieIsReportedWithAQuestionNotGuessed() {
        let matcher = Matcher(targets: [
            Self.skill("box.open", "Open a box", examples: ["open the thing"]),
            Self.skill("door.open", "Open a door", examples: ["open the thing"]),
        ])
        let decision = matcher.decide("open the thing", clock: berlinClock)
        #expect(decision.layer == .none)
        #expect(decision.target == nil)
        #expect(decision.question == "Did you mean skill 'box.open' (Open a box) or skill 'door.open' (Open a door)?")
        #expect(decision.candidates.map(\.target) == ["box.open", "door.open"])
    }

    @Test func slotsAreTypedByTheirSchemas() {
        let matcher = Matcher(targets: [
            Self.skill(
                "trip.plan", "Plan a trip",
                examples: ["visit {site} on {day} with {count} friends"],
                inputs: [("site", .string(format: "uri")), ("day", .string(format: "date")), ("count", .integer())])
        ])
        let decision = matcher.decide("please visit example.com on next friday with 3 friends", clock: berlinClock)
        #expect(decision.layer == .skill)
        #expect(decision.inputs == ["site": "https://example.com", "day": "2026-12-04", "count": 3])
        #expect(decision.confidence == 1)
    }

    @Test func aDateSlotTakesTheLongestPhraseTheDateParserReads() {
        let decision = shippedMatcher.decide("remind me next friday 18:00 to water the plants", clock: berlinClock)
        #expect(decision.target == "reminders.create")
        #expect(decision.inputs == ["due": "2026-12-04T18:00:00+01:00", "title": "water the plants"])
    }

    @Test func aMissingRequiredInputIsAskedFor() {
        let decision = shippedMatcher.decide("add a reminder", clock: berlinClock)
        #expect(decision.layer == .skill)
        #expect(decision.target == "reminders.create")
        #expect(decision.missing == ["title"])
        #expect(decision.question == "What should 'title' be (What to be reminded of.)?")
    }

    @Test func theJSONHasExactlyTheDocumentedShape() throws {
        let decision = shippedMatcher.decide("remind me tomorrow at 9 to call Anna", clock: berlinClock)
        let json = decision.json
        #expect(json.objectValue?.keys == ["layer", "target", "inputs", "confidence", "candidates", "plan", "question"])
        #expect(json["inputs"] == ["due": "2026-12-02T09:00:00+01:00", "title": "call Anna"])
        #expect(json["plan"] == .null)
        #expect(json["question"] == .null)
        let first = try #require(json["candidates"]?.arrayValue?.first)
        #expect(first.objectValue?.keys == ["layer", "target", "confidence"])
        #expect(first["target"] == "reminders.create")
        #expect(JSONText.encode(json).hasPrefix(#"{"layer":"skill","target":"reminders.create","inputs":{"due":"2026-12-02T09:00:00+01:00","title":"call Anna"},"confidence":"#))
    }

    @Test func nothingMatchedListsTheThreeNearestAndHowToConfigureAModel() {
        let decision = shippedMatcher.decide("book a table for two at the sushi place", clock: berlinClock)
        #expect(decision.layer == .none)
        #expect(decision.candidates.count == 3)
        #expect(decision.question == nil)
        let lines = decision.nothingMatchedMessage.split(separator: "\n")
        #expect(lines.first == "nothing matched this request.")
        #expect(lines[1] == "nearest:")
        // Of the three candidates, those that score above 0.0.
        #expect(decision.nearest.map(\.target) == decision.candidates.filter { $0.confidence >= 0.0005 }.map(\.target))
        #expect(!decision.nearest.isEmpty)
        #expect(lines.count == 3 + decision.nearest.count)
        #expect(!lines.contains { $0.hasSuffix("(0.0)") })
        #expect(lines.last?.contains("SKILLBOOK_MODEL_URL") == true)
    }

    /// Issue 27: a target that scores 0.0 is not "near"; with none left, no "nearest" line at all.
    @Test func nothingMatchedNamesNoTargetThatScoresZero() {
        var decision = RouteDecision(
            layer: .none,
            candidates: [
                RouteCandidate(layer: .skill, target: "notes.list", confidence: 0.21),
                RouteCandidate(layer: .skill, target: "files.read", confidence: 0.0004),
                RouteCandidate(layer: .playbook, target: "day-note", confidence: 0),
            ])
        #expect(decision.nearest.map(\.target) == ["notes.list"])
        #expect(decision.nothingMatchedMessage.split(separator: "\n").dropFirst().prefix(2) == ["nearest:", "  skill notes.list (0.21)"])
        #expect(decision.outOfScopeMessage.contains("nearest: skill notes.list\n"))
        decision.candidates.removeFirst()
        #expect(!decision.nothingMatchedMessage.contains("nearest"))
        #expect(!decision.outOfScopeMessage.contains("nearest"))
    }

    @Test func aCompoundRequestIsPlanShaped() {
        let decision = shippedMatcher.decide("summarize https://example.com and then save it as a note", clock: berlinClock)
        #expect(decision.layer == .plan)
        #expect(decision.target == nil)
        #expect(decision.clauses == ["summarize https://example.com", "save it as a note"])
        #expect(decision.candidates.map(\.target) == ["web.summary", "notes.create"])
    }

    @Test func aSplitThatLeavesAClauseUnmatchedIsNotAPlan() {
        let decision = shippedMatcher.decide("remind me to buy bread and milk", clock: berlinClock)
        #expect(decision.layer == .skill)
        #expect(decision.inputs == ["title": "buy bread and milk"])
    }

    @Test func chineseIsScoredByCharacterUnigramsAndBigrams() {
        #expect(TextFolding.tokens("下载文件") == ["下载", "载", "载文", "文", "文件", "件"])
        #expect(TextFolding.tokens("Show the NOTES") == ["show", "note"])
    }

    @Test func widthAndCaseAreFolded() {
        let text = FoldedText("ＳＨＯＷ　ｍｙ Notes？")
        #expect(text.text == "SHOW my Notes")
        #expect(text.lowerText == "show my notes")
    }

    @Test func fillersAreTrimmedFromRequestsAndCaptures() {
        #expect(FoldedText("please tidy my downloads for me, thanks!").text == "tidy my downloads")
        #expect(FoldedText("帮我整理一下下载文件夹吧").text == "整理下载文件夹")
        #expect(FoldedText.capture(" \"call Anna\" please") == "call Anna")
    }
}
