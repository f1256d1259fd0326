import Foundation
import SkillbookCore
import SkillbookSchedule
import SkillbookTesting
import Synchronization
import Testing

/// Virtual time: each sleep moves the clock to its deadline at once; past `end` it throws
/// `CancellationError`, which ends the daemon's loop. Records how long each sleep was.
final class VirtualClock: WallClock {
    private let state: Mutex<(now: Date, sleeps: [Double])>
    let end: Date

    init(start: Date, end: Date) {
        state = Mutex((start, []))
        self.end = end
    }

    var sleeps: [Double] { state.withLock { $0.sleeps } }

    func now() -> Date { state.withLock { $0.now } }

    func set(_ date: Date) { state.withLock { $0.now = date } }

    func sleep(for seconds: Double) async throws {
        try await sleep(until: now().addingTimeInterval(max(seconds, 0)))
    }

    func sleep(until deadline: Date) async throws {
        try Task.checkCancellation()
        guard deadline <= end else { throw CancellationError() }
        state.withLock {
            $0.sleeps.append(deadline.timeIntervalSince($0.now))
            $0.now = max($0.now, deadline)
        }
        await Task.yield()
    }
}

/// Records every fire it is asked to run; a run ends at once, or when released (a slow playbook).
final class RecordingStarter: FireStarter {
    private let state = Mutex<(fires: [Fire], gates: [CheckedContinuation<Void, Never>])>(([], []))
    let slow: Bool

    init(slow: Bool = false) {
        self.slow = slow
    }

    var fires: [Fire] { state.withLock { $0.fires } }

    func run(_ fire: Fire, inputs: [ScheduleInput]) async {
        state.withLock { $0.fires.append(fire) }
        guard slow else { return }
        await withCheckedContinuation { continuation in state.withLock { $0.gates.append(continuation) } }
    }

    /// Lets every waiting run end.
    func releaseAll() {
        let gates = state.withLock { state in
            defer { state.gates = [] }
            return state.gates
        }
        for gate in gates { gate.resume() }
    }

    var waiting: Int { state.withLock { $0.gates.count } }
}

