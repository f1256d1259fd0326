import SkillbookCore
import SkillbookRuntime
import SkillbookTesting
import Testing

/// The in-process locks: all-or-nothing, the waiter told who holds what, cancellable waiting.
@Suite struct ResourceLocksTests {
    @Test func aSecondRunWaitsForTheHolderAndIsToldWhoHoldsIt() async throws {
        let locks = ResourceLocks()
        try await locks.acquire(["notes"], for: "run-a", step: "s", waiting: { _ in Issue.record("the first run must not wait") })
        let waits = Recorder<ResourceWait>()
        let second = Task { try await locks.acquire(["notes", "files"], for: "run-b", step: "s", waiting: { waits.append($0) }) }
        try #require(await eventually { !waits.values.isEmpty }, "the waiter never waited")
        #expect(waits.values == [ResourceWait(resources: ["notes"], heldBy: "run-a")])
        #expect(await locks.heldResources == ["notes"], "nothing is held while waiting")
        await locks.release(["notes"], for: "run-a")
        try await second.value
        #expect(await locks.heldResources == ["files", "notes"])
    }

    @Test func cancellingAWaitEndsItHoldingNothing() async throws {
        let locks = ResourceLocks()
        try await locks.acquire(["notes"], for: "run-a", step: "s", waiting: { _ in })
        let waits = Recorder<ResourceWait>()
        let waiter = Task { try await locks.acquire(["notes"], for: "run-b", step: "s", waiting: { waits.append($0) }) }
        try #require(await eventually { !waits.values.isEmpty }, "the waiter never waited")
        waiter.cancel()
        await #expect(throws: CancellationError.self) { try await waiter.value }
        await locks.release(["notes"], for: "run-a")
        #expect(await locks.heldResources.isEmpty)
    }

    @Test func aRunCannotReleaseWhatAnotherHolds() async throws {
        let locks = ResourceLocks()
        try await locks.acquire(["notes"], for: "run-a", step: "s", waiting: { _ in })
        await locks.release(["notes"], for: "run-b")
        #expect(await locks.heldResources == ["notes"])
    }
}
