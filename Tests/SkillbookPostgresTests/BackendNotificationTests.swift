import Foundation
import SkillbookCore
import SkillbookSQL
import SkillbookTesting
import Testing

/// Missed fires and notifications on SQLite and PostgreSQL alike: dropped batches are kept with
/// the decision and listed with the started and skipped fires; a notification is claimed once per
/// subject and event across connections, and linked both ways.
@Suite struct BackendNotificationTests {
    static let noon = Date(timeIntervalSince1970: 1_780_000_000)

    func fire(_ seconds: Double) -> Fire {
        Fire(key: FireKey(playbook: "sync", entry: 0, scheduledAt: Self.noon.addingTimeInterval(seconds)))
    }

    @Test(arguments: Backend.allCases)
    func missedBatchesAreKeptWithTheDecisionAndListedWithTheFires(_ backend: Backend) async throws {
        let state = try await backend.makeState()
        let ledger = try state.ledger()
        let window = MissedFires(
            playbook: "sync", entry: 0, reason: .window, first: Self.noon, last: Self.noon.addingTimeInterval(120), count: 3)
        let catchUp = MissedFires(
            playbook: "sync", entry: 0, reason: .catchUp, first: Self.noon.addingTimeInterval(180),
            last: Self.noon.addingTimeInterval(180), count: 1)
        let decision = FireDecision(
            start: [fire(240)], skipped: [fire(300)], dropped: 4, state: EntryState(watermark: Self.noon.addingTimeInterval(300)),
            missed: [window, catchUp])
        #expect(try await ledger.commit(decision, playbook: "sync", entry: 0) == [fire(240)])
        // The same decision again (another daemon): nothing is recorded twice.
        _ = try await state.ledger().commit(decision, playbook: "sync", entry: 0)

        let history = try await state.ledger().history(playbook: "sync", limit: 10)
        #expect(history.map(\.missed) == [.overlap, nil, .catchUp, .window])
        #expect(history.map(\.count) == [1, 1, 1, 3])
        #expect(history.map { $0.scheduledAt.timeIntervalSince(Self.noon) } == [300, 240, 180, 0])
        #expect(history.last?.lastScheduledAt == Self.noon.addingTimeInterval(120))
        #expect(try await ledger.history(playbook: "other", limit: 10).isEmpty)
        #expect(try await ledger.history(playbook: nil, limit: 2).count == 2)
    }

    @Test(arguments: Backend.allCases)
    func aNotificationIsClaimedOnceAndLinkedToItsRun(_ backend: Backend) async throws {
        let state = try await backend.makeState()
        let ledgers = try (0..<4).map { _ in try state.stateBackend().openNotificationLedger() }
        let claims = try await withThrowingTaskGroup(of: Bool.self) { group in
            for ledger in ledgers {
                group.addTask { try await ledger.claim(subject: "run-1", event: .failure, playbook: "sync.notify.failure") }
            }
            return try await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(claims.filter { $0 }.count == 1)
        // Another event of the same run is another notification.
        #expect(try await ledgers[1].claim(subject: "run-1", event: .success, playbook: "sync.notify.success"))
        try await ledgers[2].link(subject: "run-1", event: .failure, notificationRun: "run-2")

        let sent = try await ledgers[3].notifications(about: "run-1")
        #expect(sent.map(\.event) == [.failure, .success] || sent.map(\.event) == [.success, .failure])
        #expect(sent.first { $0.event == .failure }?.runID == "run-2")
        #expect(sent.first { $0.event == .success }?.runID == nil)
        let carried = try #require(try await ledgers[0].notification(carriedBy: "run-2"))
        #expect(carried.subject == "run-1" && carried.event == .failure && carried.playbook == "sync.notify.failure")
        #expect(try await ledgers[0].notification(carriedBy: "run-1") == nil)
    }

    /// What `runs show` reads of a run (PostgreSQL: one statement), the same as the two reads.
    @Test(arguments: Backend.allCases)
    func aRunsNotificationsAndTheOneItCarriesAreReadTogether(_ backend: Backend) async throws {
        let state = try await backend.makeState()
        let ledger = try state.stateBackend().openNotificationLedger()
        #expect(try await ledger.claim(subject: "run-1", event: .failure, playbook: "sync.notify.failure"))
        #expect(try await ledger.claim(subject: "run-1", event: .success, playbook: "sync.notify.success"))
        #expect(try await ledger.claim(subject: "run-0", event: .failure, playbook: "sync.notify.failure"))
        try await ledger.link(subject: "run-1", event: .failure, notificationRun: "run-2")
        // run-1 is itself the notification run of run-0's failure.
        try await ledger.link(subject: "run-0", event: .failure, notificationRun: "run-1")

        let (about, carried) = try await ledger.notifications(ofRun: "run-1")
        #expect(about == (try await ledger.notifications(about: "run-1")))
        #expect(about.map(\.subject) == ["run-1", "run-1"] && Set(about.map(\.event)) == [.failure, .success])
        #expect(carried == (try await ledger.notification(carriedBy: "run-1")))
        #expect(carried?.subject == "run-0")
        let none = try await ledger.notifications(ofRun: "run-9")
        #expect(none.about.isEmpty && none.carried == nil)
    }
}
