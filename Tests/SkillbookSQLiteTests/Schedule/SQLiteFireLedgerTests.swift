import Foundation
import SkillbookCore
import SkillbookSQLite
import SkillbookTesting
import Testing
import SkillbookSQL

@Suite struct SQLiteFireLedgerTests {
    static let noon = Date(timeIntervalSince1970: 1_780_000_000)

    func fire(_ seconds: Double, entry: Int = 0, catchUp: Bool = false) -> Fire {
        Fire(key: FireKey(playbook: "sync", entry: entry, scheduledAt: Self.noon.addingTimeInterval(seconds)), isCatchUp: catchUp)
    }

    @Test func aFireIsClaimedOnceAcrossConnectionsAndTheStateIsKeptWithIt() async throws {
        try await withTemporaryDirectory { dir in
            let first = SQLiteFireLedger(database: try StateDatabase.openSeparately(stateDirectory: dir))
            let second = SQLiteFireLedger(database: try StateDatabase.openSeparately(stateDirectory: dir))
            #expect(try await first.state(playbook: "sync", entry: 0) == EntryState())
            let state = EntryState(watermark: Self.noon.addingTimeInterval(60), backlog: [fire(120, catchUp: true)])
            let decision = FireDecision(start: [fire(0), fire(60)], skipped: [], dropped: 0, state: state)
            #expect(try await first.commit(decision, playbook: "sync", entry: 0) == [fire(0), fire(60)])
            #expect(try await second.commit(decision, playbook: "sync", entry: 0) == [])
            #expect(try await second.state(playbook: "sync", entry: 0) == state)
            #expect(try await second.state(playbook: "sync", entry: 1) == EntryState())

            let overlapping = FireDecision(start: [fire(60), fire(120)], skipped: [fire(180)], dropped: 0, state: state)
            #expect(try await second.commit(overlapping, playbook: "sync", entry: 0) == [fire(120)])
            let recorded = try first.fires(playbook: "sync")
            #expect(recorded.map(\.fire.key.scheduledMilliseconds) == [180_000, 120_000, 60_000, 0].map { 1_780_000_000_000 + $0 })
            #expect(recorded.map(\.started) == [false, true, true, true])
        }
    }

    @Test func concurrentClaimsOfOneKeyHaveExactlyOneWinner() async throws {
        try await withTemporaryDirectory { dir in
            let ledgers = try (0..<4).map { _ in SQLiteFireLedger(database: try StateDatabase.openSeparately(stateDirectory: dir)) }
            let decision = FireDecision(start: (0..<25).map { fire(Double($0)) }, skipped: [], dropped: 0, state: EntryState())
            let claims = try await withThrowingTaskGroup(of: [Fire].self) { group in
                for ledger in ledgers { group.addTask { try await ledger.commit(decision, playbook: "sync", entry: 0) } }
                return try await group.reduce(into: [Fire]()) { $0 += $1 }
            }
            #expect(claims.count == 25)
            #expect(Set(claims.map(\.key)).count == 25)
        }
    }

    @Test func theStateRowsAndColumnsExistAfterMigration() async throws {
        try await withTemporaryDirectory { dir in
            let database = try StateDatabase.open(stateDirectory: dir)
            let columns = try database.query("PRAGMA table_info(runs)").compactMap { $0.string("name") }
            #expect(columns.contains("scheduled_at"))
            #expect(try database.query("SELECT count(*) FROM fires").first?[0].intValue == 0)
            #expect(try database.query("SELECT count(*) FROM schedule_entries").first?[0].intValue == 0)
        }
    }

    @Test func aFireClaimedByADeadProcessBeforeItsRunBeganIsAdoptedOnce() async throws {
        try await withTemporaryDirectory { dir in
            let dead = SQLiteFireLedger(database: try StateDatabase.openSeparately(stateDirectory: dir), pid: 4_000_001)
            let live = SQLiteFireLedger(database: try StateDatabase.openSeparately(stateDirectory: dir), pid: 4_000_002)
            let me = SQLiteFireLedger(database: try StateDatabase.openSeparately(stateDirectory: dir), pid: 4_000_003)
            _ = try await dead.commit(FireDecision(start: [fire(0)], skipped: [], dropped: 0, state: EntryState()), playbook: "sync", entry: 0)
            _ = try await live.commit(FireDecision(start: [fire(60)], skipped: [], dropped: 0, state: EntryState()), playbook: "sync", entry: 0)
            let alive: (Int32) -> Bool = { $0 == 4_000_002 }
            #expect(try me.adoptOrphans(isAlive: alive) == [fire(0)])
            #expect(try me.adoptOrphans(isAlive: alive) == [])
            #expect(try live.adoptOrphans(isAlive: { _ in true }) == [])
        }
    }
}
