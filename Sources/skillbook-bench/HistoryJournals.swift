import Foundation
import SkillbookCore
import SkillbookPostgres
import SkillbookSQL
import SkillbookSQLite

/// A journal the history bench fills itself, in bulk: runs inserted by the database from a
/// series (one statement per table, in one transaction), not through the engine, so that a million
/// runs take seconds. Run `i` (from 0) is playbook `p<i mod 50>`, started `base + i` seconds
/// (one a second, oldest first), every 7th `failed` and every 10th triggered by `schedule`; each
/// run has one call, one step end and one session, as a one-step run has.
protocol HistoryJournal {
    /// What `--state` takes for the `skillbook` processes: a folder or a connection string.
    var state: String { get }
    var journal: any RunJournal { get }
    /// Adds runs `from..<to`.
    func addRuns(from: Int, to: Int, base: Double) throws
    /// Adds one finished run of `calls` foreach items (`each[item k]`, `debug.echo`); its id.
    func addBigRun(calls: Int, started: Double) throws -> String
    /// A run id from the middle of the journal.
    func someRunID() throws -> String
    /// The journal as a `skillbook` process opens it (its own connection, default settings).
    func journalAsOpenedByTheHost() throws -> any RunJournal
    /// When the journal was restored from a kept copy of a filled one: the `base` it was filled with.
    func restoredBase() throws -> Double?
    /// Keeps a copy of the filled journal for later passes, when asked to.
    func keepFilled() throws
}

enum HistoryRows {
    static let playbooks = 50
    static let source = """
        name: history
        steps:
          - { id: a, skill: debug.echo, with: { value: 1 } }

        """
    static let bigSource = """
        name: big
        inputs:
          items: { type: array, items: { type: integer }, default: [] }
        steps:
          - id: each
            foreach: "${{ inputs.items }}"
            skill: debug.echo
            with: { value: "${{ item }}" }

        """
}

/// The SQLite state in a folder.
final class SQLiteHistoryJournal: HistoryJournal {
    let folder: URL
    let database: Database
    let journal: any RunJournal

    /// Where a filled state is kept between passes (`SKILLBOOK_BENCH_HISTORY_SQLITE_FILLED`), and how
    /// many runs it must hold to be used.
    let filledCopy: URL?
    let runs: Int
    private(set) var restored = false

