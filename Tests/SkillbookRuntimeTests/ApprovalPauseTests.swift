import Foundation
import SkillbookCore
import SkillbookRuntime
import SkillbookSQLite
import SkillbookTesting
import Testing

/// A confirmation answered `awaitApproval` (nobody to ask now, someone can decide later) stops
/// the run there: status `waiting`, a request recorded, nothing rolled back.
@Suite struct ApprovalPauseTests {
    static let playbook = """
        name: cleanup
        approval: { timeout: 4h }
        inputs:
          ids: { type: array, items: { type: string } }
        steps:
          - id: marker
            skill: notes.create
            with: { title: "made before", body: "" }
          - id: remove
            skill: notes.delete
            approval: { timeout: 30m }
            with: { ids: "${{ inputs.ids }}" }
          - id: after
            skill: notes.create
            with: { title: "made after", body: "" }
        """

    @Test func aConfirmationNobodyCanAnswerStopsTheRunWithoutRollingBack() async throws {
        let fixture = try EngineFixture()
        let recorder = InMemoryRecorder()
        fixture.recorder = recorder
        fixture.confirmer = WaitingConfirmer()
        let note = try fixture.notes.create(title: "Old list", body: "", tags: [])
        let result = try await fixture.run(Self.playbook, inputs: ["ids": [.string(note.id)]])

        #expect(result.status == .waiting)
        #expect(result.status.exitCode(interrupted: false) == 4)
        #expect(result.error == nil)
        #expect(result.step("marker")?.status == .succeeded, "the completed step is kept, not compensated")
        #expect(result.step("remove")?.status == .notRun)
        #expect(result.step("after")?.status == .notRun)
        #expect(try fixture.snapshot().map(\.title).sorted() == ["Old list", "made before"])
        let request = try #require(result.approval)
        #expect(request.step == "remove")
        #expect(request.key == CallKey(step: "remove", batch: 0), "its first batch")
        #expect(request.skill == "notes.delete")
        #expect(request.parameters == ["ids": [.string(note.id)]])
        #expect(request.touches == CallPreview(noun: "notes", items: ["Old list (\(note.id))"]))
        #expect(request.expires.timeIntervalSince(request.requested) == 1800, "the step's timeout over the playbook's")
        #expect(recorder.contents.approvals == [request], "recorded before the run's end")
        #expect(recorder.contents.results.map(\.status) == [.waiting])
        #expect(fixture.events.types.suffix(2) == ["run.waiting", "run.finished"])
        #expect(!fixture.events.types.contains("rollback.started"))
    }

    @Test func thePlaybooksTimeoutAppliesWhenTheStepHasNoneAndTheDefaultIs24Hours() async throws {
        let fixture = try EngineFixture()
        fixture.confirmer = WaitingConfirmer()
        let own = try await fixture.run(Self.playbook.replacingOccurrences(of: "    approval: { timeout: 30m }\n", with: ""), inputs: ["ids": ["gone"]])
        let playbooks = try #require(own.approval)
        #expect(playbooks.expires.timeIntervalSince(playbooks.requested) == 4 * 3600)
        let none = try await fixture.run(
            Self.playbook.replacingOccurrences(of: "    approval: { timeout: 30m }\n", with: "").replacingOccurrences(
                of: "approval: { timeout: 4h }\n", with: ""), inputs: ["ids": ["gone"]])
        let standard = try #require(none.approval)
        #expect(standard.expires.timeIntervalSince(standard.requested) == 86_400)
    }

    @Test func aStepInsideASubPlaybookWaitsWithItsPath() async throws {
        let fixture = try EngineFixture()
        fixture.confirmer = WaitingConfirmer()
        fixture.library["purge"] = """
            name: purge
            steps:
              - { id: remove, skill: notes.delete, with: { ids: [gone] } }
            """
        let result = try await fixture.run(
            """
            name: outer
            steps:
              - { id: first, skill: notes.create, with: { title: "t", body: "" } }
              - { id: tidy, playbook: purge }
            """)
        #expect(result.status == .waiting)
        #expect(result.approval?.step == StepPath(["tidy", "remove"]))
        #expect(result.step("first")?.status == .succeeded)
    }

    @Test func aDecidedStepIsNotAskedAgainAndAnotherStillWaits() async throws {
        let fixture = try EngineFixture()
        fixture.confirmer = DecidedConfirmer(decided: ["remove": .approved], base: WaitingConfirmer())
        let note = try fixture.notes.create(title: "Old list", body: "", tags: [])
        let result = try await fixture.run(
            Self.playbook + "\n  - { id: again, skill: notes.delete, with: { ids: [gone] } }\n", inputs: ["ids": [.string(note.id)]])
        #expect(result.step("remove")?.status == .succeeded)
        #expect(result.status == .waiting)
        #expect(result.approval?.step == "again")
        #expect(try fixture.snapshot().map(\.title).sorted() == ["made after", "made before"])
    }

    @Test func aDeclinedDecisionFailsTheStepAsDeclinedAndRollsBack() async throws {
        let fixture = try EngineFixture()
        fixture.confirmer = DecidedConfirmer(decided: ["remove": .declined(reason: "declined by ada@desk")], base: WaitingConfirmer())
        let note = try fixture.notes.create(title: "Old list", body: "", tags: [])
        let result = try await fixture.run(Self.playbook, inputs: ["ids": [.string(note.id)]])
        #expect(result.status == .rolledBack)
        #expect(result.failureKind == .declined)
        #expect(result.step("remove")?.error == "step needs confirmation (notes.delete has confirm): declined by ada@desk")
        #expect(try fixture.snapshot().map(\.title) == ["Old list"])
    }

    @Test func confirmFalseStillRunsWithoutWaiting() async throws {
        let fixture = try EngineFixture()
        fixture.confirmer = WaitingConfirmer()
        let note = try fixture.notes.create(title: "Old list", body: "", tags: [])
        let result = try await fixture.run(
            Self.playbook.replacingOccurrences(of: "    approval: { timeout: 30m }\n", with: "    confirm: false\n"),
            inputs: ["ids": [.string(note.id)]])
        #expect(result.status == .succeeded)
        #expect(result.approval == nil)
    }

    @Test func aRequestTheJournalCannotRecordFailsTheRunInstead() async throws {
        let fixture = try EngineFixture()
        fixture.recorder = UnrecordableApprovals()
        fixture.confirmer = WaitingConfirmer()
        let result = try await fixture.run(Self.playbook, inputs: ["ids": ["gone"]])
        #expect(result.status == .rolledBack)
        #expect(result.failureKind == .journal)
        #expect(result.error == "the approval request of step 'remove' could not be recorded")
        #expect(try fixture.snapshot().isEmpty, "the completed step was undone")
    }
}

/// A journal whose approval requests cannot be written.
private final class UnrecordableApprovals: RunRecorder {
    let inner = InMemoryRecorder()
    struct DiskFull: Error {}
    func runStarted(_ run: RunRecord) async throws { try inner.runStarted(run) }
    func callStarted(_ call: CallRecord) async throws { try inner.callStarted(call) }
    func callFinished(_ call: CallRecord, output: Value?, error: String?, finished: Date) async throws {
        try inner.callFinished(call, output: output, error: error, finished: finished)
    }
    func stepFinished(runID: String, step: String, status: StepStatus, output: Value?, outputMasked: Bool, error: String?) async throws {}
    func compensationFinished(runID: String, key: CallKey, step: String, error: String?, finished: Date) async throws {}
    func runFinished(_ result: RunResult) async throws { try inner.runFinished(result) }
    func approvalRequested(_ request: ApprovalRequest) async throws { throw DiskFull() }
}
