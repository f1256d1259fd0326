import Foundation
import SkillbookCore
import SkillbookSQL
import SkillbookSQLite
import SkillbookTesting
import Testing

/// A run's rows keyed by its insertion order (see `RunSeqMigration`): a state file of version 14
/// gets them, reads as before, and prunes every row of a run by it.
@Suite struct RunSeqMigrationTests {
    /// A version-14 file: runs `a` (older) and `b`, each with a call, a result stored apart, a step
    /// end, a session, a compensation and a wait, as version 14 wrote them.
    func version14(_ dir: URL) throws {
        let database = try Database(url: StateDatabase.url(in: dir))
        try database.migrate(Array(StateDatabase.migrations.prefix(14)))
        for (index, run) in ["a", "b"].enumerated() {
            let time = 1000.0 + Double(index) * 100
            try database.run(
                "INSERT INTO runs (id, playbook, status, started, finished) VALUES (?1, 'p', 'succeeded', ?2, ?2 + 9)",
                [.text(run), .real(time)])
            try database.run(
                """
                INSERT INTO calls (run, step, skill, attempt, parameters, started, seq) VALUES (?1, 'one', 'notes.create', 1, '{"title":"x"}', ?2, 1)
                """, [.text(run), .real(time + 1)])
            try database.run(
                "INSERT INTO call_results (call, run, seq, output, finished) VALUES (?3, ?1, 2, '{\"id\":\"n\"}', ?2)",
                [.text(run), .real(time + 2), .integer(database.lastInsertRowID)])
            try database.run(
                "INSERT INTO steps (run, step, status, output, finished) VALUES (?1, 'one', 'succeeded', '{}', ?2)", [.text(run), .real(time + 3)])
            try database.run(
                "INSERT INTO sessions (run, kind, pid, host, started, ended, outcome) VALUES (?1, 'run', 1, 'h', ?2, ?2 + 9, 'succeeded')",
                [.text(run), .real(time)])
            try database.run(
                "INSERT INTO compensations (run, step, finished) VALUES (?1, 'one', ?2)", [.text(run), .real(time + 4)])
            try database.run(
                "INSERT INTO resource_waits (run, step, resources, started) VALUES (?1, 'one', '[\"r\"]', ?2)", [.text(run), .real(time + 1)])
        }
    }

    @Test func aVersion14FileKeysEachRunsRowsByItsSeqAndPrunesThemAll() async throws {
        try await withTemporaryDirectory { dir in
            try version14(dir)
            let journal = try SQLiteJournal(stateDirectory: dir)
            #expect(try journal.database.userVersion() == StateDatabase.schemaVersion)
            let database = journal.database
            #expect(try database.query("SELECT id, seq FROM runs ORDER BY seq").map { [$0[0], $0[1]] } == [[.text("a"), .integer(1)], [.text("b"), .integer(2)]])
            for table in ["calls", "call_results", "steps", "sessions"] {
                let rows = try database.query("SELECT run, run_seq FROM \(table) ORDER BY run").map { [$0[0], $0[1]] }
                #expect(rows == [[.text("a"), .integer(1)], [.text("b"), .integer(2)]], "\(table)")
            }
            // Read as before.
            let calls = try journal.calls(of: "a")
            #expect(calls.map(\.output) == [["id": "n"]])
            #expect(try journal.steps(of: "a").map(\.step) == ["one"])
            #expect(try journal.sessions(of: "a").count == 1)
            // A run started now takes the next seq, and its rows carry it.
            try journal.runStarted(.sample("c"))
            try journal.callStarted(call("c", "one"))
            try journal.flush()
            #expect(try database.query("SELECT seq FROM runs WHERE id = 'c'").first?[0] == .integer(3))
            #expect(try database.query("SELECT run_seq FROM calls WHERE run = 'c'").first?[0] == .integer(3))
            #expect(try database.query("SELECT run_seq FROM sessions WHERE run = 'c'").first?[0] == .integer(3))
            // Pruning `a` deletes every row of it, and nothing of `b`; foreign keys are on again after.
            #expect(try journal.prune(olderThan: Date(timeIntervalSince1970: 1050)) == 1)
            for table in ["calls", "call_results", "steps", "sessions", "compensations", "resource_waits"] {
                let runs = try database.query("SELECT DISTINCT run FROM \(table) ORDER BY run").compactMap { $0.string("run") }
                #expect(runs == (["calls", "sessions"].contains(table) ? ["b", "c"] : ["b"]), "\(table)")
            }
            #expect(try database.query("PRAGMA foreign_keys").first?[0] == .integer(1))
            #expect(try journal.calls(of: "b").map(\.output) == [["id": "n"]])
        }
    }

    @Test func aRunInsertedWithoutItsSeqGetsTheNextOneAndSoDoItsRows() async throws {
        try await withTemporaryDirectory { dir in
            let journal = try SQLiteJournal(stateDirectory: dir)
            try journal.runStarted(.sample("first"))
            // As another tool would write: no seq, no run_seq.
            try journal.database.execute(
                """
                INSERT INTO runs (id, playbook, status, started) VALUES ('by-hand', 'p', 'succeeded', 5);
                INSERT INTO steps (run, step, status, finished) VALUES ('by-hand', 'one', 'succeeded', 6);
                """)
            #expect(try journal.database.query("SELECT seq FROM runs WHERE id = 'by-hand'").first?[0] == .integer(2))
            #expect(try journal.steps(of: "by-hand").map(\.step) == ["one"])
        }
    }
}
