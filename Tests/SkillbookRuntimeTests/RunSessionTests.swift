import Foundation
import SkillbookCore
import SkillbookRuntime
import SkillbookSQLite
import SkillbookTesting
import Testing

/// A session fed a run, with the phase after every event.
@MainActor
private final class Watched {
    let session: RunSession
    var phases: [RunSession.Phase] = []
    var events: [RunEvent] = []

    init(_ session: RunSession) {
        self.session = session
    }

    func apply(_ event: RunEvent) {
        events.append(event)
        session.apply(event)
        if phases.last != session.phase { phases.append(session.phase) }
    }

    func consume(_ handle: RunHandle) async -> RunResult {
        for await event in handle.events { apply(event) }
        return await handle.result.value
    }

    var states: [String: StepRow.State] {
        Dictionary(uniqueKeysWithValues: session.steps.map { ($0.id.description, $0.state) })
    }
}

/// A skill taking `items` (at most 10 a call): the engine splits longer lists into batches.
private func batchedSkill(calls: Recorder<Int> = Recorder()) -> ClosureSkill {
    ClosureSkill.action(
        "test.batched", parameters: .object(["items": .array(.integer(), maxItems: 10)], required: ["items"]),
        run: { parameters, _ in
            guard case .array(let items)? = parameters["items"] else { throw SkillError("no items") }
            calls.append(items.count)
            return ["count": .int(items.count)]
        },
        compensate: { _ in })
}

private func thirtyFive() -> String {
    "[" + (1...35).map(String.init).joined(separator: ", ") + "]"
}

@Suite @MainActor struct RunSessionTests {
    @Test func rowsArePendingFromThePlaybookBeforeTheRunStarts() throws {
        let fixture = try EngineFixture(extra: [batchedSkill()])
        let playbook = try fixture.load(
            """
            name: seeded
            steps:
              - { id: first, skill: debug.echo, with: { value: 1 } }
              - { id: many, skill: test.batched, with: { items: [1, 2] } }
            """)
        let session = RunSession(playbook: playbook)
        #expect(session.phase == .idle)
        #expect(session.playbookName == "seeded")
        #expect(session.steps.map(\.id) == ["first", "many"])
        #expect(session.steps.map(\.target) == [.skill("debug.echo"), .skill("test.batched")])
        #expect(session.steps.allSatisfy { $0.state == .pending && $0.attempt == 0 })
        #expect(session.result == nil)
    }

