import Foundation
import SkillbookCore
import SkillbookSQL
import SkillbookSQLite
import SkillbookTesting
import Testing

/// Workspaces as a person meets them: the real `skillbook` started from another folder.
@Suite struct WorkspaceTests {
    static let say = """
        id: demo.say
        summary: Says something.
        kind: query
        idempotent: true
        parameters:
          type: object
          properties: { text: { type: string } }
          required: [text]
        run: [echo, "${{ params.text }}"]

        """

    /// `routines/` with a playbook that uses a sub-playbook and a manifest skill, then fails.
    func workspace() -> TemporaryDirectory {
        let directory = TemporaryDirectory()
        directory.write("routines/Skills/say.yaml", Self.say)
        directory.write(
            "routines/Playbooks/evening.yaml",
            """
            name: evening
            on_failure: stop
            inputs:
              fail: { type: boolean, default: false }
            steps:
              - { id: save, skill: notes.create, with: { title: evening } }
              - { id: say, skill: demo.say, with: { text: good night } }
              - { id: wind_down, playbook: wind-down }
              - id: check
                skill: debug.fail
                when: "${{ inputs.fail }}"
                with: { message: stop here }

            """)
        directory.write(
            "routines/Playbooks/wind-down.yaml", "name: wind-down\nsteps:\n  - { id: tea, skill: notes.create, with: { title: tea } }\n")
        directory.write("elsewhere/readme.txt", "not a workspace\n")
        return directory
    }

    @Test func aPlaybookFileFindsItsWorkspaceAndResumeAndRollbackFindItAgain() async throws {
        let directory = workspace()
        let elsewhere = directory.url.appendingPathComponent("elsewhere")
        let state = directory.state.path
        let file = directory.url.appendingPathComponent("routines/Playbooks/evening.yaml").path
        let ok = try await runSkillbook(["run", file, "--state", state], in: elsewhere)
        #expect(ok.code == 0, "\(ok.err)")
        #expect(ok.err.contains("✓ say"), "\(ok.err)")

        let failed = try await runSkillbook(["run", file, "-i", "fail=true", "--state", state], in: elsewhere)
        #expect(failed.code == 1, "\(failed.err)")
        let journal = try SQLiteJournal(stateDirectory: directory.state)
        let run = try #require(try journal.runs().first)
        #expect(run.workspace == directory.url.appendingPathComponent("routines").standardizedFileURL.path)

        // From a folder with no workspace, the run's own skills (demo.say) and sub-playbooks load:
        // a resume gets as far as the failing step again (it is not refused for an unknown skill).
        let resumed = try await runSkillbook(["resume", String(run.id.prefix(8)), "--state", state], in: elsewhere)
        #expect(resumed.code == 1, "\(resumed.err)")
        #expect(resumed.err.contains("stop here") && !resumed.err.contains("unknown skill"), "\(resumed.err)")
        // From a folder with no workspace, the run's own skills (demo.say) and sub-playbooks load.
        let undone = try await runSkillbook(["rollback", String(run.id.prefix(8)), "--state", state], in: elsewhere)
        #expect(undone.code == 0, "\(undone.err)")
        #expect(try journal.run(run.id)?.status == .rolledBack)
        #expect(try NotesStore(stateDirectory: directory.state).list(limit: 10).map(\.title) == ["evening", "tea"], "the first run's notes stay")
    }

    @Test func aRunByNameFindsTheWorkspaceAboveTheCurrentFolder() async throws {
        let directory = workspace()
        let inside = directory.url.appendingPathComponent("routines/Playbooks")
        let run = try await runSkillbook(["run", "evening", "--state", directory.state.path], in: inside)
        #expect(run.code == 0, "\(run.err)")
    }

    @Test func skillbookYAMLSetsDefaultsAndItsMistakesStopEverything() async throws {
        let directory = workspace()
        let routines = directory.url.appendingPathComponent("routines")
        directory.write("routines/skillbook.yaml", "state: .state\ntimezone: UTC\n")
        let run = try await runSkillbook(["run", "evening"], in: routines)
        #expect(run.code == 0, "\(run.err)")
        #expect(try NotesStore(stateDirectory: routines.appendingPathComponent(".state")).list(limit: 10).count == 2)

        directory.write("routines/skillbook.yaml", "stat: .state\n")
        let bad = try await runSkillbook(["list"], in: routines)
        #expect(bad.code == 2)
        #expect(
            bad.err == """
                skillbook.yaml:1:1: error: unknown key 'stat' of skillbook.yaml; did you mean 'state'?
                 1 | stat: .state
                   | ^

                """)
    }
}
