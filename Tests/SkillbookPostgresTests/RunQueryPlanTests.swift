import Foundation
import SkillbookCore
import SkillbookPostgres
import SkillbookSQL
import SkillbookSQLite
import SkillbookTesting
import Testing

/// The reads of the runs list, of a run by prefix and of the latest run of each playbook are
/// ranges of indexes on both backends: their plans (`EXPLAIN QUERY PLAN`, `EXPLAIN`) scan no table
/// and sort nothing, so their cost does not grow with the history.
@Suite struct RunQueryPlanTests {
    static let filters: [(String, RunFilter)] = [
        ("newest", RunFilter()),
        ("playbook", RunFilter(playbook: "p7")),
        ("status", RunFilter(status: .failed)),
        ("trigger", RunFilter(trigger: "schedule")),
        ("time range", RunFilter(startedFrom: Date(timeIntervalSince1970: 1_000), startedBefore: Date(timeIntervalSince1970: 3_000))),
    ]
    static let cursor = RunCursor(started: 2_500, order: 2_500)

    @Test func sqlitePlansReadRangesOfIndexes() throws {
        let directory = TemporaryDirectory()
        let database = try StateDatabase.openSeparately(stateDirectory: directory.state)
        _ = try SQLiteJournal(database: database)
        try database.run(
            """
            WITH RECURSIVE s(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM s WHERE i < 4999)
            INSERT INTO runs (id, playbook, status, trigger, started) SELECT lower(hex(randomblob(16))), 'p' || (i % 50),
                CASE WHEN i % 7 = 0 THEN 'failed' ELSE 'succeeded' END, CASE WHEN i % 10 = 0 THEN 'schedule' ELSE 'cli' END, i FROM s
            """)
        try database.execute("ANALYZE")
        func plan(_ sql: String, _ parameters: [SQLValue]) throws -> [String] {
            try database.query("EXPLAIN QUERY PLAN " + sql, parameters).compactMap { $0.string("detail") }
        }
        func expectRanges(_ details: [String], _ what: String) {
            for detail in details {
                let fullScan = detail.hasPrefix("SCAN runs") && !detail.contains("USING")
                #expect(!fullScan && !detail.contains("TEMP B-TREE"), "\(what): \(details)")
            }
        }
        for (name, filter) in Self.filters {
            for cursor in [nil, Self.cursor] {
                let (sql, parameters) = SQLiteJournal.pageQuery(filter, after: cursor, count: 21)
                expectRanges(try plan(sql, parameters), "page by \(name)")
            }
        }
        // The sort is of the at most 6 runs found, newest first for the message.
        let prefix = try plan(SQLiteJournal.prefixQuery, [.text("ab"), .text(RunPaging.prefixEnd("ab"))])
        expectRanges(prefix.filter { $0 != "USE TEMP B-TREE FOR ORDER BY" }, "prefix")
        #expect(prefix.contains { $0.contains("USING INDEX sqlite_autoindex_runs_1 (id>? AND id<?)") }, "\(prefix)")
        // One indexed read per playbook; the sort is of one row per playbook, whatever the history holds.
        let latest = try plan(SQLiteJournal.latestQuery, [])
        expectRanges(latest.filter { $0 != "USE TEMP B-TREE FOR ORDER BY" }, "latest")
        #expect(latest.contains { $0.contains("USING COVERING INDEX runs_by_playbook (playbook=?)") }, "\(latest)")
        // A pass of pruning reads the oldest runs in order from the index on `started` and stops at
        // its size, whatever the number of runs past the cutoff (not every one of them, sorted).
        for (sql, index) in [
            ("keep_until IS NULL AND started < ?1 AND \(SQLiteJournal.prunable) ORDER BY started", "runs_by_age"),
            ("started < ?1 AND \(SQLiteJournal.prunable) ORDER BY started", "runs_by_started"),
            ("playbook = ?1 AND \(SQLiteJournal.prunable) ORDER BY started, rowid", "runs_by_playbook"),
        ] {
            let prune = try plan("SELECT rowid FROM runs WHERE \(sql) LIMIT 200", [.real(4_000)])
            #expect(prune.count == 1 && prune[0].contains(index) && !prune[0].contains("status"), "\(sql): \(prune)")
        }
        // A page of a run's calls: a range of (run's seq, seq), in order, nothing sorted.
        try database.run(
            """
            INSERT INTO calls (run, step, skill, attempt, parameters, started, seq)
            SELECT id, 'a', 'debug.echo', 1, '{}', started, 1 FROM runs
            """)
        try database.execute("ANALYZE")
        let calls = try plan(SQLiteJournal.callPageQuery, [.text("r"), .integer(10), .integer(1000)])
        #expect(calls.contains { $0.contains("USING INDEX calls_by_run_seq (run_seq=? AND seq>?)") }, "\(calls)")
        #expect(!calls.contains { $0.contains("TEMP B-TREE") || $0.hasPrefix("SCAN") }, "\(calls)")
        // Pruning deletes a run's rows by their index on the run's seq (or, in the tables most runs
        // have no row in, on its id), never by reading a table whole: with foreign keys off, as it
        // runs (on, deleting a run would scan the calls, steps and sessions for its rows). The runs
        // are read from `temp.pruning` by its key, not copied into a list of the statement's own.
        try database.execute(SQLiteJournal.pruningTable)
        for sql in SQLiteJournal.pruneStatements {
            let table = String(sql.split(separator: " ")[2])
            let byID = sql.contains("SELECT id FROM temp.pruning")
            let details = try database.withoutForeignKeys { () throws(StoreError) in
                try database.query("EXPLAIN QUERY PLAN " + sql).compactMap { $0.string("detail") }
            }
            let index = byID ? (table == "notifications" ? "PRIMARY KEY" : "\(table)_by_run") : table == "runs" ? "runs_by_seq" : "\(table)_by_run_seq"
            #expect(details.contains { $0.hasPrefix("SEARCH \(table) USING") && $0.contains(index) }, "\(sql): \(details)")
            let key = byID ? "USING INDEX sqlite_autoindex_pruning_1 FOR IN-OPERATOR" : "USING ROWID SEARCH ON TABLE pruning FOR IN-OPERATOR"
            #expect(details.contains(key), "\(sql): \(details)")
            #expect(!details.contains { $0.hasPrefix("SCAN") || $0.contains("LIST SUBQUERY") }, "\(sql): \(details)")
        }
    }

