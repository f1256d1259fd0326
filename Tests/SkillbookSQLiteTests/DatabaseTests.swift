import SkillbookTesting
import SkillbookCore
import Foundation
import SkillbookSQLite
import Synchronization
import Testing
import SkillbookSQL

@Suite struct DatabaseTests {
    @Test func opensWithParentDirectoriesWALBusyTimeoutAndForeignKeys() async throws {
        try await withTemporaryDirectory { dir in
            let url = dir.appendingPathComponent("a/b/c/test.sqlite")
            let db = try Database(url: url)
            #expect(FileManager.default.fileExists(atPath: url.path))
            #expect(try db.query("PRAGMA journal_mode").first?[0] == .text("wal"))
            #expect(try db.query("PRAGMA busy_timeout").first?[0] == .integer(5000))
            #expect(try db.query("PRAGMA foreign_keys").first?[0] == .integer(1))
        }
    }

    /// Several processes starting on one new state directory at once: switching the new file to WAL
    /// reports SQLITE_BUSY without calling the busy handler, and every opener must wait it out.
    @Test func connectionsOpeningOneNewFileAtOnceAllOpen() async throws {
        try await withTemporaryDirectory { dir in
            for round in 0..<30 {
                let url = dir.appendingPathComponent("round\(round)/state.sqlite")
                let failures = Mutex<[String]>([])
                // On threads of their own: the openers wait out each other's locks, which would hold
                // the cooperative pool's threads (and every other test's tasks) meanwhile.
                await onThreadOfItsOwn {
                    DispatchQueue.concurrentPerform(iterations: 4) { _ in
                        do {
                            let db = try Database(url: url)
                            _ = try db.query("PRAGMA journal_mode")
                        } catch {
                            failures.withLock { $0.append("\(error)") }
                        }
                    }
                }
                #expect(failures.withLock { $0 } == [], "round \(round)")
            }
        }
    }

    /// The last connection's close leaves the write-ahead log (no copy back, no new log at the next
    /// process's first write); the next connection reads every commit from it.
    @Test func closingTheLastConnectionKeepsTheLogAndLosesNothing() async throws {
        try await withTemporaryDirectory { dir in
            let url = dir.appendingPathComponent("state.sqlite")
            do {
                let db = try Database(url: url)
                try db.execute("CREATE TABLE t (x INTEGER)")
                try db.run("INSERT INTO t VALUES (?1)", [.integer(7)])
            }
            let log = try FileManager.default.attributesOfItem(atPath: url.path + "-wal")[.size] as? Int
            #expect((log ?? 0) > 0, "the log was kept")
            let again = try Database(url: url)
            #expect(try again.query("SELECT x FROM t").first?[0] == .integer(7))
        }
    }

    @Test func bindsAndReadsEveryKindOfValue() async throws {
        try await withTemporaryDirectory { dir in
            let db = try Database(url: dir.appendingPathComponent("t.sqlite"))
            try db.execute("CREATE TABLE t (i INTEGER, d REAL, s TEXT, n TEXT, b BLOB)")
            let blob = Data([0, 1, 2, 255])
            let text = "héllo\u{0}wörld ✓"
            try db.run("INSERT INTO t VALUES (?, ?, ?, ?, ?)", [.integer(Int.max), .real(2.5), .text(text), nil, .blob(blob)])
            try db.run("INSERT INTO t VALUES (?, ?, ?, ?, ?)", [-7, 0.0, "", SQLValue(nil as String?), .blob(Data())])

            let rows = try db.query("SELECT i, d, s, n, b FROM t ORDER BY rowid")
            #expect(rows.count == 2)
            #expect(rows[0].columns == ["i", "d", "s", "n", "b"])
            #expect(rows[0].int("i") == Int.max)
            #expect(rows[0].double("d") == 2.5)
            #expect(rows[0].string("s") == text)
            #expect(rows[0]["n"] == .null)
            #expect(rows[0].data("b") == blob)
            #expect(rows[1][0] == .integer(-7))
            #expect(rows[1].string("s") == "")
            #expect(rows[1].data("b") == Data())
            #expect(rows[1]["missing"] == nil)
        }
    }

