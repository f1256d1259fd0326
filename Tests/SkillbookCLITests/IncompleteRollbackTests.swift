import SkillbookTesting
import SkillbookCore
import Foundation
import SkillbookSQL
import SkillbookSQLite
import Testing

/// Issue 10 item 12: after a rollback that could not undo an action whose result was never
/// recorded, the journal says `rollback_incomplete` for the rollback and `uncertain` for that step.
@Suite struct IncompleteRollbackTests {
    static let playbook = """
        name: uncertain
        steps:
          - { id: one, skill: notes.create, with: { title: one } }
          - { id: two, skill: notes.create, with: { title: two } }
          - { id: three, skill: notes.create, with: { title: three } }

        """

    @Test func runsShowNamesTheIncompleteRollbackAndTheUncertainStep() async throws {
        let directory = TemporaryDirectory()
        let file = directory.write("uncertain.yaml", Self.playbook)
        let note = try NotesStore(stateDirectory: directory.state).create(title: "one")
        let runID = try recordCrashedRun(
            directory, file: file, playbook: "uncertain", calls: [("one", "notes.create", note.value), ("two", "notes.create", nil)])
        let state = ["--state", directory.state.path]

        let undo = try await runSkillbook(["rollback", runID] + state, in: directory.url)
        #expect(undo.code == 3, "\(undo.err)")
        let reason = "its result was never recorded (its process stopped during the call), so it cannot be undone; check by hand whether it took effect"
        #expect(undo.err.contains("  ! two could not be undone: \(reason)\n"), "\(undo.err)")
        #expect(undo.err.contains("  ↶ one undone\n"), "\(undo.err)")
        #expect(undo.err.contains("uncertain rollback_incomplete in "), "\(undo.err)")
        #expect(undo.err.contains("  not undone: two: \(reason)\n"), "\(undo.err)")

        let show = try await runSkillbook(["runs", "show", runID] + state, in: directory.url)
        #expect(show.code == 0, "\(show.err)")
        let lines = show.out.split(separator: "\n").map(String.init)
        #expect(lines.contains("  status    rollback_incomplete"), "\(show.out)")
        #expect(lines.contains { $0.hasSuffix("  ■ rollback ended: rollback_incomplete") }, "\(show.out)")
        #expect(!show.out.contains("rolled_back"), "\(show.out)")
        #expect(lines.contains { $0.hasSuffix("  two (notes.create) ? started, no result recorded (its process stopped during the call)") })
        let steps = Array(lines.drop { $0 != "Steps:" })
        #expect(
            steps == [
                "Steps:", "  STEP   SKILL         STATUS", "  one    notes.create  compensated",
                "  two    notes.create  uncertain      not undone: \(reason)", "  three  notes.create  not_run",
            ], "\(show.out)")
        #expect(!lines.contains { $0.hasPrefix("  two ") && $0.contains("not_run") }, "\(show.out)")

        let json = try await runSkillbook(["runs", "show", runID, "--json"] + state, in: directory.url)
        let record = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any], "\(json.out)")
        #expect(record["status"] as? String == "rollback_incomplete")
        let sessions = try #require(record["sessions"] as? [[String: Any]])
        #expect(sessions.compactMap { $0["outcome"] as? String } == ["interrupted", "rollback_incomplete"])
        let report = try #require(record["report"] as? [[String: Any]])
        #expect(report.compactMap { $0["status"] as? String } == ["compensated", "uncertain", "not_run"])
        #expect(report[1]["compensation_error"] as? String == reason)
        #expect((record["error"] as? String)?.hasPrefix("the result of two (notes.create), started ") == true)

        // Running it again retries what is left, and says the same.
        let again = try await runSkillbook(["rollback", runID] + state, in: directory.url)
        #expect(again.code == 3, "\(again.err)")
        let after = try await runSkillbook(["runs", "show", runID, "--json"] + state, in: directory.url)
        let second = try #require(try JSONSerialization.jsonObject(with: Data(after.out.utf8)) as? [String: Any])
        #expect((second["sessions"] as? [[String: Any]])?.compactMap { $0["outcome"] as? String } == ["interrupted", "rollback_incomplete", "rollback_incomplete"])
        #expect((second["report"] as? [[String: Any]])?.compactMap { $0["status"] as? String } == ["compensated", "uncertain", "not_run"])
    }
}