    @Test func postgresPlansReadRangesOfIndexes() async throws {
        let string = try await PostgresCluster.freshDatabase()
        let database = try PostgresDatabase(try #require(PostgresURL(string)))
        _ = PostgresJournal(database: database)
        try database.run(
            """
            INSERT INTO runs (id, playbook, status, trigger, started) SELECT md5(i::text), 'p' || (i % 50),
                CASE WHEN i % 7 = 0 THEN 'failed' ELSE 'succeeded' END, CASE WHEN i % 10 = 0 THEN 'schedule' ELSE 'cli' END, i
            FROM generate_series(0, 19999) AS i
            """)
        try database.run("ANALYZE")
        func plan(_ sql: String, _ parameters: [SQLValue]) throws -> [String] {
            try database.query("EXPLAIN " + sql, parameters).compactMap { $0.string("QUERY PLAN") }
        }
        func expectRanges(_ lines: [String], _ what: String) {
            #expect(!lines.contains { $0.contains("Seq Scan on runs") || $0.contains("Sort") }, "\(what): \(lines)")
        }
        for (name, filter) in Self.filters {
            for cursor in [nil, Self.cursor] {
                let (sql, parameters) = PostgresJournal.pageQuery(filter, after: cursor, count: 21)
                expectRanges(try plan(sql, parameters), "page by \(name)")
            }
        }
        // The sort is of the at most 6 runs found, newest first for the message.
        let prefix = try plan(PostgresJournal.prefixQuery, [.text("ab"), .text(RunPaging.prefixEnd("ab"))])
        #expect(!prefix.contains { $0.contains("Seq Scan on runs") }, "prefix: \(prefix)")
        #expect(prefix.contains { $0.contains("runs_by_id_bytes") }, "prefix: \(prefix)")
        // One indexed read per playbook (a sort, if any, is of one row per playbook).
        let latest = try plan(PostgresJournal.latestQuery, [])
        #expect(!latest.contains { $0.contains("Seq Scan on runs") }, "latest: \(latest)")
        #expect(latest.contains { $0.contains("runs_by_playbook") }, "latest: \(latest)")
        // A page of a run's calls: a range of (run, id), nothing sorted (read as the journal reads it).
        try database.run(
            """
            INSERT INTO calls (run, step, skill, attempt, parameters, started, seq)
            SELECT id, 'a', 'debug.echo', 1, '{}', started, 1 FROM runs
            """)
        try database.run("ANALYZE")
        let calls = try Self.callPagePlan(database, run: "r", after: 10)
        #expect(calls.contains { $0.contains("calls_by_run_seq_id") }, "calls: \(calls)")
        #expect(!calls.contains { $0.contains("Seq Scan") || $0.contains("Sort") }, "calls: \(calls)")
        // Pruning deletes the calls and the runs by their index on the run's seq, not by reading
        // the table (the other tables are empty here, where a scan is what PostgreSQL would choose).
        for (sql, byID) in PostgresJournal.pruneStatements where sql.contains("FROM calls") || sql.contains("FROM runs") {
            let lines = try plan(sql, [.text(byID ? #"["a"]"# : "{1,2,3}")])
            #expect(lines.contains { $0.contains("calls_by_run_seq") || $0.contains("runs_by_seq") }, "\(sql): \(lines)")
            #expect(!lines.contains { $0.contains("Seq Scan") }, "\(sql): \(lines)")
        }
    }

    /// A run that has just written 20,000 calls into a journal whose statistics were taken when it was
    /// empty (autovacuum has not analysed it yet): a page is read with `callPageSettings`, still a range
    /// of the index in order. Left to itself, PostgreSQL reads all of the run's calls after the page's
    /// start in a bitmap scan and sorts them, every page.
    @Test func postgresReadsAFreshRunsCallsInIndexOrder() async throws {
        let string = try await PostgresCluster.freshDatabase()
        let database = try PostgresDatabase(try #require(PostgresURL(string)))
        _ = PostgresJournal(database: database)
        try database.run("ANALYZE")
        try database.run("INSERT INTO runs (id, playbook, status, trigger, started) VALUES ('r', 'p', 'succeeded', 'cli', 1)")
        try database.run(
            """
            INSERT INTO calls (run, step, skill, attempt, parameters, started, seq)
            SELECT 'r', 'a', 'debug.echo', 1, '{}', 1, i FROM generate_series(1, 20000) AS i
            """)
        let plan = try Self.callPagePlan(database, run: "r", after: 10_000)
        #expect(plan.contains { $0.contains("Index Scan using calls_by_run_seq_id") }, "\(plan)")
        #expect(!plan.contains { $0.contains("Bitmap") || $0.contains("Sort") || $0.contains("Seq Scan on calls") }, "\(plan)")
    }

    /// A journal of two runs of 100,000 calls each, analysed, and a run of one call: the statistics say
    /// a run has about 67,000 calls, and with `run_seq = …` PostgreSQL walked the primary key in id
    /// order, filtering on the run (200,000 rows read for one). The page is a range of `calls_by_run_seq_id`.
    @Test func postgresReadsASmallRunsCallsBesideBigRunsFromItsIndex() async throws {
        let string = try await PostgresCluster.freshDatabase()
        let database = try PostgresDatabase(try #require(PostgresURL(string)))
        _ = PostgresJournal(database: database)
        for run in ["big1", "big2", "small"] {
            try database.run("INSERT INTO runs (id, playbook, status, trigger, started) VALUES ($1, 'p', 'succeeded', 'cli', 1)", [.text(run)])
        }
        try database.run(
            """
            INSERT INTO calls (run, step, skill, attempt, parameters, started, seq)
            SELECT CASE WHEN i <= 100000 THEN 'big1' ELSE 'big2' END, 'a', 'debug.echo', 1, '{}', 1, i FROM generate_series(1, 200000) AS i
            """)
        try database.run("INSERT INTO calls (run, step, skill, attempt, parameters, started, seq) VALUES ('small', 'a', 'debug.echo', 1, '{}', 1, 1)")
        try database.run("ANALYZE")
        let plan = try Self.callPagePlan(database, run: "small", after: 0)
        #expect(plan.contains { $0.contains("Index Scan using calls_by_run_seq_id") }, "\(plan)")
        #expect(!plan.contains { $0.contains("calls_pkey") || $0.contains("Sort") || $0.contains("Seq Scan on calls") }, "\(plan)")
        let journal = PostgresJournal(database: database)
        #expect(try journal.calls(of: "small", after: nil, limit: 1000).calls.count == 1)
        // Every call of a big run, once each, in order, a page at a time.
        var orders: [Int] = []
        try await journal.forEachCallPage(of: "big2", pageSize: 3000) { calls in orders += calls.map(\.order) }
        #expect(orders == Array(100_001...200_000))
    }

    /// The plan of a page of `run`'s calls after the row `after`, in the transaction and with the
    /// settings the journal reads it with.
    static func callPagePlan(_ database: PostgresDatabase, run: String, after: Int) throws -> [String] {
        try database.transaction { transaction in
            try transaction.query(PostgresJournal.callPageSettings)
            return try transaction.query("EXPLAIN " + PostgresJournal.callPageQuery, [.text(run), .integer(after), .integer(1000)])
                .compactMap { $0.string("QUERY PLAN") }
        }
    }
}
