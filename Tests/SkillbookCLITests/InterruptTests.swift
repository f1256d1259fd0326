import SkillbookTesting
import SkillbookCore
import Foundation
import SkillbookSQL
import SkillbookSQLite
import Synchronization
import Testing

@Suite struct InterruptTests {
    @Test func ctrlCRollsBackTheCompletedStepsAndExitsWith130() async throws {
        let executable = try builtExecutable()
        let directory = TemporaryDirectory()
        let file = directory.write(
            "interrupt.yaml",
            """
            name: interrupt
            steps:
              - id: save
                skill: notes.create
                with: { title: should be undone }
              - id: wait
                skill: debug.sleep
                with: { seconds: 600 }

            """)
        let out = OutputFile()
        let err = OutputFile()
        let process = try ChildProgram(
            executable.path, ["run", file.path, "--json", "--state", directory.state.path],
            environment: ["HOME": directory.path, "NO_COLOR": "1", "PATH": "/usr/bin:/bin"], in: directory.url,
            output: .file(out), error: .file(err))

        let sleeping = await eventually(within: 30) {
            out.text.contains(#""type":"step.started","step":"wait""#) || !process.isRunning
        }
        try #require(sleeping && process.isRunning, "the sleep step never started; stdout:\n\(out.text)\nstderr:\n\(err.text)")
        // The note of the first step exists while the second one runs.
        #expect(try NotesStore(stateDirectory: directory.state).list(tag: nil, limit: 10).map(\.title) == ["should be undone"])

        process.signal(SIGINT)
        // A bound for a process that never exits, not a speed check (a loaded machine is slow to roll back).
        let exited = await process.exit(within: 15) != nil
        try #require(exited, "skillbook did not exit within 15 seconds of SIGINT; stdout:\n\(out.text)\nstderr:\n\(err.text)")

        #expect(process.termination == .exited(130))
        let events = try jsonLines(out.text)
        let finished = try #require(events.last)
        #expect(finished.type == "run.finished")
        #expect(finished["status"] as? String == "rolled_back")
        #expect(finished["interrupted"] as? Bool == true)
        #expect(finished["error"] as? String == "step 'wait' failed: interrupted while step 'wait' was running")
        #expect(finished.stepStatuses == ["save": "compensated", "wait": "failed"])
        #expect(events.map(\.type).suffix(3) == ["compensation.started", "compensation.succeeded", "run.finished"])
        #expect(err.text == "\nskillbook: interrupted; rolling back (press Ctrl-C again to quit now)\n")
        #expect(try NotesStore(stateDirectory: directory.state).list(tag: nil, limit: 10).isEmpty)
    }

    @Test func ctrlCDuringABatchedStepUndoesTheCompletedBatchesAndExitsWith130() async throws {
        let directory = TemporaryDirectory()
        let file = directory.write(
            "batched.yaml",
            """
            name: batched
            inputs:
              notes: { type: array }
            steps:
              - id: save
                skill: notes.create_many
                batch: { pause: 600s }
                with: { notes: "${{ inputs.notes }}" }

            """)
        let notes = "[" + (1...500).map { "{title: n\($0)}" }.joined(separator: ", ") + "]"
        let child = try ChildSkillbook(["run", file.path, "--json", "-i", "notes=\(notes)"], in: directory)
        defer { child.killIfRunning() }
        // The long pause holds the step between batch 1 and batch 2, however slow this machine is.
        let started = try await child.waitFor(#""type":"step.progress","step":"save","completed":1,"total":10"#)
        try #require(started, "batch 1 of 10 never finished; stdout:\n\(child.out.text)\nstderr:\n\(child.err.text)")
        #expect(try NotesStore(stateDirectory: directory.state).list(tag: nil, limit: 1000).count == 50)

        kill(child.pid, SIGINT)
        let exited = try await child.waitForExit(seconds: 10)
        try #require(exited, "skillbook did not exit after SIGINT; stderr:\n\(child.err.text)")
        #expect(child.process.termination == .exited(130))
        let events = try jsonLines(child.out.text)
        let finished = try #require(events.last)
        #expect(finished["status"] as? String == "rolled_back")
        #expect(finished["interrupted"] as? Bool == true)
        #expect(events.filter { $0.type == "compensation.succeeded" }.count == 1, "the completed batch is undone")
        #expect(finished["error"] as? String == "step 'save' failed: interrupted while step 'save' was running")
        #expect(try NotesStore(stateDirectory: directory.state).list(tag: nil, limit: 1000).isEmpty)
    }
}