    init(folder: URL, filledCopy: URL? = nil, runs: Int = 0) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        self.folder = folder
        self.filledCopy = filledCopy
        self.runs = runs
        let file = StateDatabase.url(in: folder)
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: file.path + suffix) }
        if let kept = filledCopy.map({ StateDatabase.url(in: $0) }), FileManager.default.fileExists(atPath: kept.path) {
            try FileManager.default.copyItem(at: kept, to: file)
            restored = true
        }
        database = try StateDatabase.open(stateDirectory: folder)
        journal = try SQLiteJournal(database: database)
        // A page cache of 512 MB for the fill: a million random ids go into the primary key's index
        // without reading it back from disk for every row.
        try database.execute("PRAGMA cache_size = -524288")
    }

    var state: String { folder.path }

    func addRuns(from: Int, to: Int, base: Double) throws {
        let series = "WITH RECURSIVE s(i) AS (SELECT ?1 UNION ALL SELECT i + 1 FROM s WHERE i < ?2 - 1)"
        let range: [SQLValue] = [.integer(from), .integer(to), .real(base), .text(HistoryRows.source)]
        try database.transaction {
            try database.run(
                """
                \(series)
                INSERT INTO runs (id, playbook, source, source_hash, inputs, trigger, status, started, finished, pid, host, outputs, report, seq)
                SELECT lower(hex(randomblob(16))), 'p' || (i % \(HistoryRows.playbooks)), ?4, 'h', '{}',
                    CASE WHEN i % 10 = 0 THEN 'schedule' ELSE 'cli' END,
                    CASE WHEN i % 7 = 0 THEN 'failed' ELSE 'succeeded' END, ?3 + i, ?3 + i + 0.5, 1, 'bench', '{}',
                    '[{"id":"a","status":"succeeded"}]', i + 1
                FROM s
                """, range)
            let children: [SQLValue] = [.real(base + Double(from)), .real(base + Double(to))]
            try database.run(
                """
                INSERT INTO calls (run, step, skill, attempt, parameters, output, started, finished, seq, run_seq)
                SELECT id, 'a', 'debug.echo', 1, '{"value":1}', '{"value":1}', started, started + 0.1, 1, seq
                FROM runs WHERE started >= ?1 AND started < ?2
                """, children)
            try database.run(
                """
                INSERT INTO steps (run, step, status, output, finished, run_seq)
                SELECT id, 'a', 'succeeded', '{"value":1}', started + 0.1, seq FROM runs WHERE started >= ?1 AND started < ?2
                """, children)
            try database.run(
                """
                INSERT INTO sessions (run, kind, pid, host, started, ended, outcome, run_seq)
                SELECT id, 'run', 1, 'bench', started, finished, status, seq FROM runs WHERE started >= ?1 AND started < ?2
                """, children)
        }
    }

    func addBigRun(calls: Int, started: Double) throws -> String {
        let id = "b16" + String(repeating: "0", count: 29)
        try database.transaction {
            try database.run(
                """
                INSERT INTO runs (id, playbook, source, source_hash, inputs, trigger, status, started, finished, pid, host, outputs, report)
                VALUES (?1, 'big', ?2, 'h', '{"items":[]}', 'cli', 'succeeded', ?3, ?3 + 30, 1, 'bench', '{}',
                    '[{"id":"each","status":"succeeded"}]')
                """, [.text(id), .text(HistoryRows.bigSource), .real(started)])
            try database.run(
                """
                WITH RECURSIVE s(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM s WHERE i < ?2 - 1)
                INSERT INTO calls (run, step, iteration, skill, attempt, parameters, output, started, finished, seq, run_seq)
                SELECT ?1, 'each', i, 'debug.echo', 1, '{"value":' || i || '}', '{"value":' || i || '}', ?3 + i * 0.0001,
                    ?3 + i * 0.0001, i + 1, (SELECT seq FROM runs WHERE id = ?1)
                FROM s
                """, [.text(id), .integer(calls), .real(started)])
            try database.run(
                "INSERT INTO steps (run, step, status, output, finished) VALUES (?1, 'each', 'succeeded', '[]', ?2 + 30)",
                [.text(id), .real(started)])
            try database.run(
                "INSERT INTO sessions (run, kind, pid, host, started, ended, outcome) VALUES (?1, 'run', 1, 'bench', ?2, ?2 + 30, 'succeeded')",
                [.text(id), .real(started)])
        }
        return id
    }

    func someRunID() throws -> String {
        let rows = try database.query("SELECT id FROM runs WHERE playbook = 'p7' ORDER BY started LIMIT 1 OFFSET (SELECT count(*) / 100 FROM runs)")
        guard let id = rows.first?.string("id") else { throw BenchError("history: no run in \(folder.path)") }
        return id
    }

    func journalAsOpenedByTheHost() throws -> any RunJournal {
        try SQLiteJournal(database: StateDatabase.openSeparately(stateDirectory: folder))
    }

    func restoredBase() throws -> Double? {
        guard restored else { return nil }
        let held = try database.query("SELECT coalesce(sum(runs), 0) AS n FROM run_counts").first?.int("n") ?? 0
        guard held == runs else {
            throw BenchError("history: the kept state in \(filledCopy?.path ?? "") holds \(held) runs, not \(runs); remove it")
        }
        return try database.query("SELECT min(started) AS base FROM runs").first?.double("base")
    }

    func keepFilled() throws {
        guard let filledCopy else { return }
        try FileManager.default.createDirectory(at: filledCopy, withIntermediateDirectories: true)
        try database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        try FileManager.default.copyItem(at: StateDatabase.url(in: folder), to: StateDatabase.url(in: filledCopy))
    }
}

/// A database of the throw-away PostgreSQL cluster.
final class PostgresHistoryJournal: HistoryJournal {
    let state: String
    let database: PostgresDatabase
    let journal: any RunJournal

    init(connection: String) throws {
        guard let url = PostgresURL(connection) else { throw BenchError("history: bad PostgreSQL URL \(connection)") }
        state = connection
        database = try PostgresDatabase(url)
        journal = PostgresJournal(database: database)
    }

