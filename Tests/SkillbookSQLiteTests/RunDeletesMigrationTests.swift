import Foundation
import SkillbookCore
import SkillbookSQL
import SkillbookSQLite
import SkillbookTesting
import Testing

/// Deleting runs without a statement journal (see `RunDeletesMigration`): a state file of version
/// 16 keeps every run, finds each by id and prefix, and counts its runs as before, by pruning and
/// by hand; `runs_by_status` is gone and reads by status use `runs_by_status_started`.
@Suite struct RunDeletesMigrationTests {
    static let runs: [(id: String, playbook: String, status: String)] = [
        ("0a11", "p", "succeeded"), ("0a22", "p", "failed"), ("0b33", "q", "succeeded"), ("0c44", "q", "waiting"), ("0d55", "p", "succeeded"),
    ]

    /// A version-16 file holding `runs`, each with a call, a step end and a session, started 100 s apart.
    func version16(_ dir: URL) throws {
        let database = try Database(url: StateDatabase.url(in: dir))
        try database.migrate(Array(StateDatabase.migrations.prefix(16)))
        for (index, run) in Self.runs.enumerated() {
            let time = 1000.0 + Double(index) * 100
            try database.run(
                "INSERT INTO runs (id, playbook, status, started, finished, seq) VALUES (?1, ?2, ?3, ?4, ?4 + 9, ?5)",
                [.text(run.id), .text(run.playbook), .text(run.status), .real(time), .integer(index + 1)])
            try database.run(
                "INSERT INTO calls (run, step, skill, attempt, parameters, started, seq, run_seq) VALUES (?1, 'one', 'debug.echo', 1, '{}', ?2, 1, ?3)",
                [.text(run.id), .real(time + 1), .integer(index + 1)])
            try database.run(
                "INSERT INTO steps (run, step, status, output, finished, run_seq) VALUES (?1, 'one', 'succeeded', '{}', ?2, ?3)",
                [.text(run.id), .real(time + 2), .integer(index + 1)])
            try database.run(
                "INSERT INTO sessions (run, kind, pid, host, started, ended, outcome, run_seq) VALUES (?1, 'run', 1, 'h', ?2, ?2 + 9, 'succeeded', ?3)",
                [.text(run.id), .real(time), .integer(index + 1)])
        }
        #expect(try database.query("SELECT 1 FROM sqlite_schema WHERE name = 'runs_by_status'").count == 1)
    }

    func counts(_ database: Database) throws -> [String: Int] {
        var counts: [String: Int] = [:]
        for row in try database.query("SELECT playbook, runs FROM run_counts") { counts[row.string("playbook") ?? ""] = row.int("runs") }
        return counts
    }

    @Test func aVersion16FileKeepsEveryRunAndCountsItsDeletes() async throws {
        try await withTemporaryDirectory { dir in
            try version16(dir)
            let journal = try SQLiteJournal(stateDirectory: dir)
            let database = journal.database
            #expect(try database.userVersion() == StateDatabase.schemaVersion)
            // Every run, found by its id and by a prefix of it; the counts as they were.
            for run in Self.runs {
                #expect(try journal.run(run.id)?.playbook == run.playbook, "\(run.id)")
                #expect(try journal.resolveRunID(String(run.id.prefix(3))) == run.id, "\(run.id)")
                #expect(try journal.calls(of: run.id).count == 1, "\(run.id)")
            }
            #expect(try counts(database) == ["p": 3, "q": 2])
            #expect(try journal.runs(status: .failed).map(\.id) == ["0a22"])
            // The index of the status alone is gone; a read by status is a range of the other.
            #expect(try database.query("SELECT 1 FROM sqlite_schema WHERE name = 'runs_by_status'").isEmpty)
            let plan = try database.query("EXPLAIN QUERY PLAN SELECT id FROM runs WHERE status = 'running'").compactMap { $0.string("detail") }
            #expect(plan.contains { $0.contains("runs_by_status_started (status=?)") }, "\(plan)")
            // The trigger counts a delete `OR IGNORE`: by pruning (the two oldest), then by hand.
            let trigger = try database.query("SELECT sql FROM sqlite_schema WHERE name = 'run_counts_delete'").first?.string("sql") ?? ""
            #expect(trigger.contains("UPDATE OR IGNORE run_counts SET runs = runs - 1"), "\(trigger)")
            #expect(try journal.prune(olderThan: Date(timeIntervalSince1970: 1150)) == 2)
            #expect(try counts(database) == ["p": 1, "q": 2])
            for table in ["calls", "steps", "sessions"] {
                let runs = try database.query("SELECT run FROM \(table) ORDER BY run").compactMap { $0.string("run") }
                #expect(runs == ["0b33", "0c44", "0d55"], "\(table)")
            }
            try database.execute("DELETE FROM runs WHERE id = '0b33'")
            #expect(try counts(database) == ["p": 1, "q": 1])
            // The waiting run is never pruned, however old; the rest are.
            #expect(try journal.prune(olderThan: Date(timeIntervalSince1970: 9999)) == 1)
            #expect(try database.query("SELECT id FROM runs").compactMap { $0.string("id") } == ["0c44"])
            #expect(try counts(database) == ["p": 0, "q": 1])
            #expect(try database.query("SELECT count(*) AS n FROM temp.pruning").first?.int("n") == 0)
        }
    }
}
