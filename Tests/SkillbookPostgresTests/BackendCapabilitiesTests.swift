import Foundation
import SkillbookCore
import SkillbookPostgres
import SkillbookSQLite
import SkillbookTesting
import Testing
import SkillbookSQL

/// What the host asks of a state backend (`StateBackend`), asked of SQLite and PostgreSQL alike
/// through each target's entry point, as the host does.
@Suite struct BackendCapabilitiesTests {
    @Test(arguments: Backend.allCases)
    func theWorkspaceOfARunIsRecordedBeforeOrAfterItStarts(_ backend: Backend) async throws {
        let state = try await backend.makeState()
        let journal = try state.stateBackend().openJournal()
        try await journal.setWorkspace("/work/before", forRun: "r1")
        try await journal.runStarted(.sample("r1"))
        try await journal.runStarted(.sample("r2"))
        try await journal.setWorkspace("/work/after", forRun: "r2")
        let reader = try state.stateBackend().openJournal()
        #expect(try await reader.run("r1")?.workspace == "/work/before")
        #expect(try await reader.run("r2")?.workspace == "/work/after")
        try await journal.runStarted(.sample("r3"))
        #expect(try await reader.run("r3")?.workspace == nil, "none said")
    }

    @Test(arguments: Backend.allCases)
    func onlyAStateSharedByMachinesKeepsARunQueue(_ backend: Backend) async throws {
        let state = try await backend.makeState()
        let persistence = state.stateBackend(worker: "w1")
        switch backend {
        case .sqlite:
            #expect(!persistence.queuesRuns)
            #expect(persistence.openRunQueue == nil)
        case .postgres:
            #expect(persistence.queuesRuns)
            let queue = try #require(try persistence.openRunQueue?())
            try await queue.enqueue(.sample("q1"), file: "/p/sample.yaml", workspace: "/work/q")
            #expect(try await queue.queuedCount() == 1)
            let waiter = try queue.queueWaiter()
            defer { waiter.stop() }
            let claimed = try #require(try await queue.claimNext())
            #expect(claimed.run.id == "q1")
            #expect(claimed.wasQueued)
            #expect(claimed.epoch == 1)
            #expect(claimed.source == "name: sample\n")
            #expect(queue.holdsLease("q1"))
            try await queue.confirmLease("q1")
            let run = try #require(try await queue.run("q1"))
            #expect(run.status == .running)
            #expect(run.worker == "w1")
            #expect(run.file == "/p/sample.yaml")
            #expect(run.workspace == "/work/q")
            #expect(try await queue.claimNext() == nil, "nothing else to claim")
            #expect(try await queue.queuedCount() == 0)
        }
    }

    @Test(arguments: Backend.allCases)
    func locksComeOnTheJournalsOwnStateAndNotForAStrangersJournal(_ backend: Backend) async throws {
        let state = try await backend.makeState()
        let persistence = state.stateBackend()
        let journal = try persistence.openJournal()
        let locks = try #require(persistence.resourceLocks(journal))
        try await locks.acquire(["notes"], for: "r1", step: "save", waiting: { _ in })
        await locks.release(["notes"], for: "r1")
        let other: Backend = backend == .sqlite ? .postgres : .sqlite
        let stranger = try await other.makeState().stateBackend().openJournal()
        #expect(persistence.resourceLocks(stranger) == nil, "the host then uses locks among its own runs")
    }

    @Test(arguments: Backend.allCases)
    func theFireLedgerAdoptsTheFiresOfADeadProcess(_ backend: Backend) async throws {
        let state = try await backend.makeState()
        let dead = try deadProcessID()
        let claimer = try state.ledger(pid: dead)
        let fire = Fire(key: FireKey(playbook: "sync", entry: 0, scheduledAt: Date(timeIntervalSince1970: 1_780_000_000)), isCatchUp: false)
        let decision = FireDecision(start: [fire], skipped: [], dropped: 0, state: EntryState())
        let claimed = try await claimer.commit(decision, playbook: "sync", entry: 0)
        #expect(claimed.map(\.key) == [fire.key])
        let ledger = try state.stateBackend().openFireLedger()
        let adopted = try await ledger.adoptOrphans(isAlive: { $0 != dead })
        #expect(adopted.map(\.key) == [fire.key])
        #expect(try await ledger.adoptOrphans(isAlive: { $0 != dead }).isEmpty, "adopted once")
    }

    @Test(arguments: Backend.allCases)
    func anUnusableStateIsAStateFailureThatSaysSo(_ backend: Backend) async throws {
        let persistence: StateBackend
        let directory = TemporaryDirectory()
        switch backend {
        case .sqlite:
            directory.write("state/skillbook.sqlite", "garbage, not SQLite\n")
            persistence = SQLiteState.backend(stateDirectory: directory.state)
        case .postgres:
            persistence = PostgresState.backend("postgresql://nobody@127.0.0.1:1/none")
        }
        // Found on opening (PostgreSQL connects) or on the first read (SQLite opens the file lazily).
        let error = await #expect(throws: (any Error).self) {
            _ = try await persistence.openJournal().runs(playbook: nil, status: nil, limit: 1)
        }
        let failure = try #require(error as? any StateFailure, "\(String(describing: error))")
        #expect(failure.isUnusableState)
        #expect(!failure.message.isEmpty)
    }
}
