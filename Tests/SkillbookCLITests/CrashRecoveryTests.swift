import SkillbookTesting
import SkillbookCore
import Foundation
import SkillbookSQL
import SkillbookSQLite
import Testing

/// The issue's end-to-end test: a real `skillbook run` is killed with SIGKILL at several points;
/// the run is then found `interrupted`, and either rolled back (no note left) or resumed (every
/// note exactly once).
@Suite(.serialized) struct CrashRecoveryTests {
    static let playbook = """
        name: crash-recovery
        steps:
          - id: first
            skill: notes.create
            with: { title: first }
          - id: nap
            skill: debug.sleep
            with: { seconds: 1.5 }
          - id: second
            skill: notes.create
            with: { title: second }
          - id: many
            skill: notes.create_many
            batch: { size: 2, pause: 1 }
            with:
              notes: [{ title: m1 }, { title: m2 }, { title: m3 }, { title: m4 }, { title: m5 }, { title: m6 }]
          - id: last
            skill: notes.create
            with: { title: "last after ${{ steps.first.output.id }}" }
        outputs:
          notes: "${{ length(steps.many.output.ids) }}"

        """

    static let listNotes = """
        name: list-notes
        steps:
          - { id: all, skill: notes.list, with: { limit: 1000 } }
        outputs:
          titles: "${{ steps.all.output.items.*.title }}"

        """

    enum KillPoint: String, CaseIterable, Sendable {
        /// While `nap` (debug.sleep) runs.
        case duringSleep
        /// As soon as step `first` (an action) has succeeded, before or as `nap` starts: no action is
        /// under way. (Killing as an action starts may leave it uncertain: see JournalCommandsTests.)
        case betweenSteps
        /// In the pause after batch 2 of 3 of `many`.
        case duringBatch

        func reached(_ event: [String: Any]) -> Bool {
            let type = event["type"] as? String
            let step = event["step"] as? String
            switch self {
            case .duringSleep: return type == "step.started" && step == "nap"
            case .betweenSteps: return type == "step.succeeded" && step == "first"
            case .duringBatch: return type == "step.progress" && step == "many" && event["completed"] as? Int == 2
            }
        }
    }

    enum Recovery: String, CaseIterable, Sendable {
        case rollback
        case resume
    }

