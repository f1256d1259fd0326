import Foundation
import SkillbookCore
import SkillbookSQL
import SkillbookTesting
import Testing

/// The write locks on a state, on SQLite and PostgreSQL alike: exclusive across connections (as
/// across processes and machines), a dead or silent holder taken over, waits recorded for the
/// timeline, a cancelled wait holding nothing.
@Suite struct BackendLocksTests {
    static let here = ProcessIdentity(pid: 4242, host: "here")
    static let there = ProcessIdentity(pid: 77, host: "there")

    func locks(
        _ state: TestState, me: ProcessIdentity, state judge: @escaping @Sendable (ProcessIdentity) -> ProcessState, leaseDuration: Double = 15
    ) throws -> any ResourceLocking {
        try state.locks(probe: ProcessProbe(current: { me }, state: judge), leaseDuration: leaseDuration)
    }

    @Test(arguments: Backend.allCases)
    func twoRunsNeverHoldOneResourceAtOnce(_ backend: Backend) async throws {
        let state = try await backend.makeState()
        let journal = try state.journal()
        try await journal.runStarted(.sample("first"))
        try await journal.runStarted(.sample("second"))
        let one = try state.locks()
        let two = try state.locks()
        try await one.acquire(["notes", "files"], for: "first", step: "a") { _ in }
        let waits = Recorder<ResourceWait>()
        let waiting = Task { try await two.acquire(["notes"], for: "second", step: "b") { waits.append($0) } }
        #expect(await eventually { !waits.values.isEmpty })
        #expect(waits.values.first == ResourceWait(resources: ["notes"], heldBy: "first"))
        await one.release(["notes", "files"], for: "first")
        try await waiting.value
        let timeline = try #require(try await journal.timeline("second"))
        #expect(timeline.waits.map(\.outcome) == ["acquired"])
    }

    @Test(arguments: Backend.allCases)
    func aLiveHolderMakesTheOtherWaitUntilItLetsGo(_ backend: Backend) async throws {
        let state = try await backend.makeState()
        let first = try locks(state, me: Self.here, state: { _ in .alive })
        let second = try locks(state, me: Self.there, state: { _ in .alive })
        try await first.acquire(["notes"], for: "run-a", step: "save", waiting: { _ in Issue.record("must not wait") })
        let waits = Recorder<ResourceWait>()
        let waiting = Task { try await second.acquire(["files", "notes"], for: "run-b", step: "tidy") { waits.append($0) } }
        try #require(await eventually { !waits.values.isEmpty }, "the waiter never waited")
        #expect(waits.values == [ResourceWait(resources: ["notes"], heldBy: "run-a")])
        #expect(try state.lockHolders() == ["notes": "run-a"], "nothing is taken while waiting")
        await first.release(["notes"], for: "run-a")
        try await waiting.value
        #expect(try state.lockHolders() == ["files": "run-b", "notes": "run-b"])
    }

    @Test(arguments: Backend.allCases)
    func aHolderThatIsGoneIsTakenOver(_ backend: Backend) async throws {
        let state = try await backend.makeState()
        let dead = try locks(state, me: Self.here, state: { _ in .alive })
        try await dead.acquire(["notes"], for: "run-dead", step: "save", waiting: { _ in })
        let next = try locks(state, me: Self.there, state: { _ in .gone("process 4242 is gone") })
        try await next.acquire(["notes"], for: "run-next", step: "save", waiting: { _ in Issue.record("must not wait") })
        #expect(try state.lockHolders() == ["notes": "run-next"])
    }

    /// By the real clock (PostgreSQL judges a heartbeat's age by the server's): a lease of one second.
    @Test(arguments: Backend.allCases)
    func aSilentHolderElsewhereIsTakenOverOnlyAfterTheLease(_ backend: Backend) async throws {
        let state = try await backend.makeState()
        do {
            // Its heartbeat stops with it: the lock row stays, silent.
            let remote = try locks(state, me: Self.there, state: { _ in .unknown }, leaseDuration: 1)
            try await remote.acquire(["notes"], for: "run-remote", step: "save", waiting: { _ in })
        }
        let local = try locks(state, me: Self.here, state: { _ in .unknown }, leaseDuration: 1)
        let waits = Recorder<ResourceWait>()
        try await local.acquire(["notes"], for: "run-local", step: "save") { waits.append($0) }
        #expect(waits.values == [ResourceWait(resources: ["notes"], heldBy: "run-remote")], "it waited for the lease first")
        #expect(try state.lockHolders() == ["notes": "run-local"])
    }

    @Test(arguments: Backend.allCases)
    func cancellingAWaitRecordsItAndHoldsNothing(_ backend: Backend) async throws {
        let state = try await backend.makeState()
        let journal = try state.journal()
        try await journal.runStarted(.sample("run-b"))
        let first = try locks(state, me: Self.here, state: { _ in .alive })
        try await first.acquire(["notes"], for: "run-a", step: "save", waiting: { _ in })
        let second = try locks(state, me: Self.there, state: { _ in .alive })
        let waits = Recorder<ResourceWait>()
        let waiting = Task { try await second.acquire(["notes"], for: "run-b", step: "write") { waits.append($0) } }
        try #require(await eventually { !waits.values.isEmpty }, "the waiter never waited")
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
        #expect(try state.lockHolders() == ["notes": "run-a"])
        let recorded = try #require(try await journal.timeline("run-b")).waits
        #expect(recorded.map(\.step) == ["write"])
        #expect(recorded.first?.wait == ResourceWait(resources: ["notes"], heldBy: "run-a"))
        #expect(recorded.first?.outcome == "cancelled")
        #expect(recorded.first?.ended != nil)
    }
}
