import Foundation
import SkillbookAgent
import SkillbookCore
import Testing

@Suite struct PromptBuilderTests {
    @Test func thePromptListsTheSkillsAndTheReferenceRuleOnce() throws {
        let messages = berlinPrompt.messages(request: "summarize https://example.com and save it as a note", offers: offers("web.summary", "notes.create"))
        #expect(messages.map(\.role) == [.system, .user])
        let user = messages[1].content
        // No date parameter offered: no date line (the prompt is read at a few tokens a second).
        #expect(user.hasPrefix("Skills and playbooks (* required):\n- skill web.summary (query): Reads a web page.\n"))
        #expect(user.contains("- skill notes.create (action): Saves a new note with a title, an optional body and optional tags.\n"))
        #expect(user.contains("  with: title* (string); body (string); tags (array of string)\n"))
        #expect(user.contains("  output: url, status, title, description, first_paragraph, links_count, links, links.*.url, links.*.text, language, truncated\n"))
        #expect(user.hasSuffix("\nRequest: summarize https://example.com and save it as a note"))
        let all = messages.map(\.content).joined()
        #expect(all.components(separatedBy: "References:").count == 2)
        #expect(all.contains("no | filters"))
        #expect(messages[0].content.contains("on one line (no spaces between items, no line breaks)"))
        // Formats, not copyable plans: no step names a real skill in the rules.
        #expect(!messages[0].content.contains("web.summary"))
        #expect(!messages[0].content.contains("notes.create"))
    }

    @Test func theDateIsStatedWhenAnOfferTakesADate() {
        let messages = berlinPrompt.messages(request: "remind me tomorrow to call Anna", offers: offers("reminders.create"))
        #expect(
            messages[1].content.hasPrefix(
                "Now: 2026-12-01T09:15:00+01:00 (Tuesday, Europe/Berlin). Today is 2026-12-01; tomorrow is 2026-12-02.\n"
                    + "Skills and playbooks (* required):\n- skill reminders.create (action): "))
        #expect(messages[1].content.contains("  with: title* (string); due (string, date-time); notes (string)\n"))
    }

    @Test func theSummaryIsCutToWhatTheTargetDoes() {
        #expect(
            PromptBuilder.gist("Reads a web page (http or https, at most 5 MiB of it) and returns { url, title }: the final address. More.")
                == "Reads a web page.")
        #expect(PromptBuilder.gist("Saves a note with a title, an optional body, and returns its { id }.") == "Saves a note with a title, an optional body.")
        #expect(PromptBuilder.gist("Lists notes。然后更多") == "Lists notes。")
        // An example in a summary is copied by a small model ("glob": "*.pdf"): it is left out.
        #expect(PromptBuilder.gist("Lists files whose name matches a glob such as *.pdf, and more.") == "Lists files whose name matches a glob, and more.")
    }

    @Test func secretsNeverEnterThePrompt() throws {
        let prompt = PromptBuilder(now: berlinClock.now, timeZone: berlinClock.timeZone, redactor: Redactor(secrets: ["hunter2"]))
        let messages = prompt.messages(request: "post hunter2 to my webhook", offers: offers("notify.send"))
        let all = messages.map(\.content).joined()
        #expect(!all.contains("hunter2"))
        #expect(all.contains("Request: post *** to my webhook"))
        #expect(!all.contains("webhook ("))
    }

    static let all = shippedRegistry.descriptors.map(PlanOffer.init(skill:))

    @Test func aClauseTheMatcherIsSureOfOffersItsTargetAlone() {
        let chosen = PromptBuilder.choose(Self.all, for: "summarize https://example.com and save it as a note", matcher: shippedMatcher, clock: berlinClock)
        // Each clause's sure pick, two more for the whole request, and text.join: web.summary gives a
        // list (links.*.url) and notes.create takes a text, which can refer only to a text.
        #expect(chosen.prefix(2).map(\.name) == ["web.summary", "notes.create"])
        #expect(chosen.count == 5)
        #expect(chosen.last?.name == "text.join")
    }

    @Test func anUnsureClauseOffersItsBestTwo() {
        // "save them as a note" is a tie between notes.create and notes.create_many: both are offered.
        let chosen = PromptBuilder.choose(
            Self.all, for: "list my reminders for tomorrow and save them as a note", matcher: shippedMatcher,
            clock: berlinClock)
        let names = chosen.map(\.name)
        #expect(names.prefix(3) == ["reminders.list", "notes.create", "notes.create_many"])
        #expect(chosen.count <= PromptBuilder.defaultOffers)
    }

    @Test func atMostTwentyOffersAreListed() {
        #expect(Self.all.count > 20)
        let chosen = PromptBuilder.choose(Self.all, for: "do something with my things", matcher: shippedMatcher, clock: berlinClock, limit: 40)
        #expect(chosen.count <= 40)
        let messages = berlinPrompt.messages(request: "x", offers: Self.all)
        #expect(messages[1].content.components(separatedBy: "\n- skill ").count - 1 == PromptBuilder.maximumOffers)
    }
}

@Suite struct PromptBuilderSkeletonTests {
    static func messages(_ request: String) throws -> String {
        let skeleton = try #require(PlanSkeletonTests.skeleton(request)).trimmed(for: request)
        let shape = try #require(PlanSchema.shape(skeleton, values: RequestValues(request)))
        return berlinPrompt.messages(request: request, offers: shape.offers, shape: shape)[1].content
    }

    @Test func theOrderIsStatedAndOnlyOutputsALaterStepCanTakeAreListed() throws {
        let user = try Self.messages("read /tmp/todo.txt and save it as a note titled Todo")
        #expect(
            user.contains(
                "Steps in order: s1 files.read ('read /tmp/todo.txt'), s2 notes.create ('save it as a note titled Todo').\n"))
        // notes.create_many cannot take the file's text (a list of notes): the schema leaves it out, and so does the prompt.
        #expect(!user.contains("notes.create_many"))
        #expect(user.contains("- skill files.read (query): Reads a UTF-8 text file.\n  with: path* (string, path)\n  output: content"))
        // The last step's outputs feed nothing: no output line.
        #expect(!user.contains("  output: id, title"))
        #expect(!user.contains("Now: "))
    }

    @Test func aDateTheRequestNamesIsListedAsFilledInWithoutToday() throws {
        let user = try Self.messages("summarize https://example.com/blog and remind me tomorrow at 9am to read it")
        #expect(user.contains("due = 2026-12-02T09:00:00+01:00 (filled in)"))
        #expect(!user.contains("Now: "))
    }

    @Test func anAdapterTheSchemaRequiresIsAStepAndClausesAreRedacted() throws {
        let request = "list my notes tagged work and save their titles as a note called Work titles"
        let user = try Self.messages(request)
        #expect(
            user.contains(
                "Steps in order: s1 notes.list ('list my notes tagged work'), s2 text.join (joins a list into a text), s3 notes.create ('save their titles as a note called Work titles').\n"))
        let secret = "summarize https://example.com and save it as a note"
        let skeleton = try #require(PlanSkeletonTests.skeleton(secret)).trimmed(for: secret)
        let shape = try #require(PlanSchema.shape(skeleton))
        let redacting = PromptBuilder(now: berlinClock.now, timeZone: berlinClock.timeZone, redactor: Redactor(secrets: ["example.com"]))
        let text = redacting.messages(request: secret, offers: shape.offers, shape: shape)[1].content
        #expect(text.contains("Steps in order: s1 web.summary ('summarize https://"))
        #expect(!text.contains("example.com"))
    }
}