@Suite struct DaemonTests {
    /// Issue 27 item 2: a daemon that is stopping (its task cancelled) claims no fire it would not
    /// start, so no orphan is left for the next daemon to adopt late.
    @Test func aStoppingDaemonClaimsNothing() async throws {
        let clock = VirtualClock(start: decemberFirst, end: decemberFirst.addingTimeInterval(60))
        let ledger = InMemoryFireLedger()
        let starter = RecordingStarter()
        let daemon = Daemon(
            playbooks: [ScheduledPlaybook(name: "sync", entries: [try entry(every: 10)])], clock: clock, ledger: ledger, starter: starter)
        let stopping = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await daemon.tick()
        }
        await #expect(throws: CancellationError.self) { try await stopping.value }
        await daemon.waitForRuns()
        #expect(ledger.claimed.isEmpty)
        #expect(starter.fires.isEmpty)
    }

    @Test func aDayOfFiresUnderAVirtualClock() async throws {
        let clock = VirtualClock(start: decemberFirst, end: decemberFirst.addingTimeInterval(86_400))
        let ledger = InMemoryFireLedger()
        let starter = RecordingStarter()
        let daemon = Daemon(
            playbooks: [
                ScheduledPlaybook(name: "sync", entries: [try entry(cron: "*/15 * * * *"), try entry(every: 3600)])
            ], clock: clock, ledger: ledger, starter: starter)
        // Virtual time: the day passes in well under a second when the test runs alone (the timing
        // bound is asserted on the synchronous planner in FirePlannerTests, which a crowded
        // cooperative pool cannot delay).
        await #expect(throws: CancellationError.self) { try await daemon.run() }
        await daemon.waitForRuns()
        #expect(clock.now() == decemberFirst.addingTimeInterval(86_400))
        let fires = starter.fires
        #expect(fires.filter { $0.key.entry == 0 }.count == 96)
        // `every: 1h` fires at once and then each hour, the last at the end of the day.
        #expect(fires.filter { $0.key.entry == 1 }.count == 25)
        #expect(Set(fires.map(\.key)).count == fires.count)
        #expect(ledger.claimed.count == fires.count)
        // Never asleep for more than a minute, so a clock jump is seen within one.
        #expect(clock.sleeps.allSatisfy { $0 <= 60 })
        #expect(fires.allSatisfy { !$0.isCatchUp })
    }

    @Test func catchUpAfterADowntimeAndARestart() async throws {
        let ledger = InMemoryFireLedger()
        let schedule = [ScheduledPlaybook(name: "report", entries: [try entry(cron: "0 * * * *", catchUp: .all)])]
        let first = RecordingStarter()
        let clock = VirtualClock(start: decemberFirst, end: decemberFirst)
        try await Daemon(playbooks: schedule, clock: clock, ledger: ledger, starter: first).tick()
        #expect(first.fires.isEmpty)
        // Three days later a new daemon on the same ledger catches up the window's 24 fires in order.
        clock.set(decemberFirst.addingTimeInterval(3 * 86_400 + 30))
        let second = RecordingStarter()
        let restarted = Daemon(playbooks: schedule, clock: clock, ledger: ledger, starter: second)
        for _ in 0..<30 {
            try await restarted.tick()
            await restarted.waitForRuns()
        }
        #expect(second.fires.count == 24)
        #expect(second.fires.map(\.scheduledAt) == second.fires.map(\.scheduledAt).sorted())
        #expect(second.fires.first?.scheduledAt == decemberFirst.addingTimeInterval(2 * 86_400 + 3600))
        // The newest, 30 s late, is live; it takes its turn after the backlog.
        #expect(second.fires.map(\.isCatchUp) == Array(repeating: true, count: 23) + [false])
    }

    @Test func twoDaemonsOnOneLedgerStartAFireOnce() async throws {
        let ledger = InMemoryFireLedger()
        let schedule = [ScheduledPlaybook(name: "p", entries: [try entry(cron: "* * * * *", overlap: .allow)])]
        let clock = VirtualClock(start: decemberFirst, end: decemberFirst)
        let starters = [RecordingStarter(), RecordingStarter()]
        let daemons = starters.map { Daemon(playbooks: schedule, clock: clock, ledger: ledger, starter: $0) }
        try await daemons[0].tick()
        for minute in 1...10 {
            clock.set(decemberFirst.addingTimeInterval(Double(minute * 60)))
            async let a: Date = daemons[0].tick()
            async let b: Date = daemons[1].tick()
            _ = try await (a, b)
        }
        for daemon in daemons { await daemon.waitForRuns() }
        let all = starters.flatMap(\.fires).map(\.key)
        #expect(all.count == 10)
        #expect(Set(all).count == 10)
    }

    @Test func overlapSkipAndQueueWithASlowPlaybook() async throws {
        for (policy, expectedStarts, expectedSkips) in [(OverlapPolicy.skip, 1, 2), (.queue, 2, 1), (.allow, 3, 0)] {
            let ledger = InMemoryFireLedger()
            let starter = RecordingStarter(slow: true)
            let clock = VirtualClock(start: decemberFirst, end: decemberFirst)
            let daemon = Daemon(
                playbooks: [ScheduledPlaybook(name: "slow", entries: [try entry(cron: "* * * * *", overlap: policy)])],
                clock: clock, ledger: ledger, starter: starter)
            try await daemon.tick()
            for minute in 1...3 {
                clock.set(decemberFirst.addingTimeInterval(Double(minute * 60)))
                try await daemon.tick()
                // Every started run is parked in the slow playbook before the next minute.
                while starter.waiting < (await daemon.runningCount) { await Task.yield() }
            }
            // The runs end; a queued fire starts at the next decision.
            while await daemon.runningCount > 0 {
                starter.releaseAll()
                await Task.yield()
            }
            clock.set(decemberFirst.addingTimeInterval(3 * 60 + 5))
            try await daemon.tick()
            while await daemon.runningCount > 0 {
                starter.releaseAll()
                await Task.yield()
            }
            #expect(starter.fires.count == expectedStarts, "\(policy)")
            #expect(ledger.skipped.count == expectedSkips, "\(policy)")
        }
    }
}
