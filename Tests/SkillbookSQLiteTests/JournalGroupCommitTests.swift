import Foundation
import SkillbookCore
import SkillbookRuntime
@testable import SkillbookSQLite
import SkillbookTesting
import Testing
import SkillbookSQL

/// Which records the journal writes at once and which it group-commits (see `SQLiteJournal`,
/// "Writes"), as another process sees the file.
@Suite struct JournalGroupCommitTests {
    func query(_ runID: String, _ step: String, attempt: Int = 1) -> CallRecord {
        CallRecord(
            runID: runID, key: CallKey(step: StepPath(step: step)), skill: "debug.echo", attempt: attempt, parameters: ["value": .string(step)],
            started: Date(), hasEffects: false)
    }

    /// A journal holding run `r1`, whose background task never commits on its own.
    func quietJournal(_ dir: URL) throws -> SQLiteJournal {
        let journal = try SQLiteJournal(stateDirectory: dir, heartbeatInterval: 3600, flushInterval: 3600)
        try journal.runStarted(.sample("r1"))
        return journal
    }

    /// Starts `record` and finishes it with `output`.
    func complete(_ journal: SQLiteJournal, _ record: CallRecord, _ output: Value) throws {
        try journal.callStarted(record)
        try journal.callFinished(record, output: output, error: nil, finished: Date())
    }

    /// The call attempts of `runID` as another connection reads them: step, output, seq.
    func rowsOnDisk(_ dir: URL, _ runID: String) throws -> [(step: String, output: String?, seq: Int)] {
        let outside = try StateDatabase.openSeparately(stateDirectory: dir)
        return try outside.query("SELECT step, output, seq FROM call_attempts WHERE run = ?1 ORDER BY id", [.text(runID)]).map { row in
            (row.string("step") ?? "", row.string("output"), row["seq"]?.intValue ?? 0)
        }
    }

    func stepsOnDisk(_ dir: URL, _ runID: String) throws -> [String] {
        let outside = try StateDatabase.openSeparately(stateDirectory: dir)
        return try outside.query("SELECT step FROM steps WHERE run = ?1 ORDER BY id", [.text(runID)]).compactMap { $0.string("step") }
    }

    @Test func anActionIsOnDiskBeforeItRunsAndItsResultBeforeTheCallReturns() async throws {
        try await withTemporaryDirectory { dir in
            let journal = try quietJournal(dir)
            let action = call("r1", "create")
            try journal.callStarted(action)
            #expect(try rowsOnDisk(dir, "r1").map(\.step) == ["create"])
            #expect(try rowsOnDisk(dir, "r1").first?.output == nil, "started, no result yet")
            try journal.callFinished(action, output: ["id": "n1"], error: nil, finished: Date())
            #expect(try rowsOnDisk(dir, "r1").first?.output == #"{"id":"n1"}"#)
            try await journal.stepFinished(runID: "r1", step: "create", status: .succeeded, output: ["id": "n1"], error: nil)
            #expect(try stepsOnDisk(dir, "r1").isEmpty, "a step's end waits for the group commit")
            try journal.flush()
            #expect(try stepsOnDisk(dir, "r1") == ["create"])
        }
    }

