import Foundation
import SkillbookCore
import SkillbookSQL
import SkillbookTesting
import Testing

/// The ledger of schedule fires, on SQLite and PostgreSQL alike: each fire claimed once whoever
/// decides it, the planner's state kept with the claim, a dead claimer's fires adopted once.
@Suite struct BackendFireLedgerTests {
    static let noon = Date(timeIntervalSince1970: 1_780_000_000)

    func fire(_ seconds: Double, entry: Int = 0, catchUp: Bool = false) -> Fire {
        Fire(key: FireKey(playbook: "sync", entry: entry, scheduledAt: Self.noon.addingTimeInterval(seconds)), isCatchUp: catchUp)
    }

    @Test(arguments: Backend.allCases)
    func aFireIsClaimedOnceAcrossConnectionsAndTheStateIsKeptWithIt(_ backend: Backend) async throws {
        let ledgers = try await backend.makeState()
        let first = try ledgers.ledger()
        let second = try ledgers.ledger()
        #expect(try await first.state(playbook: "sync", entry: 0) == EntryState())
        let state = EntryState(watermark: Self.noon.addingTimeInterval(60), backlog: [fire(120, catchUp: true)])
        let decision = FireDecision(start: [fire(0), fire(60)], skipped: [], dropped: 0, state: state)
        #expect(try await first.commit(decision, playbook: "sync", entry: 0) == [fire(0), fire(60)])
        #expect(try await second.commit(decision, playbook: "sync", entry: 0) == [])
        #expect(try await second.state(playbook: "sync", entry: 0) == state)
        #expect(try await second.state(playbook: "sync", entry: 1) == EntryState())

        let overlapping = FireDecision(start: [fire(60), fire(120)], skipped: [fire(180)], dropped: 0, state: state)
        #expect(try await second.commit(overlapping, playbook: "sync", entry: 0) == [fire(120)])
        let recorded = try ledgers.recordedFires(playbook: "sync")
        #expect(recorded.map(\.fire.key.scheduledMilliseconds) == [180_000, 120_000, 60_000, 0].map { 1_780_000_000_000 + $0 })
        #expect(recorded.map(\.started) == [false, true, true, true])
    }

    @Test(arguments: Backend.allCases)
    func concurrentClaimsOfOneKeyHaveExactlyOneWinner(_ backend: Backend) async throws {
        let state = try await backend.makeState()
        let ledgers = try (0..<4).map { _ in try state.ledger() }
        let decision = FireDecision(start: (0..<25).map { fire(Double($0)) }, skipped: [], dropped: 0, state: EntryState())
        let claims = try await withThrowingTaskGroup(of: [Fire].self) { group in
            for ledger in ledgers { group.addTask { try await ledger.commit(decision, playbook: "sync", entry: 0) } }
            return try await group.reduce(into: [Fire]()) { $0 += $1 }
        }
        #expect(claims.count == 25)
        #expect(Set(claims.map(\.key)).count == 25)
    }

    @Test(arguments: Backend.allCases)
    func ofFourLedgersClaimingOneFireExactlyOneGetsItAndItsAnchor(_ backend: Backend) async throws {
        let state = try await backend.makeState()
        var decided = EntryState()
        decided.anchor = Self.noon
        let decision = FireDecision(start: [fire(0)], skipped: [], dropped: 0, state: decided)
        let ledgers = try (0..<4).map { _ in try state.ledger() }
        let claims = try await withThrowingTaskGroup(of: Int.self) { group in
            for ledger in ledgers { group.addTask { try await ledger.commit(decision, playbook: "sync", entry: 0).count } }
            return try await group.reduce(0, +)
        }
        #expect(claims == 1)
        #expect(try await ledgers[0].state(playbook: "sync", entry: 0).anchor == Self.noon)
    }

    @Test(arguments: Backend.allCases)
    func aFireClaimedByADeadProcessBeforeItsRunBeganIsAdoptedOnce(_ backend: Backend) async throws {
        let state = try await backend.makeState()
        let dead = try state.ledger(pid: 4_000_001)
        let live = try state.ledger(pid: 4_000_002)
        let me = try state.ledger(pid: 4_000_003)
        _ = try await dead.commit(FireDecision(start: [fire(0)], skipped: [], dropped: 0, state: EntryState()), playbook: "sync", entry: 0)
        _ = try await live.commit(FireDecision(start: [fire(60)], skipped: [], dropped: 0, state: EntryState()), playbook: "sync", entry: 0)
        let alive: (Int32) -> Bool = { $0 == 4_000_002 }
        #expect(try await me.adoptOrphans(isAlive: alive) == [fire(0)])
        #expect(try await me.adoptOrphans(isAlive: alive) == [])
        #expect(try await live.adoptOrphans(isAlive: { _ in true }) == [])
    }
}
