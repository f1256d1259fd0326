import Foundation
import SkillbookPostgres
import SkillbookSQLite
import SkillbookTesting
import Testing
import SkillbookSQL

/// A fresh database of the test cluster, migrated.
func freshDatabase() async throws -> PostgresDatabase {
    try PostgresDatabase(#require(PostgresURL(try await PostgresCluster.freshDatabase())))
}

@Suite struct PostgresDatabaseTests {
    @Test func valuesTravelAsParametersNeverAsSQL() async throws {
        let database = try await freshDatabase()
        let hostile = "x'); DROP TABLE notes; --"
        try database.run(
            "INSERT INTO notes (id, title, body, tags, created) VALUES ($1, $2, $3, $4, $5)",
            [.text("n1"), .text(hostile), .text("b"), .text("[]"), .text("2026-01-01T00:00:00Z")])
        let rows = try database.query("SELECT title, position FROM notes WHERE id = $1", [.text("n1")])
        #expect(rows.first?.string("title") == hostile)
        #expect(rows.first?.int("position") == 1)
    }

    @Test func typesComeBackByColumnType() async throws {
        let database = try await freshDatabase()
        let row = try #require(
            try database.query(
                "SELECT $1::bigint AS i, $2::float8 AS d, $3::text AS t, true AS b, NULL::text AS n",
                [.integer(42), .real(1.5), .text("héllo")]
            ).first)
        #expect(row.int("i") == 42)
        #expect(row.double("d") == 1.5)
        #expect(row.string("t") == "héllo")
        #expect(row.int("b") == 1)
        #expect(row["n"] == .null)
    }

    @Test func aRejectedStatementCarriesTheSQLStateAndTheServersMessage() async throws {
        let database = try await freshDatabase()
        let insert = "INSERT INTO notes (id, title, created) VALUES ($1, 't', 'c')"
        try database.run(insert, [.text("same")])
        let error = try #require(throws: PostgresError.self) { try database.run(insert, [.text("same")], doing: "inserting a note") }
        #expect(error.kind == .conflict)
        #expect(error.sqlState == "23505")
        #expect(error.serverMessage == #"duplicate key value violates unique constraint "notes_pkey""#)
        #expect(error.message.hasPrefix("state database postgresql://skillbook@127.0.0.1:"))
        #expect(error.message.hasSuffix(#": inserting a note failed: duplicate key value violates unique constraint "notes_pkey" [SQLSTATE 23505]"#))
        let syntax = try #require(throws: PostgresError.self) { try database.query("SELEC 1") }
        #expect(syntax.sqlState == "42601")
        #expect(syntax.kind == .server)
    }

    @Test func aTransactionIsAllOrNothing() async throws {
        let database = try await freshDatabase()
        #expect(throws: PostgresError.self) {
            try database.transaction { transaction in
                try transaction.run("INSERT INTO notes (id, title, created) VALUES ('a', 't', 'c')")
                try transaction.run("INSERT INTO notes (id, title, created) VALUES ('a', 't', 'c')")
            }
        }
        #expect(try database.query("SELECT count(*) AS n FROM notes").first?.int("n") == 0)
    }

    @Test func migrationsAreRecordedOnceWhateverTheNumberOfOpeners() async throws {
        let url = try #require(PostgresURL(try await PostgresCluster.freshDatabase()))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<4 { group.addTask { _ = try PostgresDatabase(url) } }
            try await group.waitForAll()
        }
        let database = try PostgresDatabase(url)
        let versions = try database.query("SELECT version FROM skillbook_schema ORDER BY version").map { $0.int("version") }
        #expect(versions == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
    }

    @Test func aDatabaseMigratedByANewerSkillbookIsRefusedAndLeftAsItIs() async throws {
        let url = try #require(PostgresURL(try await PostgresCluster.freshDatabase()))
        let database = try PostgresDatabase(url)
        func versions() throws -> [Int?] { try database.query("SELECT version FROM skillbook_schema ORDER BY version").map { $0.int("version") } }
        let current = try versions()
        try database.run("INSERT INTO skillbook_schema (version, applied) VALUES (99, 0)")
        let error = try #require(throws: PostgresError.self) { try PostgresDatabase(url) }
        #expect(error.kind == .newerSchema)
        #expect(error.message.hasSuffix("has schema version 99, newer than this skillbook's \(current.count); upgrade skillbook"))
        #expect(try versions() == current + [99])
    }

    @Test func aPasswordNeverAppearsInMessages() throws {
        let url = try #require(PostgresURL("postgresql://skillbook:s3cr3t-pw@127.0.0.1:1/nowhere"))
        #expect(url.redacted == "postgresql://skillbook:***@127.0.0.1:1/nowhere")
        #expect("\(url)" == "postgresql://skillbook:***@127.0.0.1:1/nowhere")
        let error = try #require(throws: PostgresError.self) { try PostgresDatabase(url) }
        #expect(error.kind == .connection)
        #expect(!error.message.contains("s3cr3t-pw"))
        #expect(error.message.hasPrefix("cannot connect to state database postgresql://skillbook:***@127.0.0.1:1/nowhere ("))
        let query = try #require(PostgresURL("postgresql://u@h/db?password=s3cr3t-pw&sslmode=disable"))
        #expect(query.redacted == "postgresql://u@h/db?password=***&sslmode=disable")
    }

    @Test func connectionStringsAreRecognised() throws {
        let url = try #require(PostgresURL("postgresql://me@db.example:5433/skillbook"))
        #expect(url.user == "me")
        #expect(url.host == "db.example")
        #expect(url.port == 5433)
        #expect(url.database == "skillbook")
        #expect(PostgresURL("postgres://me@h/d") != nil)
        #expect(PostgresURL("/var/lib/skillbook") == nil)
        #expect(PostgresURL.looksLikeURL("PostgreSQL://x") == true)
    }

    @Test func aNotificationWakesAListener() async throws {
        let database = try await freshDatabase()
        let listener = try PostgresListener(database: database, channel: "skillbook_test")
        defer { listener.stop() }
        #expect(await listener.wait(timeout: 0.05) == false)
        let started = Date()
        // Woken by the notification (true), well before the wait's own end; a loaded parallel pass
        // once took 5.8 s to wake it.
        let waiting = Task { await listener.wait(timeout: 60) }
        try await Task.sleep(nanoseconds: 50_000_000)
        try PostgresListener.notify(database, channel: "skillbook_test", payload: "run")
        #expect(await waiting.value == true)
        #expect(Date().timeIntervalSince(started) < 30)
        // One sent while nobody waited is kept for the next wait.
        try PostgresListener.notify(database, channel: "skillbook_test")
        try await Task.sleep(nanoseconds: 300_000_000)
        #expect(await listener.wait(timeout: 0) == true)
    }
}
