import SkillbookAgent
import SkillbookCore
import Synchronization
import Testing

/// Records what it ran and reports two steps of progress, then `outcome`.
final class RecordingRunner: PlanRunning {
    let outcome: RunOutcome
    let runs = Mutex<[PendingRun]>([])
    let progress = Mutex<[String]>([])

    init(_ outcome: RunOutcome) {
        self.outcome = outcome
    }

    func run(_ run: PendingRun, progress report: @escaping @Sendable (Int, Int) async -> Void) async -> RunOutcome {
        runs.withLock { $0.append(run) }
        await report(1, 2)
        await report(2, 2)
        progress.withLock { $0.append("2/2") }
        return outcome
    }
}

@MainActor @Suite struct AgentSessionTests {
    func session(_ runner: RecordingRunner) -> AgentSession {
        AgentSession(matcher: shippedMatcher, clock: { berlinClock }, runner: runner)
    }

    @Test func aRequestIsConfirmedThenRun() async {
        let runner = RecordingRunner(.succeeded(["id": "r1"]))
        let session = session(runner)
        await session.send("remind me tomorrow at 9 to call Anna")
        #expect(session.phase == .awaitingConfirmation)
        #expect(session.pending?.target == "reminders.create")
        #expect(session.messages.last?.text == #"Run skill reminders.create with {"due":"2026-12-02T09:00:00+01:00","title":"call Anna"}?"#)
        await session.confirm()
        #expect(session.phase == .finished)
        #expect(session.pending == nil)
        #expect(runner.runs.withLock { $0.map(\.inputs) } == [["due": "2026-12-02T09:00:00+01:00", "title": "call Anna"]])
        #expect(session.messages.last?.text == #"Done: {"id":"r1"}"#)
    }

    @Test func dismissingTheConfirmationKeepsThePendingRun() async {
        let runner = RecordingRunner(.succeeded(.null))
        let session = session(runner)
        await session.send("list my notes")
        session.dismiss()
        #expect(session.phase == .idle)
        #expect(session.pending?.target == "notes.list")
        await session.confirm()
        #expect(session.phase == .finished)
        #expect(runner.runs.withLock { $0.count } == 1)
    }

    @Test func aMissingInputIsAskedForFirst() async {
        let runner = RecordingRunner(.succeeded(.null))
        let session = session(runner)
        await session.send("add a reminder")
        #expect(session.phase == .awaitingInput(["title"]))
        await session.confirm()
        #expect(runner.runs.withLock { $0.isEmpty })
        session.provide("title", "buy milk")
        #expect(session.phase == .awaitingConfirmation)
        #expect(session.pending?.inputs == ["title": "buy milk"])
    }

    @Test func aFailedRunThatWasUndoneEndsRolledBack() async {
        let session = session(RecordingRunner(.rolledBack("step 'save' failed: disk full")))
        await session.send("list my notes")
        await session.confirm()
        #expect(session.phase == .rolledBack("step 'save' failed: disk full"))
        #expect(session.messages.last?.text == "Rolled back: step 'save' failed: disk full")
    }

    @Test func nothingMatchedAndAPlanWithoutAModelGoBackToIdle() async {
        let session = session(RecordingRunner(.succeeded(.null)))
        await session.send("book a flight to Paris")
        #expect(session.phase == .idle)
        #expect(session.pending == nil)
        #expect(session.messages.last?.text.hasPrefix("nothing matched this request.") == true)
        await session.send("list my notes and then send me a notification")
        #expect(session.phase == .idle)
        #expect(session.messages.last?.text == "This request needs several skills in a row, and no model is configured to plan it.")
    }

    @Test func aPlanShapedRequestIsPlannedByTheModelAndHeldForConfirmation() async {
        let model = ScriptedModel(contents: [ModelPlanningTests.good])
        let planner = Planner(client: model, checker: shippedChecker, prompt: berlinPrompt)
        let session = AgentSession(
            matcher: shippedMatcher, clock: { berlinClock }, runner: RecordingRunner(.succeeded(.null)), planner: planner,
            offers: Array(shippedOffers.values))
        await session.send("summarize https://example.com and save it as a note")
        #expect(session.phase == .awaitingConfirmation)
        #expect(session.pending?.plan?.plan.steps.map(\.target) == ["web.summary", "notes.create"])
        #expect(session.messages.last?.text == "Plan: page (web.summary) → save (notes.create). Run it?")
    }
}
