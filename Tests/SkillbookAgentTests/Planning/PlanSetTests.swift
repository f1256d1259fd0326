import Foundation
import SkillbookAgent
import SkillbookCore
import SkillbookTesting
import Testing

/// `Fixtures/plan_requests.json`, the plan requests of `make eval-agent` with their reference plans,
/// in the routing set's two seeded halves (`ReferencePlan.half`). Without a model: every request to
/// plan reaches the planner through the flow `ask` runs (not a lone skill), every request to decline
/// is declined before a model is asked, and every reference plan passes the checker and its own
/// executing judge. A row marked `known` must still fail (a fix that makes it pass removes the mark).
struct PlanSetRow: Sendable, CustomTestStringConvertible {
    var reference: ReferencePlan
    var testDescription: String { "[\(reference.half.rawValue)] \(reference.request)" }

    static let all = PlanJudgeTests.references.map(PlanSetRow.init)
    static let plans = all.filter { !$0.reference.decline }
}

/// One executing judge for the suite: its web pages are served once.
let sharedRunJudge: PlanRunJudge = try! PlanRunJudge(skills: packageRoot.appendingPathComponent("Skills"), clock: berlinClock)

@Suite struct PlanSetTests {
    @Test func theSetIsLargeHalfChineseWithDeclinesAndTwoToFourSteps() {
        let references = PlanJudgeTests.references
        #expect(references.count >= 80)
        let chinese = references.filter { isChinese($0.request) }
        #expect(Double(chinese.count) / Double(references.count) >= 0.48)
        #expect(references.filter(\.decline).count >= 8)
        #expect(Set(references.map(\.request)).count == references.count, "a request is written twice")
        for reference in references where !reference.decline {
            #expect((2...4).contains(reference.steps.count), "\(reference.request)")
        }
        let tuning = references.filter { $0.half == .tuning }.count
        #expect(tuning > references.count * 2 / 5 && tuning < references.count * 3 / 5)
    }

    /// As `ask --explain --json` with a model configured: the flow asks the planner (here a model
    /// that only asks back), or declines a request nothing here covers without asking it.
    @Test(arguments: PlanSetRow.all)
    func reachesThePlannerOrIsDeclined(_ row: PlanSetRow) async throws {
        let reference = row.reference
        let planner = Planner(
            client: ScriptedModel(contents: [#"{"question": "Which one?"}"#, #"{"question": "Which one?"}"#]),
            checker: shippedChecker, prompt: berlinPrompt)
        let probe = PlanningProbe()
        let result = try await shippedFlow(RecordingRunner(.succeeded(.null)), planner: planner).respond(
            to: reference.request, clock: berlinClock, options: AgentFlow.Options(decideOnly: true), asking: probe)
        let right: Bool
        if reference.decline {
            if case .outOfScope = result.outcome { right = true } else { right = false }
        } else {
            right = probe.reachedPlanner
        }
        let got = "\(result.outcome) (matcher: \(RoutingSet.describe(shippedMatcher.decide(reference.request, clock: berlinClock))))"
        if let known = reference.known {
            #expect(!right, "marked known (\(known)) but now \(reference.decline ? "declined" : "planned"): remove the mark")
        } else {
            #expect(right, "\(reference.decline ? "not declined" : "never reaches the planner"): \(got)")
        }
    }

    @Test(arguments: PlanSetRow.plans)
    func theReferencePassesTheCheckerAndItsOwnExecutingJudge(_ row: PlanSetRow) async {
        let reference = row.reference
        let plan = sharedRunJudge.filled(reference.plan)
        let checked = shippedChecker.check(plan)
        #expect(checked.passes, "\(checked.diagnostics.map(\.message))")
        let verdict = await sharedRunJudge.judge(.plan(plan), against: reference)
        #expect(verdict.correct, "\(verdict.reason)")
        #expect(verdict.ran || reference.steps.contains { PlanRunJudge.notRun.contains($0.skill) })
    }
}
