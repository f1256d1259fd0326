import Foundation
import SkillbookCore
import SkillbookRuntime
import SkillbookSQLite
import SkillbookTesting
import Testing
import SkillbookSQL

/// The write-ahead log at a run's end (see `SQLiteJournal.truncateLogIfLong`): a long one is copied
/// back and cut, so a large value is in the state folder once.
@Suite struct JournalCheckpointTests {
    func walSize(_ dir: URL) -> Int {
        let wal = StateDatabase.url(in: dir).path + "-wal"
        return (try? FileManager.default.attributesOfItem(atPath: wal))?[.size] as? Int ?? 0
    }

    /// Journals run `r1` with one action whose parameter is `megabytes` of text, and finishes it.
    func runWithLargeAction(_ journal: SQLiteJournal, megabytes: Int) throws {
        try journal.runStarted(.sample("r1"))
        var action = call("r1", "write", skill: "files.write")
        action.parameters = ["content": .string(String(repeating: "0123456789abcdef", count: megabytes * 65_536))]
        try journal.callStarted(action)
        try journal.callFinished(action, output: ["bytes": .int(megabytes << 20)], error: nil, finished: Date())
    }

    func finish(_ journal: SQLiteJournal) throws {
        try journal.runFinished(
            RunResult(
                runID: "r1", playbook: "sample", status: .succeeded, interrupted: false, outputs: [:], steps: [], error: nil,
                started: Date(), finished: Date()))
    }

    @Test func aLongLogIsCopiedBackAndCutAtTheRunsEnd() async throws {
        try await withTemporaryDirectory { dir in
            let journal = try SQLiteJournal(stateDirectory: dir, heartbeatInterval: 3600, flushInterval: 3600)
            try runWithLargeAction(journal, megabytes: 6)
            #expect(walSize(dir) > 6 << 20, "the log holds the parameter until the run's end")
            try finish(journal)
            #expect(walSize(dir) == 0)
            let file = try #require(try FileManager.default.attributesOfItem(atPath: StateDatabase.url(in: dir).path)[.size] as? Int)
            #expect(file > 6 << 20 && file < 7 << 20, "the database holds the parameter once: \(file) bytes")
            let reader = try StateDatabase.openSeparately(stateDirectory: dir)
            #expect(try reader.query("PRAGMA integrity_check").first?[0] == .text("ok"))
            let recorded = try SQLiteJournal(database: reader).calls(of: "r1")
            #expect(recorded.first?.parameters["content"]?.stringValue?.utf8.count == 6 << 20)
            #expect(recorded.first?.output == ["bytes": .int(6 << 20)])
        }
    }

    @Test func aReaderElsewhereKeepsTheLogAndTheRunsEndDoesNotWaitForIt() async throws {
        try await withTemporaryDirectory { dir in
            let journal = try SQLiteJournal(stateDirectory: dir, heartbeatInterval: 3600, flushInterval: 3600)
            let reader = try StateDatabase.openSeparately(stateDirectory: dir)
            try runWithLargeAction(journal, megabytes: 6)
            try reader.execute("BEGIN; SELECT count(*) FROM runs;")  // a read transaction left open
            let clock = ContinuousClock()
            let start = clock.now
            try finish(journal)
            #expect(clock.now - start < .seconds(2), "the cut gives up at once (a normal connection would wait 5 s)")
            #expect(walSize(dir) > 6 << 20)
            try reader.execute("COMMIT")
            #expect(try journal.run("r1")?.status == .succeeded)
        }
    }

    @Test func aShortLogIsLeftAlone() async throws {
        try await withTemporaryDirectory { dir in
            let journal = try SQLiteJournal(stateDirectory: dir, heartbeatInterval: 3600, flushInterval: 3600)
            try journal.runStarted(.sample("r1"))
            let action = call("r1", "write", skill: "files.write")
            try journal.callStarted(action)
            try journal.callFinished(action, output: ["bytes": .int(10)], error: nil, finished: Date())
            let before = walSize(dir)
            #expect(before > 0)
            try finish(journal)
            #expect(walSize(dir) >= before, "under the threshold the log is not checkpointed at the run's end")
        }
    }
}