    @Test func preparedStatementIsReusedWithNewParameters() async throws {
        try await withTemporaryDirectory { dir in
            let db = try Database(url: dir.appendingPathComponent("t.sqlite"))
            try db.execute("CREATE TABLE t (k TEXT PRIMARY KEY, v INTEGER)")
            let insert = try db.prepare("INSERT INTO t VALUES (?, ?)")
            for n in 1...5 { #expect(try insert.run([.text("k\(n)"), .integer(n * n)]) == 1) }

            let select = try db.prepare("SELECT v FROM t WHERE k = ?")
            #expect(try select.query(["k3"]).map { $0[0] } == [.integer(9)])
            #expect(try select.query(["k5"]).map { $0[0] } == [.integer(25)])

            try select.bind(["k2"])
            #expect(try select.step()?.int("v") == 4)
            #expect(try select.step() == nil)
        }
    }

    @Test func wrongParameterCountIsAnError() async throws {
        try await withTemporaryDirectory { dir in
            let db = try Database(url: dir.appendingPathComponent("t.sqlite"))
            try db.execute("CREATE TABLE t (a, b)")
            let error = #expect(throws: StoreError.self) { try db.run("INSERT INTO t VALUES (?, ?)", [1]) }
            #expect(error?.message.contains("takes 2 parameter(s), got 1") == true)
        }
    }

    @Test func sqlErrorsNameTheFile() async throws {
        try await withTemporaryDirectory { dir in
            let url = dir.appendingPathComponent("t.sqlite")
            let db = try Database(url: url)
            let error = #expect(throws: StoreError.self) { try db.query("SELECT * FROM nowhere") }
            #expect(error?.message.contains(url.path) == true)
            #expect(error?.message.contains("no such table: nowhere") == true)
        }
    }

    @Test func transactionCommitsOrRollsBack() async throws {
        struct Boom: Error {}
        try await withTemporaryDirectory { dir in
            let db = try Database(url: dir.appendingPathComponent("t.sqlite"))
            try db.execute("CREATE TABLE t (v INTEGER)")
            let result = try db.transaction {
                try db.run("INSERT INTO t VALUES (1)")
                return "done"
            }
            #expect(result == "done")
            #expect(throws: Boom.self) {
                try db.transaction {
                    try db.run("INSERT INTO t VALUES (2)")
                    throw Boom()
                }
            }
            #expect(try db.query("SELECT v FROM t").map { $0[0] } == [.integer(1)])
        }
    }

    @Test func nestedTransactionRollsBackOnlyItsOwnWork() async throws {
        struct Boom: Error {}
        try await withTemporaryDirectory { dir in
            let db = try Database(url: dir.appendingPathComponent("t.sqlite"))
            try db.execute("CREATE TABLE t (v INTEGER)")
            try db.transaction {
                try db.run("INSERT INTO t VALUES (1)")
                try? db.transaction {
                    try db.run("INSERT INTO t VALUES (2)")
                    throw Boom()
                }
                try db.run("INSERT INTO t VALUES (3)")
            }
            #expect(try db.query("SELECT v FROM t ORDER BY v").map { $0[0] } == [.integer(1), .integer(3)])
        }
    }

    @Test func migrationsApplyForwardOnce() async throws {
        try await withTemporaryDirectory { dir in
            let url = dir.appendingPathComponent("t.sqlite")
            let first = ["CREATE TABLE a (x)"]
            let second = first + ["ALTER TABLE a ADD COLUMN y; CREATE TABLE b (z)"]
            do {
                let db = try Database(url: url)
                #expect(try db.userVersion() == 0)
                try db.migrate(first)
                #expect(try db.userVersion() == 1)
                try db.migrate(first)  // nothing to do
                #expect(try db.userVersion() == 1)
            }
            let db = try Database(url: url)
            try db.migrate(second)
            #expect(try db.userVersion() == 2)
            try db.run("INSERT INTO a (x, y) VALUES (1, 2)")
            try db.run("INSERT INTO b (z) VALUES (3)")
        }
    }

    @Test func failedMigrationLeavesVersionAndSchemaUnchanged() async throws {
        try await withTemporaryDirectory { dir in
            let db = try Database(url: dir.appendingPathComponent("t.sqlite"))
            #expect(throws: StoreError.self) { try db.migrate(["CREATE TABLE a (x)", "THIS IS NOT SQL"]) }
            #expect(try db.userVersion() == 0)
            #expect(try db.query("SELECT name FROM sqlite_master WHERE name = 'a'").isEmpty)
        }
    }

