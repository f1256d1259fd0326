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

/// The agent flow over the shipped skills and playbooks, at `berlinClock`.
func shippedFlow(_ runner: any PlanRunning, planner: Planner? = nil) -> AgentFlow {
    var planning: (@Sendable (Matcher.ReferenceTime) -> Planner)?
    if let planner { planning = { @Sendable _ in planner } }
    return AgentFlow(
        matcher: shippedMatcher, checker: { _ in shippedChecker }, planner: planning, offers: Array(shippedOffers.values),
        runner: runner)
}

@MainActor @Suite struct AgentSessionTests {
    func session(_ runner: RecordingRunner) -> AgentSession {
        AgentSession(flow: shippedFlow(runner), clock: { berlinClock })
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
        await session.send("remind me tomorrow at 9 to call Anna")
        await session.dismiss()
        #expect(session.phase == .idle)
        #expect(session.pending?.target == "reminders.create")
        #expect(session.messages.last?.text == "Not run. Say y to run it after all, or ask for something else.")
        #expect(runner.runs.withLock { $0.isEmpty })
        await session.confirm()
        #expect(session.phase == .finished)
        #expect(runner.runs.withLock { $0.count } == 1)
    }

    /// A read-only query is not confirmed (as in `ask`): it runs once understood.
    @Test func aQueryRunsWithoutAConfirmation() async {
        let runner = RecordingRunner(.succeeded(["notes": []]))
        let session = session(runner)
        await session.send("list my notes")
        #expect(session.phase == .finished)
        #expect(runner.runs.withLock { $0.map(\.target) } == ["notes.list"])
        #expect(session.messages.map(\.text).suffix(2) == ["Running skill notes.list with {}.", #"Done: {"notes":[]}"#])
    }

    @Test func aMissingInputIsAskedForFirst() async {
        let runner = RecordingRunner(.succeeded(.null))
        let session = session(runner)
        await session.send("add a reminder")
        #expect(session.phase == .awaitingInput(["title"]))
        await session.confirm()
        #expect(runner.runs.withLock { $0.isEmpty })
        await session.provide("buy milk")
        #expect(session.phase == .awaitingConfirmation)
        #expect(session.pending?.inputs == ["title": "buy milk"])
        #expect(session.messages.map(\.role).suffix(2) == [.user, .agent])
    }

    /// Issue 27 item 7: an answer that does not fit the input's schema is asked for again, before
    /// anything is confirmed or run.
    @Test func anAnswerThatDoesNotFitItsSchemaIsAskedForAgain() async {
        let runner = RecordingRunner(.succeeded(["slept": 0]))
        let session = session(runner)
        await session.send("pause for a minute")
        #expect(session.phase == .awaitingInput(["seconds"]))
        await session.provide("y")
        #expect(session.phase == .awaitingInput(["seconds"]))
        #expect(
            session.messages.last?.text
                == "'y' does not fit: expects number, got string. What should 'seconds' be (How long to wait, in seconds.)?")
        #expect(runner.runs.withLock { $0.isEmpty })
        await session.provide("5000")
        #expect(session.messages.last?.text.hasPrefix("'5000' does not fit: ") == true)
        await session.provide("0")
        #expect(session.phase == .finished)
        #expect(runner.runs.withLock { $0.map(\.inputs) } == [["seconds": 0]])
    }

    @Test func aNewRequestReplacesAnOpenQuestion() async {
        let runner = RecordingRunner(.succeeded(.null))
        let session = session(runner)
        await session.send("add a reminder")
        await session.send("remind me tomorrow at 9 to call Anna")
        #expect(session.phase == .awaitingConfirmation)
        #expect(session.pending?.target == "reminders.create")
        #expect(session.pending?.inputs["title"] == "call Anna")
        await session.confirm()
        #expect(runner.runs.withLock { $0.count } == 1)
    }

    @Test func anEmptyRequestIsSaidToBeEmpty() async {
        let session = session(RecordingRunner(.succeeded(.null)))
        await session.send("  ")
        #expect(session.phase == .idle)
        #expect(session.messages.last?.text == "The request is empty: say what you want, e.g. \"list my notes\".")
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
        let session = AgentSession(flow: shippedFlow(RecordingRunner(.succeeded(.null)), planner: planner), clock: { berlinClock })
        await session.send("summarize https://example.com and save it as a note")
        #expect(session.phase == .awaitingConfirmation)
        #expect(session.pending?.plan?.plan.steps.map(\.target) == ["web.summary", "notes.create"])
        #expect(session.messages.last?.text == "Plan: page (web.summary) → save (notes.create). Run it?")
    }
}