    @Test(arguments: KillPoint.allCases, Recovery.allCases)
    func aKilledRunIsInterruptedThenRecovers(at point: KillPoint, by recovery: Recovery) async throws {
        let directory = TemporaryDirectory()
        let file = directory.write("crash-recovery.yaml", Self.playbook)
        directory.write("list-notes.yaml", Self.listNotes)
        let state = ["--state", directory.state.path]

        let child = try SkillbookChild(["run", file.path, "--json"] + state, in: directory.url)
        let killed = try await child.kill(SIGKILL, after: point == .duringSleep ? 0.75 : 0) { point.reached($0) }
        try #require(killed, "never reached \(point)\n\(child.transcript)")
        #expect(child.process.termination == .signalled(SIGKILL), "\(child.transcript)")
        let runID = try #require(child.events.first?["run"] as? String)

        // `skillbook runs` finds it interrupted, in the table and in JSON.
        let table = try await runSkillbook(["runs"] + state, in: directory.url)
        #expect(table.code == 0)
        #expect(table.out.contains("\(runID.prefix(8))  crash-recovery  interrupted  "), "\(table.out)")
        let rows = try await runsJSON(directory)
        #expect(rows.first?["id"] as? String == runID)
        #expect(rows.first?["status"] as? String == "interrupted")
        #expect((rows.first?["interruption"] as? String)?.hasPrefix("process \(child.pid) ") == true)

        // The journal shows where the process died.
        let show = try await runSkillbook(["runs", "show", runID, "--json"] + state, in: directory.url)
        let record = try #require(try JSONSerialization.jsonObject(with: Data(show.out.utf8)) as? [String: Any], "\(show.out)")
        let calls = try #require(record["calls"] as? [[String: Any]])
        let describe = calls.map { call in
            "\(call["step"] as? String ?? "?")\((call["batch"] as? Int).map { "[batch \($0 + 1)]" } ?? "")"
                + (call["uncertain"] as? Bool == true ? "?" : "")
        }
        switch point {
        case .duringSleep: #expect(describe == ["first", "nap?"], "the sleep was cut short")
        case .betweenSteps: #expect(describe == ["first"] || describe == ["first", "nap?"])
        case .duringBatch: #expect(describe == ["first", "nap", "second", "many[batch 1]", "many[batch 2]"], "killed in the pause")
        }

        switch recovery {
        case .rollback:
            let undo = try await runSkillbook(["rollback", String(runID.prefix(8))] + state, in: directory.url)
            #expect(undo.code == 0, "\(undo.err)")
            #expect(try await noteTitles(directory).isEmpty, "notes.list is empty after the rollback")
            #expect(try await runsJSON(directory).first?["status"] as? String == "rolled_back")
            let again = try await runSkillbook(["rollback", runID] + state, in: directory.url)
            #expect(again.code == 2)
            #expect(again.err.contains("is already rolled back; nothing to undo"))

        case .resume:
            let resume = try SkillbookChild(["resume", runID, "--json"] + state, in: directory.url)
            let started = try await resume.waitForEvent { $0["type"] as? String == "run.started" }
            try #require(started, "\(resume.transcript)")
            if resume.process.isRunning {
                // A second resume of the same run while the first holds it refuses.
                let second = try await runSkillbook(["resume", runID] + state, in: directory.url)
                if resume.process.isRunning {
                    #expect(second.code == 2)
                    #expect(second.err.contains("is still running in process \(resume.pid)"), "\(second.err)")
                }
            }
            let code = try await resume.waitForExit()
            #expect(code == 0, "\(resume.transcript)")
            let finished = resume.events.last
            #expect(finished?["type"] as? String == "run.finished")
            #expect(finished?["status"] as? String == "succeeded")
            #expect((finished?["outputs"] as? [String: Any])?["notes"] as? Int == 6)

            let titles = try await noteTitles(directory)
            let first = try #require(try NotesStore(stateDirectory: directory.state).list(limit: 100).first { $0.title == "first" })
            #expect(
                titles.sorted() == ["first", "last after \(first.id)", "m1", "m2", "m3", "m4", "m5", "m6", "second"],
                "every note exactly once")
            #expect(try await runsJSON(directory).first?["status"] as? String == "succeeded")

            let after = try await runSkillbook(["runs", "show", runID, "--json"] + state, in: directory.url)
            let resumed = try #require(try JSONSerialization.jsonObject(with: Data(after.out.utf8)) as? [String: Any])
            let sessions = try #require(resumed["sessions"] as? [[String: Any]])
            #expect(sessions.compactMap { $0["kind"] as? String } == ["run", "resume"])
            #expect(sessions.compactMap { $0["outcome"] as? String } == ["interrupted", "succeeded"])
        }
    }

    @Test func twoProcessesRunningOnOneStateDirectoryKeepItIntact() async throws {
        let directory = TemporaryDirectory()
        let steps = (1...25).map { "  - { id: n\($0), skill: notes.create, with: { title: \"${{ inputs.who }} \($0)\" } }" }
        let file = directory.write(
            "many-steps.yaml", "name: many-steps\ninputs:\n  who: { type: string }\nsteps:\n" + steps.joined(separator: "\n") + "\n")
        directory.write("list-notes.yaml", Self.listNotes)
        let state = ["--state", directory.state.path]
        let children = try ["a", "b", "c"].map { who in
            try SkillbookChild(["run", file.path, "-i", "who=\(who)", "--json"] + state, in: directory.url)
        }
        for child in children {
            let code = try await child.waitForExit()
            #expect(code == 0, "\(child.transcript)")
        }
        let rows = try await runsJSON(directory, playbook: "many-steps")
        #expect(rows.count == 3)
        #expect(rows.allSatisfy { $0["status"] as? String == "succeeded" })
        #expect(try await noteTitles(directory).count == 75)
        let database = try StateDatabase.openSeparately(stateDirectory: directory.state)
        #expect(try database.query("PRAGMA integrity_check").first?[0] == .text("ok"))
        #expect(try database.query("SELECT count(*) FROM call_attempts WHERE skill = 'notes.create' AND output IS NOT NULL").first?[0].intValue == 75)
    }

    /// `skillbook runs --json` as a child process.
    func runsJSON(_ directory: TemporaryDirectory, playbook: String = "crash-recovery") async throws -> [[String: Any]] {
        let result = try await runSkillbook(
            ["runs", "--json", "--playbook", playbook, "--state", directory.state.path], in: directory.url)
        #expect(result.code == 0, "\(result.err)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [[String: Any]], "\(result.out)")
    }

    /// The notes' titles as `notes.list` returns them, through a real `skillbook run`.
    func noteTitles(_ directory: TemporaryDirectory) async throws -> [String] {
        let result = try await runSkillbook(
            ["run", directory.url.appendingPathComponent("list-notes.yaml").path, "--state", directory.state.path], in: directory.url)
        #expect(result.code == 0, "\(result.err)")
        let outputs = try #require(try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any], "\(result.out)")
        return try #require(outputs["titles"] as? [String])
    }
}