    @Test func newerSchemaIsRefused() async throws {
        try await withTemporaryDirectory { dir in
            let url = dir.appendingPathComponent("t.sqlite")
            let db = try Database(url: url)
            try db.migrate(["CREATE TABLE a (x)", "CREATE TABLE b (x)"])
            let error = #expect(throws: StoreError.self) { try db.migrate(["CREATE TABLE a (x)"]) }
            #expect(error?.kind == .newerSchema)
            #expect(
                error?.message
                    == "state database \(url.path) has schema version 2, newer than this skillbook understands (1); "
                    + "upgrade skillbook or use another state directory")
        }
    }

    @Test(arguments: [
        Data("this is not a database, just some text that happens to be long enough to fill a header".utf8),
        Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }),
        Data([0x01, 0x02]),
    ])
    func garbageFileIsReportedAndLeftUntouched(garbage: Data) async throws {
        try await withTemporaryDirectory { dir in
            let url = dir.appendingPathComponent("notes.sqlite")
            try garbage.write(to: url)
            let error = #expect(throws: StoreError.self) { try Database(url: url) }
            #expect(error?.kind == .notADatabase)
            #expect(error?.suggestsAnotherStateDirectory == true, "the CLI adds how: --state DIR")
            #expect(
                error?.message
                    == "state database \(url.path) is not a valid SQLite database (file is not a database); "
                    + "move it aside or use another state directory")
            #expect(try Data(contentsOf: url) == garbage)
            #expect(!FileManager.default.fileExists(atPath: url.path + "-wal"))
        }
    }

    @Test func directoryInPlaceOfTheFileCannotBeOpened() async throws {
        try await withTemporaryDirectory { dir in
            let url = dir.appendingPathComponent("state.sqlite")
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            let error = #expect(throws: StoreError.self) { try Database(url: url) }
            #expect(error?.kind == .cannotOpen)
            #expect(error?.message.hasPrefix("cannot open state database \(url.path) (") == true)
        }
    }

    /// Pruning's transactions get a page cache for the pages they change, and the connection gets
    /// its own back afterwards, also when the body throws; a smaller size than the connection's
    /// leaves it as it is.
    @Test func aLargerPageCacheHoldsForItsBodyOnly() async throws {
        try await withTemporaryDirectory { dir in
            let db = try Database(url: dir.appendingPathComponent("cache.sqlite"))
            let before = try db.query("PRAGMA cache_size").first?[0]
            let inside = try db.withPageCache(kibibytes: 65_536) { () throws(StoreError) in
                try db.query("PRAGMA cache_size").first?[0]
            }
            #expect(inside == .integer(-65_536))
            #expect(try db.query("PRAGMA cache_size").first?[0] == before)
            #expect(throws: StoreError.self) {
                try db.withPageCache(kibibytes: 65_536) { () throws(StoreError) in _ = try db.query("SELECT * FROM missing") }
            }
            #expect(try db.query("PRAGMA cache_size").first?[0] == before)
            let small = try db.withPageCache(kibibytes: 16) { () throws(StoreError) in try db.query("PRAGMA cache_size").first?[0] }
            #expect(small == before)
        }
    }

    @Test func connectionIsSharedSafelyAcrossTasks() async throws {
        try await withTemporaryDirectory { dir in
            let db = try Database(url: dir.appendingPathComponent("t.sqlite"))
            try db.execute("CREATE TABLE t (v INTEGER)")
            try await withThrowingTaskGroup(of: Void.self) { group in
                for n in 0..<50 {
                    group.addTask {
                        try db.transaction {
                            try db.run("INSERT INTO t VALUES (?)", [.integer(n)])
                            try db.run("INSERT INTO t VALUES (?)", [.integer(n + 1000)])
                        }
                    }
                }
                try await group.waitForAll()
            }
            #expect(try db.query("SELECT count(*), sum(v) FROM t").first?.values == [.integer(100), .integer(52_450)])
        }
    }
}

/// Runs `body` on a new thread and waits for it without holding a thread of the cooperative pool.
private func onThreadOfItsOwn(_ body: @escaping @Sendable () -> Void) async {
    await withCheckedContinuation { continuation in
        Thread {
            body()
            continuation.resume()
        }.start()
    }
}
