import Foundation
import SkillbookCore
import SkillbookSQLite
import SkillbookTesting
import Testing
import SkillbookSQL

/// What only SQLite's ledger has to show; what every ledger does is in `BackendFireLedgerTests`.
@Suite struct SQLiteFireLedgerTests {
    @Test func theStateRowsAndColumnsExistAfterMigration() async throws {
        try await withTemporaryDirectory { dir in
            let database = try StateDatabase.open(stateDirectory: dir)
            let columns = try database.query("PRAGMA table_info(runs)").compactMap { $0.string("name") }
            #expect(columns.contains("scheduled_at"))
            #expect(try database.query("SELECT count(*) FROM fires").first?[0].intValue == 0)
            #expect(try database.query("SELECT count(*) FROM schedule_entries").first?[0].intValue == 0)
        }
    }
}
