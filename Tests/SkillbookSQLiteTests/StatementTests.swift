import Foundation
import SkillbookSQLite
import SkillbookTesting
import Testing
import SkillbookSQL

/// `Statement.run` and `query` bind long texts and blobs in place (see `Statement.inPlaceBytes`).
@Suite struct StatementTests {
    @Test func longTextsAndBlobsRoundTripAndLeaveNoBindingBehind() async throws {
        try await withTemporaryDirectory { dir in
            let db = try Database(url: dir.appendingPathComponent("t.sqlite"))
            try db.execute("CREATE TABLE t (k TEXT, v, n INTEGER)")
            let insert = try db.prepare("INSERT INTO t VALUES (?1, ?2, ?3)")
            let long = String(repeating: "é0123456789abcd", count: 20_000)  // 320,000 bytes
            let blob = Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0) })
            #expect(try insert.run([.text("text"), .text(long), .integer(1)]) == 1)
            #expect(try insert.run([.text("blob"), .blob(blob), .integer(2)]) == 1)
            #expect(try insert.run([.text(long), .text("short"), .integer(3)]) == 1, "a long text before short ones")
            let select = try db.prepare("SELECT v FROM t WHERE k = ?1")
            #expect(try select.query([.text("text")]).first?[0] == .text(long))
            #expect(try select.query([.text("blob")]).first?[0] == .blob(blob))
            #expect(try select.query([.text(long)]).first?[0] == .text("short"), "a long text bound to a query")
            // A failed run (wrong type for a STRICT-like check) leaves no binding pointing anywhere.
            try db.execute("CREATE TABLE c (v TEXT CHECK (length(v) < 10))")
            let checked = try db.prepare("INSERT INTO c VALUES (?1)")
            #expect(throws: StoreError.self) { try checked.run([.text(long)]) }
            #expect(try checked.run([.text("ok")]) == 1)
            #expect(try db.query("SELECT v FROM c").map { $0[0] } == [.text("ok")])
        }
    }
}
