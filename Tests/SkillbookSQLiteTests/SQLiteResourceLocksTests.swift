import Foundation
import SkillbookCore
import SkillbookSQLite
import SkillbookTesting
import Testing
import SkillbookSQL

/// The locks on the state database: exclusive across connections (as across processes), a dead or
/// silent holder taken over, an ended run's lock free, waits recorded for the timeline.
@Suite struct SQLiteResourceLocksTests {
    static let here = ProcessIdentity(pid: 4242, host: "here")
    static let there = ProcessIdentity(pid: 77, host: "there")

    func locks(_ state: URL, me: ProcessIdentity, state probe: @escaping @Sendable (ProcessIdentity) -> ProcessState, clock: any Clock = SystemClock())
        throws -> SQLiteResourceLocks
    {
        try SQLiteResourceLocks(
            database: StateDatabase.openSeparately(stateDirectory: state), probe: ProcessProbe(current: { me }, state: probe),
            clock: clock, pollInterval: 0.01, leaseDuration: 15)
    }

    @Test func aLiveHolderMakesTheOtherWaitUntilItLetsGo() async throws {
        try await withTemporaryDirectory { state in
            let first = try locks(state, me: Self.here, state: { _ in .alive })
            let second = try locks(state, me: Self.there, state: { _ in .alive })
            try await first.acquire(["notes"], for: "run-a", step: "save", waiting: { _ in Issue.record("must not wait") })
            let waits = Recorder<ResourceWait>()
            let waiting = Task { try await second.acquire(["files", "notes"], for: "run-b", step: "tidy") { waits.append($0) } }
            try #require(await eventually { !waits.values.isEmpty }, "the waiter never waited")
            #expect(waits.values == [ResourceWait(resources: ["notes"], heldBy: "run-a")])
            #expect(try second.holders() == ["notes": "run-a"], "nothing is taken while waiting")
            await first.release(["notes"], for: "run-a")
            try await waiting.value
            #expect(try first.holders() == ["files": "run-b", "notes": "run-b"])
        }
    }

    @Test func aHolderThatIsGoneIsTakenOver() async throws {
        try await withTemporaryDirectory { state in
            let dead = try locks(state, me: Self.here, state: { _ in .alive })
            try await dead.acquire(["notes"], for: "run-dead", step: "save", waiting: { _ in })
            let next = try locks(state, me: Self.there, state: { _ in .gone("process 4242 is gone") })
            try await next.acquire(["notes"], for: "run-next", step: "save", waiting: { _ in Issue.record("must not wait") })
            #expect(try next.holders() == ["notes": "run-next"])
        }
    }

    @Test func aSilentHolderElsewhereIsTakenOverOnlyAfterTheLease() async throws {
        try await withTemporaryDirectory { state in
            let clock = ManualClock()
            do {
                // Its heartbeat stops with it: the lock row stays, silent.
                let remote = try locks(state, me: Self.there, state: { _ in .unknown }, clock: clock)
                try await remote.acquire(["notes"], for: "run-remote", step: "save", waiting: { _ in })
            }
            let local = try locks(state, me: Self.here, state: { _ in .unknown }, clock: clock)
            let waits = Recorder<ResourceWait>()
            let waiting = Task { try await local.acquire(["notes"], for: "run-local", step: "save") { waits.append($0) } }
            try #require(await clock.waitForSleepers())
            #expect(waits.values == [ResourceWait(resources: ["notes"], heldBy: "run-remote")])
            clock.advance(16)
            try await waiting.value
            #expect(try local.holders() == ["notes": "run-local"])
        }
    }

    @Test func cancellingAWaitRecordsItAndHoldsNothing() async throws {
        try await withTemporaryDirectory { state in
            let journal = try SQLiteJournal(stateDirectory: state)
            try journal.runStarted(
                RunRecord(
                    runID: "run-b", playbook: "p", source: "", sourceHash: "", inputs: [:], trigger: "cli", started: Date(),
                    dryRun: false))
            let first = try locks(state, me: Self.here, state: { _ in .alive })
            try await first.acquire(["notes"], for: "run-a", step: "save", waiting: { _ in })
            let second = try locks(state, me: Self.there, state: { _ in .alive })
            let waits = Recorder<ResourceWait>()
            let waiting = Task { try await second.acquire(["notes"], for: "run-b", step: "write") { waits.append($0) } }
            try #require(await eventually { !waits.values.isEmpty }, "the waiter never waited")
            waiting.cancel()
            await #expect(throws: CancellationError.self) { try await waiting.value }
            #expect(try second.holders() == ["notes": "run-a"])
            let recorded = try journal.waits(of: "run-b")
            #expect(recorded.map(\.step) == ["write"])
            #expect(recorded.first?.wait == ResourceWait(resources: ["notes"], heldBy: "run-a"))
            #expect(recorded.first?.outcome == "cancelled")
            #expect(recorded.first?.ended != nil)
        }
    }
}
