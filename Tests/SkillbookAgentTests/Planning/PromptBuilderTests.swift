import Foundation
import SkillbookAgent
import SkillbookCore
import Testing

@Suite struct PromptBuilderTests {
    @Test func thePromptStatesTheDateTheSkillsAndTheReferenceRuleOnce() throws {
        let messages = berlinPrompt.messages(request: "summarize https://example.com and save it as a note", offers: offers("web.summary", "notes.create"))
        #expect(messages.map(\.role) == [.system, .user])
        let user = messages[1].content
        #expect(user.hasPrefix("Now: 2026-12-01T09:15:00+01:00 (Tuesday, time zone Europe/Berlin). Today is 2026-12-01; tomorrow is 2026-12-02.\n"))
        #expect(user.contains("- skill notes.create (action): Saves a new note"))
        #expect(user.contains("  parameters: title (string, required); body (string); tags (array of string)\n"))
        #expect(user.contains("  output: url, status, title, description, first_paragraph, links_count, links, links.*.url, links.*.text, language, truncated\n"))
        #expect(user.hasSuffix("\nRequest: summarize https://example.com and save it as a note"))
        let all = messages.map(\.content).joined()
        #expect(all.components(separatedBy: "References:").count == 2)
        #expect(all.contains("no | filters"))
        // Formats, not copyable plans: no step names a real skill in the rules.
        #expect(!messages[0].content.contains("web.summary"))
        #expect(!messages[0].content.contains("notes.create"))
    }

    @Test func secretsNeverEnterThePrompt() throws {
        let prompt = PromptBuilder(now: berlinClock.now, timeZone: berlinClock.timeZone, redactor: Redactor(secrets: ["hunter2"]))
        let messages = prompt.messages(request: "post hunter2 to my webhook", offers: offers("notify.send"))
        let all = messages.map(\.content).joined()
        #expect(!all.contains("hunter2"))
        #expect(all.contains("Request: post *** to my webhook"))
        #expect(!all.contains("webhook ("))
    }

    @Test func atMostTwentyOffersChosenByTheMatchersScores() {
        let all = shippedRegistry.descriptors.map(PlanOffer.init(skill:))
        #expect(all.count > 20)
        let chosen = PromptBuilder.choose(all, for: "summarize a web page and save it as a note", matcher: shippedMatcher, clock: berlinClock)
        #expect(chosen.count == 20)
        #expect(chosen.prefix(3).map(\.name).contains("web.summary"))
        let messages = berlinPrompt.messages(request: "x", offers: all)
        #expect(messages[1].content.components(separatedBy: "\n- skill ").count - 1 == 20)
    }
}