    /// A group commit of the background task that fails keeps the records queued, and the next
    /// record the run writes commits at once and throws that failure, so the run learns of it.
    @Test func aFailedBackgroundCommitReachesTheNextWrite() async throws {
        try await withTemporaryDirectory { dir in
            let journal = try quietJournal(dir)
            let outside = try StateDatabase.openSeparately(stateDirectory: dir)
            try outside.execute("CREATE TRIGGER refuse BEFORE INSERT ON steps BEGIN SELECT RAISE(ABORT, 'the disk says no'); END")
            try await journal.stepFinished(runID: "r1", step: "a", status: .succeeded, output: nil, error: nil)
            // What the background task does at each tick (here by hand, not at a time).
            journal.flushInBackground()
            #expect(try stepsOnDisk(dir, "r1").isEmpty)
            await #expect(throws: StoreError.self) {
                try await journal.stepFinished(runID: "r1", step: "b", status: .succeeded, output: nil, error: nil)
            }
            try outside.execute("DROP TRIGGER refuse")
            try await journal.stepFinished(runID: "r1", step: "c", status: .succeeded, output: nil, error: nil)
            try journal.flush()
            #expect(try stepsOnDisk(dir, "r1") == ["a", "b", "c"], "nothing queued was lost")
        }
    }

    @Test func readOnlyCallsAreCommittedTogetherAsOneRowEach() async throws {
        try await withTemporaryDirectory { dir in
            let journal = try quietJournal(dir)
            for step in ["a", "b"] {
                let record = query("r1", step)
                try complete(journal, record, ["value": .string(step)])
                try await journal.stepFinished(runID: "r1", step: step, status: .succeeded, output: nil, error: nil)
            }
            #expect(try rowsOnDisk(dir, "r1").isEmpty, "nothing of them is written yet")
            // The next action takes the queue with it, in order, before its own start.
            try journal.callStarted(call("r1", "c"))
            let rows = try rowsOnDisk(dir, "r1")
            #expect(rows.map(\.step) == ["a", "b", "c"])
            #expect(rows.map(\.output) == [#"{"value":"a"}"#, #"{"value":"b"}"#, nil])
            #expect(rows.map(\.seq) == [1, 2, 3])
            #expect(try stepsOnDisk(dir, "r1") == ["a", "b"])
        }
    }

    @Test func theJournalsOwnReadsSeeWhatIsStillQueued() async throws {
        try await withTemporaryDirectory { dir in
            let journal = try quietJournal(dir)
            let record = query("r1", "a")
            try journal.callStarted(record)
            let timeline = try #require(try journal.timeline("r1"))
            #expect(timeline.calls.map(\.key.step) == ["a"])
            #expect(timeline.calls.first?.isUncertain == true, "the call is running")
            // Its start is written now, so its result is a row of its own.
            try journal.callFinished(record, output: ["value": "a"], error: nil, finished: Date())
            #expect(try journal.calls(of: "r1").map(\.output) == [["value": "a"]])
            #expect(try rowsOnDisk(dir, "r1").count == 1)
        }
    }

    @Test func queuedCallsAreNumberedInTheOrderTheyFinished() async throws {
        try await withTemporaryDirectory { dir in
            let journal = try quietJournal(dir)
            let first = query("r1", "first")
            let second = query("r1", "second")
            let running = query("r1", "running")
            try journal.callStarted(first)
            try journal.callStarted(second)
            try journal.callStarted(running)
            try journal.callFinished(second, output: ["value": "2"], error: nil, finished: Date())
            try journal.callFinished(first, output: nil, error: "boom", finished: Date())
            try journal.flush()
            let order = try journal.calls(of: "r1").sorted { $0.order < $1.order }.map(\.key.step)
            #expect(order == ["running", "second", "first"], "unfinished by start, then finished by finishing")
            let failed = try #require(try journal.calls(of: "r1").first { $0.key.step == "first" })
            #expect(failed.error == "boom")
        }
    }

    @Test func theHeartbeatTaskCommitsTheQueueEveryFlushInterval() async throws {
        try await withTemporaryDirectory { dir in
            let journal = try SQLiteJournal(stateDirectory: dir, heartbeatInterval: 3600, flushInterval: 0.05)
            try journal.runStarted(.sample("r1"))
            try journal.callStarted(query("r1", "a"))
            var written = false
            for _ in 0..<200 where !written {
                try await Task.sleep(nanoseconds: 25_000_000)
                written = try rowsOnDisk(dir, "r1").count == 1
            }
            #expect(written, "committed by the background task, not by a read of this journal")
        }
    }

    @Test func aLongQueueIsCommittedWithoutWaiting() async throws {
        try await withTemporaryDirectory { dir in
            let journal = try quietJournal(dir)
            for index in 0..<300 {
                let record = query("r1", "s\(index)")
                try complete(journal, record, ["value": .int(index)])
            }
            let onDisk = try rowsOnDisk(dir, "r1")
            #expect(onDisk.count >= 200 && onDisk.count < 300, "the queue is bounded; the tail waits")
            #expect(onDisk.dropLast().allSatisfy { $0.output != nil }, "the last may have been written while running")
            try journal.flush()
            let all = try rowsOnDisk(dir, "r1")
            #expect(all.count == 300 && all.allSatisfy { $0.output != nil })
        }
    }

    @Test func theRunsEndCommitsEverythingQueued() async throws {
        try await withTemporaryDirectory { dir in
            let journal = try quietJournal(dir)
            let record = query("r1", "a")
            try complete(journal, record, ["value": "a"])
            try await journal.stepFinished(runID: "r1", step: "a", status: .succeeded, output: ["value": "a"], error: nil)
            try journal.runFinished(
                RunResult(
                    runID: "r1", playbook: "sample", status: .succeeded, interrupted: false, outputs: [:], steps: [], error: nil,
                    started: Date(), finished: Date()))
            #expect(try rowsOnDisk(dir, "r1").map(\.output) == [#"{"value":"a"}"#])
            #expect(try stepsOnDisk(dir, "r1") == ["a"])
        }
    }

    @Test func aResumeReRunsTheQueriesWhoseRecordsWereLost() async throws {
        // A process killed before the group commit loses only read-only calls and steps' ends:
        // the resume plan has the action, and simply runs the rest again.
        try await withTemporaryDirectory { dir in
            let journal = try quietJournal(dir)
            let action = call("r1", "create")
            try complete(journal, action, ["id": "n1"])
            let lost = query("r1", "read")
            try complete(journal, lost, ["value": "x"])

            let survivor = try SQLiteJournal(database: try StateDatabase.openSeparately(stateDirectory: dir))
            let plan = try await survivor.resumePlan("r1") { _ in .skip }
            #expect(plan.completed.map(\.key.step) == ["create"])
            #expect(plan.uncertain.isEmpty, "nothing is in doubt: the action has its result")
            #expect(plan.finishedSteps.isEmpty)
        }
    }
}
