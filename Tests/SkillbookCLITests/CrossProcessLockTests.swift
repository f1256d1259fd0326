import Foundation
import SkillbookCore
import SkillbookSQL
import SkillbookSQLite
import SkillbookTesting
import Testing

/// Two real `skillbook run` processes on one state directory writing `notes`: the lock on the
/// state database keeps their writes apart, the waiting one says who it waits for, and Ctrl-C
/// while waiting ends it at once, rolled back.
@Suite(.serialized) struct CrossProcessLockTests {
    /// Three notes one at a time with a pause between them: the step holds `notes` for the pauses.
    static func playbook(pause: String) -> String {
        """
        name: slow-notes
        inputs:
          tag: { type: string }
        steps:
          - id: save
            skill: notes.create_many
            batch: { size: 1, pause: \(pause) }
            with:
              notes:
                - { title: "a ${{ inputs.tag }}" }
                - { title: "b ${{ inputs.tag }}" }
                - { title: "c ${{ inputs.tag }}" }

        """
    }

    /// When the run's calls of `save` started first and finished last, from the journal.
    func lockedSection(_ journal: SQLiteJournal, _ runID: String) throws -> ClosedRange<Date> {
        let calls = try journal.calls(of: runID).filter { $0.key.step == "save" }
        let start = try #require(calls.map(\.started).min())
        let end = try #require(calls.compactMap(\.finished).max())
        return start...end
    }

    func runID(_ child: ChildSkillbook) throws -> String {
        let started = try #require(try jsonLines(child.out.text).first { $0.type == "run.started" })
        return try #require(started["run"] as? String)
    }

    @Test func twoProcessesNeverWriteTheSameResourceAtOnce() async throws {
        let directory = TemporaryDirectory()
        let file = directory.write("slow-notes.yaml", Self.playbook(pause: "0.4s"))
        let first = try ChildSkillbook(["run", file.path, "--json", "-i", "tag=one"], in: directory)
        defer { first.killIfRunning() }
        let holding = try await first.waitFor(#""type":"step.progress","step":"save","completed":1"#)
        try #require(holding, "the first run never wrote; stderr:\n\(first.err.text)")
        let second = try ChildSkillbook(["run", file.path, "--json", "-i", "tag=two"], in: directory)
        defer { second.killIfRunning() }

        #expect(try await first.waitForExit(seconds: 60))
        #expect(try await second.waitForExit(seconds: 60))
        #expect(first.process.termination == .exited(0), "stderr:\n\(first.err.text)")
        #expect(second.process.termination == .exited(0), "stderr:\n\(second.err.text)")

        let firstID = try runID(first)
        let secondID = try runID(second)
        let waits = try jsonLines(second.out.text).filter { $0.type == "step.waiting" }
        #expect(waits.count == 1, "the second run waited once; stdout:\n\(second.out.text)")
        #expect(waits.first?["resources"] as? [String] == ["notes"])
        #expect(waits.first?["held_by"] as? String == firstID)

        let journal = try SQLiteJournal(stateDirectory: directory.state)
        let a = try lockedSection(journal, firstID)
        let b = try lockedSection(journal, secondID)
        #expect(a.upperBound <= b.lowerBound, "the locked sections overlap: \(a) and \(b)")
        let titles = try NotesStore(stateDirectory: directory.state).list(tag: nil, limit: 10).map(\.title)
        #expect(titles == ["a one", "b one", "c one", "a two", "b two", "c two"])

        let shown = await skillbook(["runs", "show", secondID], in: directory)
        #expect(shown.out.contains("waited for 'notes', held by run \(firstID.prefix(8))…"), "\(shown.out)")
    }

    @Test func ctrlCWhileWaitingEndsTheRunAtOnceRolledBack() async throws {
        let directory = TemporaryDirectory()
        let file = directory.write("slow-notes.yaml", Self.playbook(pause: "600s"))
        let holder = try ChildSkillbook(["run", file.path, "--json", "-i", "tag=one"], in: directory)
        defer { holder.killIfRunning() }
        let holding = try await holder.waitFor(#""type":"step.progress","step":"save","completed":1"#)
        try #require(holding, "the first run never wrote; stderr:\n\(holder.err.text)")

        let waiter = try ChildSkillbook(["run", file.path, "--json", "-i", "tag=two"], in: directory)
        defer { waiter.killIfRunning() }
        let waiting = try await waiter.waitFor(#""type":"step.waiting""#)
        try #require(waiting, "the second run never waited; stdout:\n\(waiter.out.text)\nstderr:\n\(waiter.err.text)")

        let signalled = Date()
        kill(waiter.pid, SIGINT)
        let exited = try await waiter.waitForExit(seconds: 10)
        try #require(exited, "the waiting run did not exit after SIGINT; stderr:\n\(waiter.err.text)")
        #expect(Date().timeIntervalSince(signalled) < 1, "it ended within a second of Ctrl-C")
        #expect(waiter.process.termination == .exited(130))
        let finished = try #require(try jsonLines(waiter.out.text).last)
        #expect(finished["status"] as? String == "rolled_back")
        #expect(finished["interrupted"] as? Bool == true)

        let titles = try NotesStore(stateDirectory: directory.state).list(tag: nil, limit: 10).map(\.title)
        #expect(titles == ["a one"], "the waiting run wrote nothing")
        kill(holder.pid, SIGKILL)
        _ = try await holder.waitForExit(seconds: 10)
    }
}
