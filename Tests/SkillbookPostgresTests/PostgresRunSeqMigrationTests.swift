import Foundation
import SkillbookCore
import SkillbookSQL
@testable import SkillbookPostgres
import SkillbookTesting
import Testing

/// A PostgreSQL state of version 8 gets its runs' rows keyed by their insertion order (see
/// `PostgresRunSeq`): `run_seq` filled, the foreign keys of the calls, step ends and sessions gone,
/// read and pruned as before.
@Suite struct PostgresRunSeqMigrationTests {
    @Test func aVersion8StateKeysEachRunsRowsByItsSeqAndPrunesThemAll() async throws {
        let url = try #require(PostgresURL(try await PostgresCluster.freshDatabase()))
        // Version 8, with rows as version 8 wrote them: runs a (older) and b, each with a call, a
        // step end, a session and a compensation.
        do {
            let connection = try PostgresConnection(url)
            try connection.query(
                "CREATE TABLE skillbook_schema (version INTEGER PRIMARY KEY, applied DOUBLE PRECISION NOT NULL)", doing: "test")
            for (index, script) in PostgresSchema.migrations.prefix(8).enumerated() {
                try connection.execute(script: script, doing: "test")
                try connection.query("INSERT INTO skillbook_schema (version, applied) VALUES ($1, 0)", [.integer(index + 1)], doing: "test")
            }
            for (index, run) in ["a", "b"].enumerated() {
                let time = SQLValue.real(1000 + Double(index) * 100)
                try connection.query(
                    "INSERT INTO runs (id, playbook, status, started, finished) VALUES ($1, 'p', 'succeeded', $2, $2 + 9)", [.text(run), time],
                    doing: "test")
                try connection.query(
                    """
                    INSERT INTO calls (run, step, skill, attempt, parameters, output, started, finished, seq)
                    VALUES ($1, 'one', 'notes.create', 1, '{"title":"x"}', '{"id":"n"}', $2, $2, 1)
                    """, [.text(run), time], doing: "test")
                try connection.query(
                    "INSERT INTO steps (run, step, status, output, finished) VALUES ($1, 'one', 'succeeded', '{}', $2)", [.text(run), time],
                    doing: "test")
                try connection.query(
                    "INSERT INTO sessions (run, kind, pid, host, started) VALUES ($1, 'run', 1, 'h', $2)", [.text(run), time], doing: "test")
                try connection.query(
                    "INSERT INTO compensations (run, step, finished) VALUES ($1, 'one', $2)", [.text(run), time], doing: "test")
            }
        }
        let database = try PostgresDatabase(url)
        #expect(try database.query("SELECT max(version) AS v FROM skillbook_schema").first?.int("v") == PostgresSchema.version)
        let seqs = Dictionary(uniqueKeysWithValues: try database.query("SELECT id, seq FROM runs").map { ($0.string("id") ?? "", $0.int("seq")) })
        for table in PostgresRunSeq.childTables {
            for row in try database.query("SELECT run, run_seq FROM \(table)") {
                #expect(row.int("run_seq") == seqs[row.string("run") ?? ""] ?? nil, "\(table)")
            }
            let keys = try database.query(
                "SELECT count(*) AS n FROM pg_constraint WHERE conrelid = $1::regclass AND contype = 'f'", [.text(table)])
            #expect(keys.first?.int("n") == 0, "\(table) keeps no foreign key")
        }
        let journal = PostgresJournal(database: database)
        #expect(try journal.calls(of: "a").map(\.output) == [["id": "n"]])
        #expect(try journal.steps(of: "a").map(\.step) == ["one"])
        #expect(try journal.sessions(of: "a").count == 1)
        // A run started now: its rows get its seq from the trigger.
        try journal.runStarted(.sample("c"))
        let c = try database.query("SELECT seq FROM runs WHERE id = 'c'").first?.int("seq")
        #expect(try database.query("SELECT run_seq FROM sessions WHERE run = 'c'").first?.int("run_seq") == c)
        // Pruning `a` deletes every row of it, and nothing of `b`.
        #expect(try journal.prune(olderThan: Date(timeIntervalSince1970: 1050), keepingNewest: nil) == 1)
        for table in PostgresRunSeq.childTables + ["compensations"] {
            let runs = try database.query("SELECT DISTINCT run FROM \(table) ORDER BY run").compactMap { $0.string("run") }
            #expect(runs == (table == "sessions" ? ["b", "c"] : ["b"]), "\(table)")
        }
        #expect(try journal.calls(of: "b").map(\.output) == [["id": "n"]])
    }
}
