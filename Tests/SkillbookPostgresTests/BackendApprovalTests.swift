import Foundation
import SkillbookCore
import SkillbookTesting
import Testing

/// The approval journal's contract (`ApprovalJournal`), run against SQLite and PostgreSQL alike,
/// through each backend's entry point as the host gets it.
@Suite struct BackendApprovalTests {
    static func request(
        _ runID: String, step: StepPath = "remove", requested: Date = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded()),
        expires: TimeInterval = 3600
    ) -> ApprovalRequest {
        ApprovalRequest(
            runID: runID, step: step, key: CallKey(step: step, iteration: 0), skill: "notes.delete", title: "Delete notes",
            parameters: ["ids": ["n1"], "token": "***"], touches: CallPreview(noun: "notes", items: ["Old list (n1)"]), calls: 2,
            requested: requested, expires: requested.addingTimeInterval(expires))
    }

    /// A run recorded up to a confirmation nobody could give: its request, then its `waiting` end.
    static func waitingRun(_ runID: String, in journal: any RunJournal, step: StepPath = "remove") async throws -> ApprovalRequest {
        try await journal.runStarted(RunRecord.sample(runID))
        let request = request(runID, step: step)
        try await journal.approvalRequested(request)
        try await journal.runFinished(finished(runID, .waiting))
        return request
    }

    @Test(arguments: Backend.allCases)
    func aRequestIsKeptWithEverythingTheTerminalShowsAndListedWhileItsRunWaits(_ backend: Backend) async throws {
        let state = try await backend.makeState()
        let persistence = state.stateBackend()
        let journal = try persistence.openJournal()
        let approvals = try #require(persistence.approvals(journal))
        let sent = try await Self.waitingRun("r1", in: journal, step: "tidy/remove")

        let run = try #require(try await journal.run("r1"))
        #expect(run.status == .waiting)
        #expect(try await journal.runs(playbook: nil, status: .running, limit: 5).isEmpty, "no process holds it")
        let listed = try await approvals.pendingApprovals()
        #expect(listed.count == 1)
        let record = try #require(listed.first)
        #expect(record.request == sent)
        #expect(record.request.key == CallKey(step: "tidy/remove", iteration: 0))
        #expect(record.request.parameters == ["ids": ["n1"], "token": "***"])
        #expect(record.request.touches == CallPreview(noun: "notes", items: ["Old list (n1)"]))
        #expect(record.playbook == "sample")
        #expect(record.runStatus == .waiting)
        #expect(record.decision == nil)
        #expect(record.isPending)
    }

    @Test(arguments: Backend.allCases)
    func aDecisionIsRecordedOnceAndASecondIsRefusedWithTheRunsState(_ backend: Backend) async throws {
        let state = try await backend.makeState()
        let persistence = state.stateBackend()
        let journal = try persistence.openJournal()
        let approvals = try #require(persistence.approvals(journal))
        _ = try await Self.waitingRun("r1", in: journal)

        let at = Date(timeIntervalSince1970: 1_790_000_000)
        let decided = try await approvals.decide("r1", step: nil, ApprovalDecision(verdict: .approved, by: "ada@desk", at: at))
        #expect(decided.decision == ApprovalDecision(verdict: .approved, by: "ada@desk", at: at))
        #expect(try await approvals.pendingApprovals().isEmpty)
        #expect(try await approvals.decisions(ofRun: "r1") == ["remove": ApprovalDecision(verdict: .approved, by: "ada@desk", at: at)])

        // A second decider, on a connection of its own as another process has, is refused.
        let other = state.stateBackend()
        let otherJournal = try other.openJournal()
        let second = try #require(other.approvals(otherJournal))
        let refusal = await #expect(throws: JournalError.self) {
            try await second.decide("r1", step: nil, ApprovalDecision(verdict: .declined, by: "bob@laptop", at: at, reason: "no"))
        }
        #expect(refusal?.kind == .refused)
        #expect(refusal?.message.contains("run r1 was already approved by ada@desk at 2026-09-21T") == true, "\(refusal?.message ?? "")")
        #expect(refusal?.message.contains("and is waiting now") == true)
        #expect(try await approvals.approvals(ofRun: "r1").map(\.decision?.verdict) == [.approved])
    }

    @Test(arguments: Backend.allCases)
    func aDecidedRunThatStillWaitsIsListedUntilItGoesOn(_ backend: Backend) async throws {
        let state = try await backend.makeState()
        let persistence = state.stateBackend()
        let journal = try persistence.openJournal()
        let approvals = try #require(persistence.approvals(journal))
        _ = try await Self.waitingRun("r1", in: journal)
        _ = try await Self.waitingRun("r2", in: journal)
        #expect(try await approvals.decidedWaiting().isEmpty, "nothing decided yet")
        try await approvals.decide("r2", step: nil, ApprovalDecision(verdict: .approved, by: "ada@desk", at: Date()))
        let decided = try await approvals.decidedWaiting()
        #expect(decided.map(\.request.runID) == ["r2"])
        #expect(decided.first?.decision?.verdict == .approved)
        #expect(try await approvals.pendingApprovals().map(\.request.runID) == ["r1"])
        // Gone on (a resume took it over): no longer listed.
        _ = try await journal.takeOver("r2", for: .resume, trigger: .cli) { _ in }
        #expect(try await approvals.decidedWaiting().isEmpty)
    }

    @Test(arguments: Backend.allCases)
    func aRunThatMovedOnOrNeverWaitedCannotBeDecided(_ backend: Backend) async throws {
        let state = try await backend.makeState()
        let persistence = state.stateBackend()
        let journal = try persistence.openJournal()
        let approvals = try #require(persistence.approvals(journal))
        _ = try await Self.waitingRun("r1", in: journal)
        // Rolled back from elsewhere while it waited.
        try await journal.takeOver("r1", for: .rollback, trigger: .cli) { _ throws(JournalError) in }
        try await journal.runFinished(finished("r1", .rolledBack))
        let movedOn = await #expect(throws: JournalError.self) {
            try await approvals.decide("r1", step: nil, ApprovalDecision(verdict: .approved, by: "ada@desk", at: Date()))
        }
        #expect(movedOn?.message == "run r1 no longer waits for an approval: it is rolled_back")
        #expect(try await approvals.pendingApprovals().isEmpty)

        try await journal.runStarted(RunRecord.sample("r2"))
        try await journal.runFinished(finished("r2", .succeeded))
        let never = await #expect(throws: JournalError.self) {
            try await approvals.decide("r2", step: nil, ApprovalDecision(verdict: .approved, by: "ada@desk", at: Date()))
        }
        #expect(never?.message == "run r2 does not wait for an approval (it is succeeded)")
        let unknown = await #expect(throws: JournalError.self) {
            try await approvals.decide("nope", step: nil, ApprovalDecision(verdict: .approved, by: "ada@desk", at: Date()))
        }
        #expect(unknown?.kind == .notFound)
    }

    @Test(arguments: Backend.allCases)
    func aDecisionAboutAnotherStepIsRefused(_ backend: Backend) async throws {
        let state = try await backend.makeState()
        let persistence = state.stateBackend()
        let journal = try persistence.openJournal()
        let approvals = try #require(persistence.approvals(journal))
        _ = try await Self.waitingRun("r1", in: journal, step: "tidy/remove")
        let refusal = await #expect(throws: JournalError.self) {
            try await approvals.decide("r1", step: "remove", ApprovalDecision(verdict: .approved, by: "ada@desk", at: Date()))
        }
        #expect(refusal?.message == "run r1 waits at step 'tidy/remove', not 'remove'")
        let decided = try await approvals.decide(
            "r1", step: "tidy/remove", ApprovalDecision(verdict: .declined, by: "ada@desk", at: Date(), reason: "not now"))
        #expect(decided.decision?.reason == "not now")
    }

    @Test(arguments: Backend.allCases)
    func concurrentDecidersAreOneAfterTheOther(_ backend: Backend) async throws {
        let state = try await backend.makeState()
        let persistence = state.stateBackend()
        let journal = try persistence.openJournal()
        for index in 0..<5 { _ = try await Self.waitingRun("r\(index)", in: journal) }
        let backends = (0..<4).map { _ in state.stateBackend() }
        let wins = try await withThrowingTaskGroup(of: Int.self) { group in
            for (index, other) in backends.enumerated() {
                group.addTask {
                    let journal = try other.openJournal()
                    let approvals = try #require(other.approvals(journal))
                    var won = 0
                    for run in 0..<5 {
                        let decision = ApprovalDecision(verdict: .approved, by: "p\(index)@host", at: Date())
                        if (try? await approvals.decide("r\(run)", step: nil, decision)) != nil { won += 1 }
                    }
                    return won
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(wins == 5, "each request is decided exactly once")
    }
}
