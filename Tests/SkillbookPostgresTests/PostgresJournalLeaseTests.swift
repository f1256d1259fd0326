import Foundation
import SkillbookCore
import SkillbookPostgres
import SkillbookSQLite
import SkillbookTesting
import Testing
import SkillbookSQL

/// What only the PostgreSQL journal does: fenced writes, the queue and its claims.
@Suite struct PostgresJournalLeaseTests {
    /// Run `r` started on a fresh database by a journal whose 0.2 s lease lapses (it beats once a
    /// minute), with the runs whose lease it hears it lost; `url` opens another process's journal.
    static func holderOfALapsingLease() async throws -> (url: PostgresURL, old: PostgresJournal, lost: Recorder<String>) {
        let state = try await Backend.postgres.makeState()
        let url = try #require(state.url)
        let old = PostgresJournal(database: try PostgresDatabase(url), heartbeatInterval: 60, leaseDuration: 0.2)
        let lost = Recorder<String>()
        old.setLeaseLostHandler { lost.append($0) }
        try old.runStarted(.sample("r"))
        return (url, old, lost)
    }

    @Test func aTakenOverRunRefusesEveryWriteOfItsOldHolder() async throws {
        let state = try await Backend.postgres.makeState()
        let url = try #require(state.url)
        let old = PostgresJournal(database: try PostgresDatabase(url), heartbeatInterval: 60, leaseDuration: 0.2)
        try old.runStarted(.sample("r"))
        try old.callStarted(call("r", "one"))
        try await Task.sleep(for: .milliseconds(500))
        let new = PostgresJournal(database: try PostgresDatabase(url), heartbeatInterval: 60, leaseDuration: 15)
        let before = try new.takeOver("r", for: .resume) { _ throws(JournalError) in }
        #expect(before.status == .interrupted)
        #expect(before.interruption?.hasPrefix("its lease expired: no heartbeat from process ") == true)
        #expect(old.epoch(of: "r") == 1)
        #expect(new.epoch(of: "r") == 2)

        let refused = #expect(throws: JournalError.self) { try old.callFinished(call("r", "one"), output: ["id": "x"], error: nil, finished: Date()) }
        #expect(refused?.kind == .refused)
        #expect(refused?.message == "run r was taken over by another process (this process's lease on it expired); it stops here")
        #expect(!old.holdsLease("r"))
        #expect(throws: JournalError.self) { try old.callStarted(call("r", "two")) }
        #expect(throws: JournalError.self) { try old.runFinished(finished("r", .succeeded)) }
        #expect(try new.calls(of: "r").map(\.isUncertain) == [true], "the old holder's result was not recorded")
        try new.callFinished(call("r", "one"), output: ["id": "y"], error: nil, finished: Date())
        try new.runFinished(finished("r", .succeeded))
        #expect(try new.run("r")?.status == .succeeded)
    }

    @Test func aLapsedLeaseIsReportedToTheHolderWhenItsRenewalIsRefused() async throws {
        let (url, old, lost) = try await Self.holderOfALapsingLease()
        try await Task.sleep(for: .milliseconds(400))
        let new = PostgresJournal(database: try PostgresDatabase(url))
        try new.takeOver("r", for: .resume) { _ throws(JournalError) in }
        old.beat()
        #expect(lost.values == ["r"])
        #expect(!old.holdsLease("r"))
    }

    /// The zombie of a worker may notice the takeover by a refused write before its heartbeat does
    /// (a claimed run being got ready, a step whose calls were all reused): the holder hears of it
    /// either way, once, and its source and lease writes are fenced too.
    @Test func aRefusedWriteIsReportedToTheHolderOnceAndEveryKindOfWriteIsFenced() async throws {
        let (url, old, lost) = try await Self.holderOfALapsingLease()
        try old.confirmLease("r")
        try old.setSource("name: sample\n", forRun: "r")
        try await Task.sleep(for: .milliseconds(400))
        let new = PostgresJournal(database: try PostgresDatabase(url), heartbeatInterval: 60, leaseDuration: 15)
        try new.takeOver("r", for: .resume) { _ throws(JournalError) in }

        let refused = #expect(throws: JournalError.self) { try old.setSource("name: zombie\n", forRun: "r") }
        #expect(refused?.kind == .refused)
        #expect(lost.values == ["r"])
        #expect(throws: JournalError.self) { try old.confirmLease("r") }
        #expect(throws: JournalError.self) { try old.stepFinished(runID: "r", step: "one", status: .succeeded, output: nil, outputMasked: false, error: nil) }
        #expect(throws: JournalError.self) { try old.runFinished(finished("r", .succeeded)) }
        old.beat()
        #expect(lost.values == ["r"], "reported once")
        #expect(try new.timeline("r")?.source == "name: sample\n")
        #expect(try new.run("r")?.status == .running)
    }

    @Test func workersClaimEachQueuedRunOnceAndSkipLockedRows() async throws {
        let state = try await Backend.postgres.makeState()
        let url = try #require(state.url)
        let enqueuer = PostgresJournal(database: try PostgresDatabase(url))
        for index in 0..<20 { try enqueuer.enqueue(.sample("q\(index)"), file: "/p/sample.yaml") }
        #expect(try enqueuer.queuedCount() == 20)
        #expect(try enqueuer.run("q0")?.status == .queued)
        let busy = #expect(throws: JournalError.self) { try enqueuer.takeOver("q0", for: .resume) { _ throws(JournalError) in } }
        #expect(busy?.message == "run q0 (sample) is queued; a worker will run it ('skillbook worker' on a machine sharing the state)")
        let workers = try (0..<4).map { index in
            PostgresJournal(database: try PostgresDatabase(url), worker: "w\(index)")
        }
        let claimed = try await withThrowingTaskGroup(of: [String].self) { group in
            for worker in workers {
                group.addTask {
                    var ids: [String] = []
                    while let claim = try worker.claimNext() { ids.append(claim.run.id) }
                    return ids
                }
            }
            return try await group.reduce(into: [String]()) { $0 += $1 }
        }
        #expect(claimed.count == 20)
        #expect(Set(claimed).count == 20, "no run claimed twice")
        let run = try #require(try enqueuer.run("q3"))
        #expect(run.status == .running)
        #expect(run.worker?.hasPrefix("w") == true)
        #expect(run.file == "/p/sample.yaml")
        #expect(try enqueuer.sessions(of: "q3").map(\.kind) == ["worker"])
    }

    @Test func aDecisionOnAnotherIntervalAnchorIsDroppedByTheLedger() async throws {
        let state = try await Backend.postgres.makeState()
        let first = try state.ledger(pid: 1)
        let second = try state.ledger(pid: 2)
        let t0 = Date(timeIntervalSince1970: 1_780_000_000)
        func decision(anchor: Date) -> FireDecision {
            FireDecision(
                start: [Fire(key: FireKey(playbook: "pulse", entry: 0, scheduledAt: anchor))], skipped: [], dropped: 0,
                state: EntryState(watermark: anchor, anchor: anchor))
        }
        #expect(try await first.commit(decision(anchor: t0), playbook: "pulse", entry: 0).count == 1)
        // A second daemon that read the entry before the first stored its anchor.
        #expect(try await second.commit(decision(anchor: t0.addingTimeInterval(0.012)), playbook: "pulse", entry: 0).isEmpty)
        #expect(try await second.state(playbook: "pulse", entry: 0).anchor == t0)
    }
}
