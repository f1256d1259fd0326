import SkillbookCore
import Foundation
@testable import SkillbookRuntime
import SkillbookTesting
import Testing

@Suite struct DeadlinesTests {
    @Test func anOperationThatNeverSuspendsReturnsItsResult() async throws {
        let (result, timedOut) = await Deadlines.shared.run(timeout: 60) { 42 }
        #expect(try result.get() == 42)
        #expect(!timedOut)
    }

    @Test func aTimeoutDuringTheFirstSynchronousStretchStillStopsTheOperation() async {
        // The operation starts on the calling thread, so the timer fires before the task exists;
        // the stop must reach it when it first waits.
        let started = Date()
        let (result, timedOut) = await Deadlines.shared.run(timeout: 0.01) {
            let spinUntil = Date().addingTimeInterval(0.2)
            while Date() < spinUntil {}
            try await Task.sleep(for: .seconds(120))
            return 1
        }
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(timedOut)
        #expect(Date().timeIntervalSince(started) < 60, "well under the two minutes it would sleep")
    }

    @Test func aTimeoutReachesAnOperationThatWorksWithoutEverWaiting() async {
        // Like files.copy: synchronous work that checks for cancellation as it goes, on the
        // calling thread the whole time.
        let started = Date()
        let (result, timedOut) = await Deadlines.shared.run(timeout: 0.05) { () async throws -> Int in
            while !Task.isCancelled && Date().timeIntervalSince(started) < 120 {}
            try Task.checkCancellation()
            return 1
        }
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(timedOut)
        #expect(Date().timeIntervalSince(started) < 60, "well under the two minutes it would spin")
    }

    @Test func aCallerStoppedAlreadyStopsTheOperationAtItsFirstCheck() async {
        let caller = Task {
            while !Task.isCancelled { await Task.yield() }
            return await Deadlines.shared.run(timeout: 120) { () async throws -> Int in
                try Task.checkCancellation()
                return 1
            }
        }
        caller.cancel()
        let (result, timedOut) = await caller.value
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(!timedOut)
    }

    @Test func cancellingTheCallerStopsTheOperationAndItsResultStillDecides() async throws {
        let caller = Task {
            await Deadlines.shared.run(timeout: 120) { () async throws -> String in
                do {
                    try await Task.sleep(for: .seconds(120))
                } catch {
                    return "cleaned up"  // an operation may finish its work after being stopped
                }
                return "slept"
            }
        }
        try? await Task.sleep(for: .milliseconds(100))
        caller.cancel()
        let (result, timedOut) = await caller.value
        #expect(try result.get() == "cleaned up")
        #expect(!timedOut)
    }

    @Test func theTimerKeepsTheClockPortsTime() async throws {
        // On a manual clock an hour's timeout passes when the clock is moved on, not before.
        let clock = ManualClock()
        let deadlines = Deadlines(clock: clock)
        let fired = Recorder<String>()
        _ = deadlines.schedule(after: 3600) { fired.append("hour") }
        let early = deadlines.schedule(after: 60) { fired.append("minute") }
        deadlines.cancel(early)
        try await Task.sleep(for: .milliseconds(50))
        #expect(fired.values.isEmpty, "no real time counts")
        clock.advance(3599)
        try await Task.sleep(for: .milliseconds(20))
        #expect(fired.values.isEmpty)
        clock.advance(1)
        #expect(await eventually(within: 5) { fired.values == ["hour"] }, "\(fired.values)")
    }

    @Test func aTimeoutOnAManualClockStopsTheOperationWhenTheClockSaysSo() async throws {
        let clock = ManualClock()
        let deadlines = Deadlines(clock: clock)
        let started = Date()
        let running = Task {
            await deadlines.run(timeout: 600) { () async throws -> Int in
                try await Task.sleep(for: .seconds(120))
                return 1
            }
        }
        try await Task.sleep(for: .milliseconds(20))
        clock.advance(600)
        let (result, timedOut) = await running.value
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(timedOut)
        #expect(Date().timeIntervalSince(started) < 60)
    }
}
