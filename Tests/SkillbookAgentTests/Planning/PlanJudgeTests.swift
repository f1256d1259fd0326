import Foundation
import SkillbookAgent
import SkillbookCore
import Testing

/// The plan-shaped requests of `make eval-agent` and the judge of their plans.
@Suite struct PlanJudgeTests {
    static let references: [ReferencePlan] = {
        let url = packageRoot.appendingPathComponent("Tests/SkillbookAgentTests/Fixtures/plan_requests.json")
        let text = (try? String(contentsOf: url, encoding: .utf8)) ?? "[]"
        return ((try? JSONText.decode(text))?.arrayValue ?? []).compactMap(ReferencePlan.init)
    }()

    static let reference = references[0]

    @Test func theRequestSetHasPlansInEnglishAndChineseAndDeclines() {
        #expect(Self.references.count >= 80)
        #expect(Self.references.filter(\.decline).count >= 8)
        #expect(Self.references.filter { $0.request.unicodeScalars.contains { $0.value >= 0x4E00 } }.count >= 40)
    }

    /// What the planner needs to be able to give the reference: its skills among the offers, its
    /// step count within the planner's bounds, a step for each clause the matcher is sure of. Held
    /// for the 19 requests the prompt and skeleton were written on (the first rows); for the rest
    /// of the set, `skillbook-bench agent_model` reports it per half (`…_reference_plannable`).
    @Test func everyReferencePlanPassesTheCheckerAndItsSkillsAreOffered() {
        for reference in Self.references.prefix(19) where !reference.decline {
            // Parameters the reference leaves open may be anything: fill the required ones.
            var plan = reference.plan
            for i in plan.steps.indices {
                for name in shippedOffers[plan.steps[i].target]?.required ?? [] where plan.steps[i].with[name] == nil {
                    plan.steps[i].with[name] = name == "regex" ? "[a-z]+@[a-z.]+" : "x"
                }
            }
            let checked = shippedChecker.check(plan)
            #expect(checked.passes, "\(reference.request): \(checked.diagnostics.map(\.message))")
            let why = reference.unplannable(offers: Array(shippedOffers.values), matcher: shippedMatcher, clock: berlinClock)
            #expect(why == nil, "\(reference.request): \(why ?? "")")
        }
    }

    @Test func aPlanWithTheSameSkillsValuesAndReferencesIsCorrect() throws {
        let plan = try PlanParser.parse(ChatResponse(content: #"{"steps":[{"id":"page","skill":"web.summary","with":{"url":" https://EXAMPLE.com "}},{"id":"save","skill":"notes.create","with":{"title":"${{steps.page.output.title}}","body":"x"}}]}"#))
        #expect(PlanJudge.judge(plan, against: Self.reference) == PlanJudge.Verdict(correct: true, reason: ""))
    }

    @Test func aWrongSkillOrValueOrReferenceIsNotCorrectAndSaysWhy() throws {
        func verdict(_ json: String) throws -> PlanJudge.Verdict {
            PlanJudge.judge(try PlanParser.parse(ChatResponse(content: json)), against: Self.reference)
        }
        #expect(
            try verdict(#"{"steps":[{"id":"a","skill":"web.fetch","with":{"url":"https://example.com"}},{"id":"b","skill":"notes.create","with":{"title":"x"}}]}"#).reason
                == #"skills ["web.fetch", "notes.create"], expected ["web.summary", "notes.create"]"#)
        #expect(
            try verdict(#"{"steps":[{"id":"a","skill":"web.summary","with":{"url":"https://example.org"}},{"id":"b","skill":"notes.create","with":{"title":"${{ steps.a.output.title }}"}}]}"#).reason
                == #"step 1 url: "https://example.org", expected "https://example.com""#)
        #expect(
            try verdict(#"{"steps":[{"id":"a","skill":"web.summary","with":{"url":"https://example.com"}},{"id":"b","skill":"notes.create","with":{"title":"{{ a.title }}"}}]}"#).reason
                == #"step 2 title: the literal "{{ a.title }}" where an earlier step's output belongs, expected "${{ steps.a.output.title }}""#)
        #expect(PlanJudge.judge(nil, against: Self.reference).reason == "no plan")
    }

    static func reference(_ request: String) throws -> ReferencePlan {
        try #require(references.first { $0.request == request })
    }

    static func plan(_ steps: (String, ValueObject)...) -> ModelAnswer {
        .plan(Plan(steps: steps.enumerated().map { Plan.Step(id: "step\($0.offset + 1)", target: $0.element.0, with: $0.element.1) }))
    }

    @Test func aReferenceWhereTheRequestGivesALiteralIsWrongAndTheOtherWayRound() throws {
        let pack = try Self.reference("create the folder /tmp/release and pack /tmp/project into /tmp/release/project.tar.gz")
        let wired = PlanJudge.judge(
            Self.plan(
                ("files.mkdir", ["path": "/tmp/release"]),
                ("archive.create", ["archive": "/tmp/release/project.tar.gz", "paths": ["${{ steps.step1.output.path }}"]])),
            against: pack)
        #expect(wired.reason == #"step 2 paths: the reference ["${{ steps.step1.output.path }}"] where the request gives ["/tmp/project"]"#)
        let fetch = try Self.reference("fetch https://example.com/changelog.txt and append it to /tmp/changelog.txt")
        let typed = PlanJudge.judge(
            Self.plan(
                ("web.fetch", ["url": "https://example.com/changelog.txt"]),
                ("files.write", ["path": "/tmp/changelog.txt", "content": "v2: faster start", "mode": "append"])),
            against: fetch)
        #expect(typed.reason == #"step 2 content: the literal "v2: faster start" where an earlier step's output belongs, expected "${{ steps.step1.output.text }}""#)
    }

    @Test func datesAreComparedAsInstantsAndAnInventedDateIsWrong() throws {
        let due = try Self.reference("list my reminders due before next Friday and send me a notification with them")
        let notify: (String, ValueObject) = ("notify.send", ["message": "${{ steps.step1.output.text }}"])
        // The same instant in UTC is the same date.
        #expect(PlanJudge.judge(Self.plan(("reminders.list", ["due_before": "2026-12-03T23:00:00Z"]), notify), against: due).correct)
        #expect(
            PlanJudge.judge(Self.plan(("reminders.list", ["due_before": "2026-12-05T00:00:00+01:00"]), notify), against: due).reason
                == #"step 1 due_before: "2026-12-05T00:00:00+01:00", expected "2026-12-04T00:00:00+01:00""#)
        #expect(
            PlanJudge.judge(
                Self.plan(("reminders.list", ["due_before": "2026-12-04T00:00:00+01:00", "due_on": "2026-12-03"]), notify), against: due
            ).reason == #"step 1 due_on: the date "2026-12-03", which the request does not give"#)
    }

    @Test func aDeclineIsCorrectOnlyAsAQuestion() throws {
        let decline = try #require(Self.references.first { $0.decline })
        #expect(PlanJudge.judge(.question("Which airline?"), against: decline).correct)
        let planned = PlanJudge.judge(.plan(Plan(steps: [Plan.Step(id: "a", target: "notes.create")])), against: decline)
        #expect(planned == PlanJudge.Verdict(correct: false, reason: #"planned ["notes.create"] instead of declining"#))
    }

    @Test func summariesAreCutToTheirFirstSentence() {
        let messages = berlinPrompt.messages(request: "list files", offers: offers("files.list", "notes.create"))
        #expect(messages[1].content.contains("- skill notes.create (action): Saves a new note with a title, an optional body and optional tags.\n"))
        #expect(!messages[1].content.contains("Undoing it deletes the note"))
    }
}
