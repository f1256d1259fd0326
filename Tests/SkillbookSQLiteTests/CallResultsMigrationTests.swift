import Foundation
import SkillbookCore
import SkillbookRuntime
import SkillbookSQLite
import SkillbookTesting
import Testing
import SkillbookSQL

/// Where a call's result is stored (see `CallResultsMigration`): once, next to a call whose start
/// was written first; in the call's own row when both are written together.
@Suite struct CallResultsMigrationTests {
    /// A journal holding run `r1`, whose background task never commits on its own.
    func quietJournal(_ dir: URL) throws -> SQLiteJournal {
        let journal = try SQLiteJournal(stateDirectory: dir, heartbeatInterval: 3600, flushInterval: 3600)
        try journal.runStarted(.sample("r1"))
        return journal
    }

    /// Bytes of the state file's pages in use and free, after copying its WAL back into it.
    func pages(_ database: Database) throws -> (used: Int, free: Int) {
        _ = try database.query("PRAGMA wal_checkpoint(TRUNCATE)")
        let size = try database.query("PRAGMA page_size").first?[0].intValue ?? 0
        let count = try database.query("PRAGMA page_count").first?[0].intValue ?? 0
        let free = try database.query("PRAGMA freelist_count").first?[0].intValue ?? 0
        return ((count - free) * size, free * size)
    }

    @Test func anActionsLargeParameterIsWrittenOnceThroughItsResultAndItsUndo() async throws {
        try await withTemporaryDirectory { dir in
            let journal = try quietJournal(dir)
            let megabytes = 3
            let content = String(repeating: "0123456789abcdef", count: megabytes * 65_536)
            var action = call("r1", "write", skill: "files.write")
            action.parameters = ["content": .string(content)]
            try journal.callStarted(action)
            let outside = try StateDatabase.openSeparately(stateDirectory: dir)
            let afterStart = try pages(outside)
            try journal.callFinished(action, output: ["bytes": .int(content.utf8.count)], error: nil, finished: Date())
            try journal.compensationFinished(runID: "r1", key: action.key, step: "write", error: nil, finished: Date())
            let afterUndo = try pages(outside)
            // Written again whole, the row would leave its first copy's 3 MB of pages free in the file.
            #expect(afterUndo.free < 64 * 1024, "free pages: \(afterUndo.free) bytes")
            #expect(afterUndo.used - afterStart.used < 64 * 1024, "grew \(afterUndo.used - afterStart.used) bytes")
            #expect(try outside.query("SELECT output, finished FROM calls").first.map { [$0[0], $0[1]] } == [.null, .null])
            #expect(try outside.query("SELECT output FROM call_results").first?[0] == .text(#"{"bytes":3145728}"#))
            let recorded = try #require(try journal.calls(of: "r1").first)
            #expect(recorded.output == ["bytes": .int(3_145_728)])
            #expect(recorded.parameters["content"]?.stringValue?.utf8.count == 3_145_728)
            #expect(recorded.compensated)
            #expect(recorded.finished != nil)
        }
    }

    @Test func callsAreNumberedInTheOrderTheyFinishedAcrossBothTables() async throws {
        try await withTemporaryDirectory { dir in
            let journal = try quietJournal(dir)
            let action = call("r1", "action")
            let query = CallRecord(
                runID: "r1", key: CallKey(step: StepPath(step: "query")), skill: "debug.echo", attempt: 1, parameters: [:],
                started: Date(), hasEffects: false)
            try journal.callStarted(action)  // seq 1, written at once
            try journal.callStarted(query)  // queued
            try journal.callFinished(query, output: ["value": "q"], error: nil, finished: Date())  // joins its start: seq 2
            try journal.callFinished(action, output: nil, error: "refused", finished: Date())  // a row of its own: seq 3
            let calls = try journal.calls(of: "r1")
            #expect(calls.map(\.key.step) == ["action", "query"], "in order of starting")
            #expect(calls.map(\.order) == [3, 2])
            #expect(calls.map(\.error) == ["refused", nil])
            #expect(calls.map(\.output) == [nil, ["value": "q"]])
            let outside = try StateDatabase.openSeparately(stateDirectory: dir)
            #expect(try outside.query("SELECT count(*) FROM call_results").first?[0].intValue == 1, "the query's result is in its row")
        }
    }

    @Test func aStateFileOfVersion8ReadsItsCallsUnchanged() async throws {
        try await withTemporaryDirectory { dir in
            // A version-8 file: the first eight migrations, with rows as version 8 wrote them.
            do {
                let database = try Database(url: StateDatabase.url(in: dir))
                try database.migrate(Array(StateDatabase.migrations.prefix(8)))
                try database.execute(
                    """
                    INSERT INTO runs (id, playbook, status, started) VALUES ('old', 'sample', 'interrupted', 1000);
                    INSERT INTO calls (run, step, skill, attempt, parameters, output, finished, started, seq)
                        VALUES ('old', 'done', 'notes.create', 1, '{"title":"a"}', '{"id":"n1"}', 1002, 1001, 2);
                    INSERT INTO calls (run, step, skill, attempt, parameters, started, seq)
                        VALUES ('old', 'open', 'notes.create', 1, '{"title":"b"}', 1003, 3);
                    """)
            }
            let journal = try SQLiteJournal(stateDirectory: dir)
            #expect(try journal.database.userVersion() == StateDatabase.schemaVersion)
            let calls = try journal.calls(of: "old")
            #expect(calls.map(\.key.step) == ["done", "open"])
            #expect(calls.map(\.output) == [["id": "n1"], nil])
            #expect(calls.map(\.isUncertain) == [false, true])
            #expect(calls.map(\.order) == [2, 3])
            // A call started after the upgrade is numbered after them.
            try journal.callStarted(call("old", "later"))
            #expect(try journal.calls(of: "old").last?.order == 4)
        }
    }
}
