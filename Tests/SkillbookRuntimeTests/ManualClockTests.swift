import Foundation
import SkillbookCore
import SkillbookTesting
import Testing

/// The test clock of SkillbookTesting: sleepers wake when the clock is advanced past their deadline.
@Suite struct ManualClockTests {
    @Test func aDayOfWaitsPassesInMilliseconds() async throws {
        let clock = ManualClock(Date(timeIntervalSince1970: 0))
        let started = Date()
        let sleeper = Task {
            var wakes: [Double] = []
            for _ in 0..<24 {
                try await clock.sleep(for: 3600)
                wakes.append(clock.now().timeIntervalSince1970)
            }
            return wakes
        }
        for _ in 0..<24 {
            try #require(await clock.waitForSleepers())
            clock.advance(to: try #require(clock.nextDeadline))
        }
        #expect(try await sleeper.value == (1...24).map { Double($0) * 3600 })
        #expect(Date().timeIntervalSince(started) < 60, "a day of waits is not slept")
    }

    @Test func sleepersWakeInDeadlineOrderOnlyOnceTheirTimeHasCome() async throws {
        let clock = ManualClock(Date(timeIntervalSince1970: 0))
        let woke = Recorder<String>()
        let late = Task { try await clock.sleep(until: Date(timeIntervalSince1970: 100)); woke.append("late") }
        let early = Task { try await clock.sleep(for: 10); woke.append("early") }
        try #require(await clock.waitForSleepers(2))
        clock.advance(9)
        #expect(clock.sleepers == 2)
        clock.advance(1)
        try await early.value
        #expect(woke.values == ["early"])
        #expect(clock.sleepers == 1)
        clock.advance(1000)
        try await late.value
        #expect(woke.values == ["early", "late"])
    }

    @Test func aPastDeadlineReturnsAtOnceAndCancellationWakesASleeper() async throws {
        let clock = ManualClock(Date(timeIntervalSince1970: 50))
        try await clock.sleep(until: Date(timeIntervalSince1970: 10))
        try await clock.sleep(for: 0)
        let sleeper = Task { try await clock.sleep(for: 60) }
        try #require(await clock.waitForSleepers())
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(clock.sleepers == 0)
    }
}
