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
        #expect(Self.references.count == 19)
        #expect(Self.references.filter(\.decline).count == 3)
        #expect(Self.references.filter { $0.request.unicodeScalars.contains { $0.value >= 0x4E00 } }.count >= 5)
    }

    /// The gate before the model: a request to decline has no part anything here covers, so it is
    /// declined without a model call; every request a model should plan has one, so it is planned.
    @Test func requestsToDeclineAreNotCoveredAndRequestsToPlanAre() {
        for reference in Self.references {
            let covered = shippedMatcher.decide(reference.request, clock: berlinClock).coversSomePart
            #expect(covered == !reference.decline, "\(reference.request)")
        }
    }

    @Test func everyReferencePlanPassesTheCheckerAndItsSkillsAreOffered() {
        for reference in Self.references where !reference.decline {
            // Parameters the reference leaves open may be anything: fill the required ones.
            var plan = reference.plan
            for i in plan.steps.indices {
                for name in shippedOffers[plan.steps[i].target]?.required ?? [] where plan.steps[i].with[name] == nil {
                    plan.steps[i].with[name] = name == "regex" ? "[a-z]+@[a-z.]+" : "x"
                }
            }
            let checked = shippedChecker.check(plan)
            #expect(checked.passes, "\(reference.request): \(checked.diagnostics.map(\.message))")
            let offered = PromptBuilder.choose(Array(shippedOffers.values), for: reference.request, matcher: shippedMatcher, clock: berlinClock)
                .map(\.name)
            for step in reference.steps {
                #expect(offered.contains(step.skill), "\(reference.request): \(step.skill) not in the offers \(offered)")
            }
            // What the planner demands of a model's plan, the reference meets: its step count and a
            // step for every clause the matcher is sure of.
            let least = PromptBuilder.minimumSteps(for: reference.request, matcher: shippedMatcher, clock: berlinClock)
            let most = Planner.maxSteps(for: reference.request, cap: PlanningBudget().maxSteps)
            #expect((least...most).contains(reference.steps.count), "\(reference.request): \(reference.steps.count) steps, not \(least)…\(most)")
            let sure = PromptBuilder.sureTargets(for: reference.request, matcher: shippedMatcher, clock: berlinClock).map(\.target)
            #expect(Set(sure).isSubset(of: reference.steps.map(\.skill)), "\(reference.request): \(sure)")
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
                == #"step 2 title: "{{ a.title }}", expected "${{ steps.1.output.title }}""#)
        #expect(PlanJudge.judge(nil, against: Self.reference).reason == "no plan")
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
