import Foundation
import SkillbookCore
import SkillbookRuntime
import SkillbookSQLite
import SkillbookSQL
import SkillbookTesting
import Testing

/// A journal whose writes of call results fail, for calls with effects or without.
private final class BrokenResults: RunRecorder {
    let inner = InMemoryRecorder()
    let failsActions: Bool

    init(failsActions: Bool) {
        self.failsActions = failsActions
    }

    struct DiskFull: Error, CustomStringConvertible {
        var description: String { "disk full" }
    }

    func runStarted(_ run: RunRecord) async throws { try inner.runStarted(run) }
    func callStarted(_ call: CallRecord) async throws { try inner.callStarted(call) }
    func callFinished(_ call: CallRecord, output: Value?, error: String?, finished: Date) async throws {
        if call.hasEffects == failsActions { throw DiskFull() }
        try inner.callFinished(call, output: output, error: error, finished: finished)
    }
    func stepFinished(
        runID: String, step: String, status: StepStatus, output: Value?, outputMasked: Bool, error: String?
    ) async throws {
        try inner.stepFinished(runID: runID, step: step, status: status, output: output, outputMasked: outputMasked, error: error)
    }
    func compensationFinished(runID: String, key: CallKey, step: String, error: String?, finished: Date) async throws {
        try inner.compensationFinished(runID: runID, key: key, step: step, error: error, finished: finished)
    }
    func runFinished(_ result: RunResult) async throws { try inner.runFinished(result) }
    func approvalRequested(_ request: ApprovalRequest) async throws { try inner.approvalRequested(request) }
}

extension EventRecorder {
    /// The kind of every `step.failed`, by step.
    var failureKinds: [String: FailureKind] {
        var kinds: [String: FailureKind] = [:]
        for case .stepFailed(let step, _, let kind, _) in events { kinds[step.description] = kind }
        return kinds
    }
}

@Suite struct FailureKindTests {
    let deleting = """
        name: cleanup
        steps:
          - { id: save, skill: notes.create, with: { title: doomed } }
          - { id: remove, skill: notes.delete, with: { ids: ["${{ steps.save.output.id }}"] } }
        """

    @Test func aTimeoutIsKindTimeout() async throws {
        let fixture = try EngineFixture()
        let result = try await fixture.run(
            """
            name: slow
            on_failure: stop
            steps:
              - { id: nap, skill: debug.sleep, timeout: 0.1, with: { seconds: 30 } }
            """)
        #expect(result.step("nap")?.failureKind == .timeout)
        #expect(result.failureKind == .timeout)
        #expect(fixture.events.failureKinds == ["nap": .timeout])
    }

    @Test func aDeclinedConfirmationIsKindDeclined() async throws {
        let fixture = try EngineFixture()
        fixture.confirmer = ScriptedConfirmer(approve: false)
        let result = try await fixture.run(deleting)
        #expect(result.status == .rolledBack)
        #expect(result.step("remove")?.error == "step needs confirmation (notes.delete has confirm): declined")
        #expect(result.step("remove")?.failureKind == .declined)
        #expect(result.failureKind == .declined)
    }

    @Test func aRefusedConfirmationIsKindRefusedAndStatesOnlyTheFact() async throws {
        let fixture = try EngineFixture()
        let result = try await fixture.run(deleting)
        #expect(result.step("remove")?.error == "step needs confirmation (notes.delete has confirm): no terminal to ask on")
        #expect(result.failureKind == .refused)
        #expect(fixture.events.failureKinds == ["remove": .refused])
        #expect(fixture.events.events.contains { event in
            if case .confirmationAnswered("remove", .refused(reason: "no terminal to ask on")) = event { return true }
            return false
        })
    }

    @Test func anInterruptedRunIsKindInterrupted() async throws {
        let fixture = try EngineFixture()
        let playbook = try fixture.load(
            """
            name: interrupted
            steps:
              - { id: nap, skill: debug.sleep, with: { seconds: 600 } }
            """)
        let engine = fixture.engine
        let events = fixture.events
        let task = Task { await engine.run(playbook, inputs: ValueObject(), onEvent: events.handler) }
        while !events.types.contains("step.started") { try await Task.sleep(nanoseconds: 1_000_000) }
        task.cancel()
        let result = await task.value
        #expect(result.interrupted)
        #expect(result.step("nap")?.failureKind == .interrupted)
        #expect(result.failureKind == .interrupted)
    }

    @Test func aValueBreakingTheSchemaIsKindValidation() async throws {
        let fixture = try EngineFixture()
        let result = try await fixture.run(
            """
            name: bad
            on_failure: stop
            steps:
              - { id: a, skill: debug.echo, with: { value: [1, 2] } }
              - { id: save, skill: notes.create, with: { title: "${{ steps.a.output.value }}" } }
            """)
        #expect(result.step("save")?.error == "parameter 'title' expects string, got array")
        #expect(result.step("save")?.failureKind == .validation)
    }

    @Test func aLostResultOfAnActionFailsTheRunAsAJournalFailureAndIsUndone() async throws {
        let fixture = try EngineFixture()
        fixture.recorder = BrokenResults(failsActions: true)
        let result = try await fixture.run(
            """
            name: unrecorded
            steps:
              - { id: save, skill: notes.create, with: { title: unrecorded } }
            """)
        #expect(result.status == .rolledBack)
        #expect(result.failureKind == .journal)
        #expect(result.step("save")?.error?.hasPrefix("the journal could not record the result of save: disk full") == true)
        #expect(try fixture.notes.list(tag: nil, limit: 10).isEmpty, "the note the journal lost is undone")
    }

    @Test func theJournalKeepsTheKindOfTheRunsAndTheStepsFailure() async throws {
        let fixture = try EngineFixture()
        let journal = try SQLiteJournal(stateDirectory: fixture.state)
        fixture.recorder = journal
        let result = try await fixture.run(deleting)
        #expect(result.failureKind == .refused)
        let database = try StateDatabase.openSeparately(stateDirectory: fixture.state)
        let row = try #require(try database.query("SELECT failure_kind, report FROM runs WHERE id = ?1", [.text(result.runID)]).first)
        #expect(row.string("failure_kind") == "refused")
        let text = try #require(row.string("report"))
        let report = try #require(try JSONText.decode(text).arrayValue)
        #expect(report.map { $0["failure_kind"] } == [nil, .string("refused")])
    }

    @Test func aLostResultOfAQueryIsOnlyAWarning() async throws {
        let fixture = try EngineFixture()
        fixture.recorder = BrokenResults(failsActions: false)
        let result = try await fixture.run(
            """
            name: looked
            steps:
              - { id: look, skill: notes.list, with: {} }
            """)
        #expect(result.status == .succeeded)
        let warnings = fixture.events.events.compactMap { event -> RunWarning? in
            if case .warning(let warning) = event { return warning }
            return nil
        }
        #expect(warnings == [RunWarning(step: "look", message: "the journal could not record the result of look: disk full")])
    }
}