    func addRuns(from: Int, to: Int, base: Double) throws {
        let range: [SQLValue] = [.integer(from), .integer(to - 1), .real(base), .text(HistoryRows.source)]
        try database.transaction { transaction in
            try transaction.run(
                """
                INSERT INTO runs (id, playbook, source, source_hash, inputs, trigger, status, started, finished, pid, host, outputs, report)
                SELECT md5(random()::text || i::text), 'p' || (i % \(HistoryRows.playbooks)), $4, 'h', '{}',
                    CASE WHEN i % 10 = 0 THEN 'schedule' ELSE 'cli' END,
                    CASE WHEN i % 7 = 0 THEN 'failed' ELSE 'succeeded' END, $3 + i, $3 + i + 0.5, 1, 'bench', '{}',
                    '[{"id":"a","status":"succeeded"}]'
                FROM generate_series($1::bigint, $2::bigint) AS i
                """, range)
            let children: [SQLValue] = [.real(base + Double(from)), .real(base + Double(to))]
            try transaction.run(
                """
                INSERT INTO calls (run, step, skill, attempt, parameters, output, started, finished, seq, run_seq)
                SELECT id, 'a', 'debug.echo', 1, '{"value":1}', '{"value":1}', started, started + 0.1, 1, seq
                FROM runs WHERE started >= $1 AND started < $2
                """, children)
            try transaction.run(
                """
                INSERT INTO steps (run, step, status, output, finished, run_seq)
                SELECT id, 'a', 'succeeded', '{"value":1}', started + 0.1, seq FROM runs WHERE started >= $1 AND started < $2
                """, children)
            try transaction.run(
                """
                INSERT INTO sessions (run, kind, pid, host, started, ended, outcome, run_seq)
                SELECT id, 'run', 1, 'bench', started, finished, status, seq FROM runs WHERE started >= $1 AND started < $2
                """, children)
        }
        _ = try database.run("ANALYZE")
    }

    func addBigRun(calls: Int, started: Double) throws -> String {
        let id = "b16" + String(repeating: "0", count: 29)
        try database.transaction { transaction in
            try transaction.run(
                """
                INSERT INTO runs (id, playbook, source, source_hash, inputs, trigger, status, started, finished, pid, host, outputs, report)
                VALUES ($1, 'big', $2, 'h', '{"items":[]}', 'cli', 'succeeded', $3, $3 + 30, 1, 'bench', '{}',
                    '[{"id":"each","status":"succeeded"}]')
                """, [.text(id), .text(HistoryRows.bigSource), .real(started)])
            try transaction.run(
                """
                INSERT INTO calls (run, step, iteration, skill, attempt, parameters, output, started, finished, seq, run_seq)
                SELECT $1, 'each', i, 'debug.echo', 1, '{"value":' || i || '}', '{"value":' || i || '}', $3 + i * 0.0001,
                    $3 + i * 0.0001, i + 1, (SELECT seq FROM runs WHERE id = $1)
                FROM generate_series(0, $2::bigint - 1) AS i
                """, [.text(id), .integer(calls), .real(started)])
            try transaction.run(
                "INSERT INTO steps (run, step, status, output, finished) VALUES ($1, 'each', 'succeeded', '[]', $2 + 30)",
                [.text(id), .real(started)])
            try transaction.run(
                "INSERT INTO sessions (run, kind, pid, host, started, ended, outcome) VALUES ($1, 'run', 1, 'bench', $2, $2 + 30, 'succeeded')",
                [.text(id), .real(started)])
        }
        return id
    }

    func someRunID() throws -> String {
        let rows = try database.query(
            "SELECT id FROM runs WHERE playbook = 'p7' ORDER BY started OFFSET (SELECT count(*) / 100 FROM runs) LIMIT 1")
        guard let id = rows.first?.string("id") else { throw BenchError("history: no run in \(state)") }
        return id
    }

    /// A process connects as this one did: the same journal does.
    func journalAsOpenedByTheHost() throws -> any RunJournal { journal }

    /// The cluster is thrown away after each pass: nothing is kept.
    func restoredBase() throws -> Double? { nil }

    func keepFilled() throws {}
}
