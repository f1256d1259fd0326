import Foundation
import SkillbookCore
import SkillbookHost
import SkillbookSQLite
import SkillbookTesting
import Testing

/// The resume rule for a call that started in a process that died and recorded no result: a call
/// of a skill that is neither idempotent nor read-only is never run again without a decision
/// (`UncertainCallPolicy`), and a refused or aborted resume runs nothing and leaves the run as it was.
@Suite struct UncertainCallResumeTests {
    static let threeNotes = """
        name: three-notes
        steps:
          - { id: one, skill: notes.create, with: { title: one } }
          - { id: two, skill: notes.create, with: { title: two } }
          - { id: three, skill: notes.create, with: { title: three } }
        """

    /// A run that saved `one`, started `two` and died: `two` may or may not have been made.
    func crashedRun(_ fixture: HostFixture) throws -> String {
        let file = fixture.write("Playbooks/three-notes.yaml", Self.threeNotes)
        _ = try NotesStore(stateDirectory: fixture.state).create(title: "one")
        return try recordCrashedRun(
            stateDirectory: fixture.state, file: file, playbook: "three-notes",
            calls: [("one", "notes.create", ["id": "x", "title": "one"]), ("two", "notes.create", nil)])
    }

    func notes(_ fixture: HostFixture) throws -> [String] {
        try NotesStore(stateDirectory: fixture.state).list(tag: nil, limit: 10).map(\.title).sorted()
    }

    func status(_ fixture: HostFixture, _ runID: String) async throws -> JournalStatus? {
        try await fixture.host().openJournal().run(runID)?.status
    }

    @Test func withNoDecisionTheResumeIsRefusedAndNothingRuns() async throws {
        let fixture = HostFixture()
        let runID = try crashedRun(fixture)
        do {
            _ = try await fixture.host().resume(ResumeRequest(run: runID, uncertain: .refuse))
            Issue.record("an uncertain call was decided by nobody")
        } catch {
            guard case .uncertainCalls(let calls) = error else { throw error }
            #expect(calls.map(\.key.step) == ["two"])
            #expect(calls.map(\.skill) == ["notes.create"])
        }
        #expect(try notes(fixture) == ["one"])
        #expect(try await status(fixture, runID) == .interrupted, "the refused resume gave the run back")
    }

    @Test func skippingCountsTheCallAsDoneWithoutMakingIt() async throws {
        let fixture = HostFixture()
        let runID = try crashedRun(fixture)
        let result = try await fixture.host().resume(ResumeRequest(run: runID, uncertain: .skip))
        #expect(result.status == .succeeded)
        #expect(try notes(fixture) == ["one", "three"], "'two' counted as done, 'one' reused")
    }

    @Test func rerunningMakesTheCallAgain() async throws {
        let fixture = HostFixture()
        let runID = try crashedRun(fixture)
        let result = try await fixture.host().resume(ResumeRequest(run: runID, uncertain: .rerun))
        #expect(result.status == .succeeded)
        #expect(try notes(fixture) == ["one", "three", "two"])
    }

    @Test func askingDecidesPerCallAndNoAnswerAbortsTheResume() async throws {
        let fixture = HostFixture()
        let runID = try crashedRun(fixture)
        let asked = Recorder<String>()
        do {
            _ = try await fixture.host().resume(
                ResumeRequest(
                    run: runID,
                    uncertain: .ask { call in
                        asked.append(call.key.step.description)
                        return nil
                    }))
            Issue.record("an aborted resume ran")
        } catch {
            guard case .resumeAborted = error else { throw error }
        }
        #expect(asked.values == ["two"])
        #expect(try notes(fixture) == ["one"])
        #expect(try await status(fixture, runID) == .interrupted)

        let result = try await fixture.host().resume(ResumeRequest(run: runID, uncertain: .ask { _ in .rerun }))
        #expect(result.status == .succeeded)
        #expect(try notes(fixture) == ["one", "three", "two"])
    }
}