    @Test func aRealRunGoesThroughItsPhasesInOrderWithBatchProgress() async throws {
        let calls = Recorder<Int>()
        let fixture = try EngineFixture(extra: [batchedSkill(calls: calls)])
        let playbook = try fixture.load(
            """
            name: phases
            steps:
              - { id: first, skill: debug.echo, with: { value: hello } }
              - { id: many, skill: test.batched, with: { items: \(thirtyFive()) } }
              - { id: save, skill: notes.create, with: { title: "${{ steps.first.output.value }}" } }
            outputs:
              counts: "${{ steps.many.output.batches.*.count }}"
            """)
        let watched = Watched(RunSession(playbook: playbook))
        let result = await watched.consume(fixture.engine.events(playbook, inputs: ValueObject()))

        #expect(result.status == .succeeded)
        #expect(calls.values == [10, 10, 10, 5])
        #expect(
            watched.phases == [
                .running(step: "first", completed: nil, total: nil),
                .running(step: "many", completed: nil, total: nil),
                .running(step: "many", completed: 0, total: 4),
                .running(step: "many", completed: 1, total: 4),
                .running(step: "many", completed: 2, total: 4),
                .running(step: "many", completed: 3, total: 4),
                .running(step: "many", completed: 4, total: 4),
                .running(step: "save", completed: nil, total: nil),
                .finished(.succeeded, interrupted: false),
            ])
        let session = watched.session
        let many = try #require(session.row("many"))
        #expect(many.completed == 4 && many.total == 4)
        #expect(many.state == .succeeded)
        #expect(many.attempt == 1)
        #expect(many.duration != nil)
        #expect(session.steps.map(\.state) == [.succeeded, .succeeded, .succeeded])
        #expect(session.row("first")?.output == ["value": "hello"])
        #expect(session.outputs["counts"] == [10, 10, 10, 5])
        #expect(session.result?.runID == result.runID)
        #expect(session.runID == result.runID)
        #expect(session.log.map(\.description).first == "▶ phases (run \(result.runID))")
        #expect(session.log.map(\.description).last?.hasPrefix("phases succeeded in ") == true)
        #expect(session.isFinished)
        #expect(watched.events.last?.type == "run.finished")
    }

    @Test func consumeReturnsAfterRunFinished() async throws {
        let fixture = try EngineFixture(extra: [batchedSkill()])
        let playbook = try fixture.load(
            """
            name: consumed
            steps:
              - { id: many, skill: test.batched, with: { items: \(thirtyFive()) } }
            """)
        let session = RunSession(playbook: playbook)
        let handle = fixture.engine.events(playbook, inputs: ValueObject())
        await session.consume(handle.events)
        #expect(session.phase == .finished(.succeeded, interrupted: false))
        #expect(session.row("many")?.completed == 4)
        #expect(await handle.result.value.status == .succeeded)
    }

    @Test func anApprovedConfirmationIsAPhaseOfItsOwn() async throws {
        let fixture = try EngineFixture()
        let playbook = try fixture.load(
            """
            name: confirmed
            steps:
              - { id: save, skill: notes.create, with: { title: doomed } }
              - { id: drop, skill: notes.delete, with: { ids: ["${{ steps.save.output.id }}"] } }
            """)
        fixture.confirmer = ApprovingConfirmer()
        let engine = fixture.engine
        let watched = Watched(RunSession(playbook: playbook))
        let result = await watched.consume(engine.events(playbook, inputs: ValueObject()))
        #expect(result.status == .succeeded)
        let asked = watched.phases.compactMap { phase -> ConfirmationRequest? in
            if case .awaitingConfirmation(let request) = phase { return request }
            return nil
        }
        #expect(asked.map(\.step) == ["drop"])
        #expect(asked.first?.skill == "notes.delete")
        #expect(asked.first?.calls == 1)
        #expect(
            Array(watched.phases.suffix(3)) == [
                .awaitingConfirmation(try #require(asked.first)),
                .running(step: "drop", completed: nil, total: nil),
                .finished(.succeeded, interrupted: false),
            ])
        #expect(watched.session.log.map(\.description).contains("? drop (notes.delete) asks for confirmation"))
        #expect(watched.session.log.map(\.description).contains("✓ approved: drop"))
        #expect(try fixture.notes.list(tag: nil, limit: 10).isEmpty)
    }

    /// Runs `drop` (which asks) with the session as the confirmer, answering as `respond` says.
    private func driven(_ respond: @MainActor (RunSession) -> Void) async throws -> (RunSession, RunResult, EngineFixture) {
        let fixture = try EngineFixture()
        let playbook = try fixture.load(
            """
            name: driven
            steps:
              - { id: save, skill: notes.create, with: { title: maybe } }
              - { id: drop, skill: notes.delete, with: { ids: ["${{ steps.save.output.id }}"] } }
            """)
        let session = RunSession(playbook: playbook)
        fixture.confirmer = session.confirmer
        let handle = fixture.engine.events(playbook, inputs: ValueObject())
        for await event in handle.events {
            session.apply(event)
            if session.pendingConfirmation != nil { respond(session) }
        }
        return (session, await handle.result.value, fixture)
    }

    @Test func approvingThroughTheSessionRunsTheStep() async throws {
        let (session, result, fixture) = try await driven { $0.approve() }
        #expect(result.status == .succeeded)
        #expect(session.row("drop")?.state == .succeeded)
        #expect(session.log.map(\.description).contains("✓ approved: drop"))
        #expect(try fixture.notes.list(tag: nil, limit: 10).isEmpty)
    }

    @Test func decliningThroughTheSessionFailsTheStepAndRollsBack() async throws {
        let (session, result, fixture) = try await driven { $0.decline(reason: "not today") }
        #expect(result.status == .rolledBack)
        #expect(session.row("drop")?.error == "step needs confirmation (notes.delete has confirm): not today")
        #expect(session.row("save")?.state == .compensated)
        #expect(session.log.map(\.description).contains("✗ not approved: drop"))
        #expect(try fixture.notes.list(tag: nil, limit: 10).isEmpty)
    }

    @Test func anAnswerWithNothingPendingDoesNothing() async throws {
        let session = RunSession()
        session.approve()
        #expect(session.phase == .idle)
        #expect(!session.confirmer.isWaiting(for: "drop"))
    }

    @Test func aRefusedConfirmationRollsBack() async throws {
        let fixture = try EngineFixture()
        let playbook = try fixture.load(
            """
            name: refused
            steps:
              - { id: save, skill: notes.create, with: { title: undone } }
              - { id: drop, skill: notes.delete, with: { ids: ["${{ steps.save.output.id }}"] } }
            """)
        let watched = Watched(RunSession(playbook: playbook))
        let result = await watched.consume(fixture.engine.events(playbook, inputs: ValueObject()))
        #expect(result.status == .rolledBack)
        #expect(
            Array(watched.phases.suffix(4)).map(\.name) == ["awaitingConfirmation", "rollingBack", "rollingBack", "finished"])
        #expect(watched.phases.suffix(3).first == .rollingBack(step: nil))
        #expect(watched.phases.suffix(2).first == .rollingBack(step: "save"))
        #expect(watched.states == ["save": .compensated, "drop": .failed])
        #expect(watched.session.row("drop")?.error?.contains("needs confirmation") == true)
        #expect(watched.session.log.map(\.description).contains("✗ not approved: drop"))
    }

    @Test func aRollbackMarksEveryUndoneStepCompensated() async throws {
        let fixture = try EngineFixture(extra: [batchedSkill()])
        let notes = (1...120).map { "{ title: \"note \($0)\" }" }.joined(separator: ", ")
        let playbook = try fixture.load(
            """
            name: undone
            steps:
              - { id: look, skill: notes.list }
              - { id: many, skill: notes.create_many, with: { notes: [\(notes)] } }
              - { id: items, skill: test.batched, with: { items: \(thirtyFive()) } }
              - { id: boom, skill: debug.fail, with: { message: "it broke" } }
              - { id: never, skill: debug.echo, with: { value: 1 } }
            """)
        let watched = Watched(RunSession(playbook: playbook))
        let result = await watched.consume(fixture.engine.events(playbook, inputs: ValueObject()))
        #expect(result.status == .rolledBack)
        #expect(try fixture.notes.list(tag: nil, limit: 200).isEmpty)
        #expect(
            watched.states == ["look": .succeeded, "many": .compensated, "items": .compensated, "boom": .failed, "never": .pending])
        let session = watched.session
        #expect(session.row("many")?.total == 3)
        #expect(session.row("many")?.undone == 3)
        #expect(session.row("items")?.undone == 4)
        #expect(session.row("boom")?.error == "it broke")
        let rollback = watched.phases.filter { $0.name == "rollingBack" }
        #expect(rollback.first == .rollingBack(step: nil))
        #expect(rollback.last == .rollingBack(step: "many"))
        #expect(rollback.dropFirst().allSatisfy { $0 == .rollingBack(step: "items") || $0 == .rollingBack(step: "many") })
        #expect(session.phase == .finished(.rolledBack, interrupted: false))
        #expect(session.log.map(\.description).contains("↶ undoing many"))
    }

    @Test func cancellingTheHandleInterruptsTheRun() async throws {
        let fixture = try EngineFixture()
        let playbook = try fixture.load(
            """
            name: interrupted
            steps:
              - { id: save, skill: notes.create, with: { title: undone on interrupt } }
              - { id: nap, skill: debug.sleep, with: { seconds: 600 } }
            """)
        let session = RunSession(playbook: playbook)
        let handle = fixture.engine.events(playbook, inputs: ValueObject())
        for await event in handle.events {
            session.apply(event)
            if session.row("nap")?.state == .running { handle.cancel() }
        }
        #expect(session.phase == .finished(.rolledBack, interrupted: true))
        #expect(session.row("save")?.state == .compensated)
        #expect(session.row("nap")?.state == .failed)
        #expect(await handle.result.value.exitCode == 130)
        #expect(try fixture.notes.list(tag: nil, limit: 10).isEmpty)
    }

    @Test func aDryRunPlansActionsAndRunsQueries() async throws {
        let fixture = try EngineFixture()
        let playbook = try fixture.load(
            """
            name: planned
            steps:
              - { id: look, skill: notes.list }
              - { id: save, skill: notes.create, with: { title: only planned } }
            """)
        let session = RunSession(playbook: playbook)
        await session.consume(fixture.engine.events(playbook, inputs: ValueObject(), dryRun: true).events)
        #expect(session.isDryRun)
        #expect(session.row("look")?.state == .succeeded)
        #expect(session.row("look")?.plan?.ran == true)
        #expect(session.row("save")?.state == .planned)
        #expect(session.row("save")?.plan?.parameters?["title"] == "only planned")
        #expect(session.phase == .finished(.succeeded, interrupted: false))
        #expect(try fixture.notes.list(tag: nil, limit: 10).isEmpty)
    }

    @Test func subPlaybookStepsAppearUnderTheirParentAndShareItsRollback() throws {
        let session = RunSession()
        let start = Date(timeIntervalSince1970: 1_000)
        session.apply(.runStarted(runID: "r1", playbook: "outer", inputs: ValueObject()))
        session.apply(.stepStarted(step: "a", target: .skill("debug.echo"), attempt: 1, parameters: ValueObject()))
        session.apply(.stepSucceeded(step: "a", output: .null, duration: 0.5))
        session.apply(.stepStarted(step: "sub", target: .playbook("inner"), attempt: 1, parameters: ValueObject()))
        session.apply(.stepStarted(step: "sub/x", target: .skill("notes.create"), attempt: 1, parameters: ValueObject()))
        session.apply(.stepSucceeded(step: "sub/x", output: .null, duration: 0.1))
        session.apply(.stepStarted(step: "sub/y", target: .skill("test.stuck"), attempt: 1, parameters: ValueObject()))
        session.apply(.stepSucceeded(step: "sub/y", output: .null, duration: 0.1))
        session.apply(.stepSucceeded(step: "sub", output: .null, duration: 0.3))
        session.apply(.stepStarted(step: "boom", target: .skill("debug.fail"), attempt: 1, parameters: ValueObject()))
        session.apply(.stepFailed(step: "boom", error: "broke", kind: .skill, willContinue: false))
        #expect(session.phase == .running(step: "boom", completed: nil, total: nil), "only the engine says a rollback starts")
        session.apply(.rollbackStarted)
        #expect(session.steps.map(\.id) == ["a", "sub", "sub/x", "sub/y", "boom"])
        #expect(session.steps.map(\.depth) == [0, 0, 1, 1, 0])
        #expect(session.row("sub/x")?.parent == "sub")
        #expect(session.phase == .rollingBack(step: nil), "the playbook's default policy is rollback")

        session.apply(.compensationStarted(step: "sub/y"))
        #expect(session.phase == .rollingBack(step: "sub/y"))
        session.apply(.compensationFailed(step: "sub/y", error: "the undo broke"))
        session.apply(.compensationStarted(step: "sub/x"))
        session.apply(.compensationSucceeded(step: "sub/x"))
        session.apply(.compensationStarted(step: "a"))
        session.apply(.compensationSucceeded(step: "a"))
        #expect(session.row("sub/x")?.state == .compensated)
        #expect(session.row("sub/y")?.state == .notCompensated)
        #expect(session.row("sub")?.state == .notCompensated, "one child left done keeps the parent done")
        #expect(session.row("sub")?.compensationError == "y: the undo broke")

        var reports = [StepReport(id: "a", skill: "debug.echo", status: .compensated)]
        reports.append(StepReport(id: "sub", skill: "playbook:inner", status: .notCompensated))
        reports[1].compensationError = "y: the undo broke"
        reports.append(StepReport(id: "boom", skill: "debug.fail", status: .failed))
        reports[2].error = "broke"
        session.apply(
            .runFinished(
                RunResult(
                    runID: "r1", playbook: "outer", status: .rollbackIncomplete, steps: reports,
                    error: "step 'boom' failed: broke", started: start, finished: start.addingTimeInterval(2))))
        #expect(session.phase == .finished(.rollbackIncomplete, interrupted: false))
        #expect(session.steps.map(\.state) == [.compensated, .notCompensated, .compensated, .notCompensated, .failed])
        #expect(session.log.map(\.description).suffix(2) == ["outer rollback_incomplete in 2.00s", "step 'boom' failed: broke"])
    }

    @Test func progressFromConcurrentBatchesNeverGoesBackwards() {
        let session = RunSession()
        session.apply(.runStarted(runID: "r", playbook: "p", inputs: ValueObject()))
        session.apply(.stepStarted(step: "s", target: .skill("x.y"), attempt: 1, parameters: ValueObject()))
        session.apply(.stepProgress(step: "s", completed: 3, total: 25, unit: .iterations))
        session.apply(.stepProgress(step: "s", completed: 2, total: 25, unit: .iterations))
        #expect(session.row("s")?.completed == 3)
        #expect(session.phase == .running(step: "s", completed: 3, total: 25))
        session.apply(.stepRetrying(step: "s", attempt: 1, error: "flaky", delay: 0.5))
        #expect(session.row("s")?.attempt == 2)
        #expect(session.log.map(\.description).last == "↻ s attempt 1 failed: flaky; retrying in 0.5s")
    }

    @Test func aContinuingFailureKeepsTheRunRunning() throws {
        let fixture = try EngineFixture()
        let playbook = try fixture.load(
            """
            name: goes-on
            steps:
              - { id: boom, skill: debug.fail, on_failure: continue, with: { message: "disk on fire" } }
              - { id: after, skill: debug.echo, with: { value: 1 } }
            """)
        let session = RunSession(playbook: playbook)
        session.apply(.runStarted(runID: "r", playbook: "goes-on", inputs: ValueObject()))
        session.apply(.stepStarted(step: "boom", target: .skill("debug.fail"), attempt: 1, parameters: ValueObject()))
        session.apply(.stepFailed(step: "boom", error: "disk on fire", kind: .skill, willContinue: true))
        #expect(session.phase == .running(step: "boom", completed: nil, total: nil))
        #expect(session.log.map(\.description).last == "✗ boom: disk on fire (continuing)")
    }

    @Test func elapsedTimeComesFromTheSessionsClock() {
        let clock = ManualClock(Date(timeIntervalSince1970: 100))
        let session = RunSession(clock: clock)
        session.apply(.stepStarted(step: "s", target: .skill("x.y"), attempt: 1, parameters: ValueObject()))
        clock.advance(2.5)
        #expect(session.row("s")?.elapsed(at: clock.now()) == 2.5)
        session.apply(.stepSucceeded(step: "s", output: .null, duration: 3))
        #expect(session.row("s")?.elapsed(at: clock.now()) == 3)
    }
}

extension RunSession.Phase {
    /// The case's name, for asserting on sequences without their payloads.
    fileprivate var name: String {
        switch self {
        case .idle: "idle"
        case .running: "running"
        case .awaitingConfirmation: "awaitingConfirmation"
        case .rollingBack: "rollingBack"
        case .finished: "finished"
        }
    }
}
