import Foundation
import SkillbookCore
import SkillbookSchedule
import Testing

/// The batches of fires a decision drops, with their reason.
@Suite struct FirePlannerMissedTests {
    func decide(_ catchUp: CatchUpPolicy, window: Double = 86400, away hours: Double, running: Int = 0) throws -> FireDecision {
        let planner = FirePlanner(playbook: "p", entryIndex: 0, entry: try entry(cron: "0 * * * *", catchUp: catchUp, window: window))
        let state = planner.decide(EntryState(), now: decemberFirst, running: 0).state
        return planner.decide(state, now: decemberFirst.addingTimeInterval(hours * 3600 + 30), running: running)
    }

    func hour(_ n: Double) -> Date { decemberFirst.addingTimeInterval(n * 3600) }

    @Test func catchUpNoneDropsEveryMissedFireAsOneBatch() throws {
        let decision = try decide(.none, away: 5)
        // Five fires, the newest (30 s late) live: it starts, four were missed.
        #expect(decision.start.map(\.scheduledAt) == [hour(5)])
        #expect(decision.missed == [MissedFires(playbook: "p", entry: 0, reason: .catchUp, first: hour(1), last: hour(4), count: 4)])
        #expect(decision.dropped == 4)
    }

    @Test func theWindowAndLatestEachHaveTheirReason() throws {
        let decision = try decide(.latest, window: 2.5 * 3600, away: 5.9)
        // Fires 1…5 missed: 1…3 older than the window, 4 superseded by 5 (latest).
        #expect(decision.start.map(\.scheduledAt) == [hour(5)])
        #expect(
            decision.missed == [
                MissedFires(playbook: "p", entry: 0, reason: .window, first: hour(1), last: hour(3), count: 3),
                MissedFires(playbook: "p", entry: 0, reason: .catchUp, first: hour(4), last: hour(4), count: 1),
            ])
        #expect(decision.dropped == 4)
    }

    @Test func aFireDueWhileTheRunStillRunsIsSkippedNotMissed() throws {
        let decision = try decide(.latest, away: 1, running: 1)
        #expect(decision.start.isEmpty)
        #expect(decision.skipped.map(\.scheduledAt) == [hour(1)])
        #expect(decision.missed.isEmpty)
        #expect(MissedFires(skipped: decision.skipped[0]).reason == .overlap)
    }

    /// `every: 10s` decided again 35 s later (a daemon restarted, `tick` from cron): three fires due,
    /// all less than a minute late. Only the newest is live; the two before it were missed — they
    /// had been started oldest first and the rest "skipped: the previous run still runs", with a
    /// `missed` notification each, while nothing ran.
    @Test func firesDueTogetherStartTheNewestAndMissTheRest() throws {
        let planner = FirePlanner(playbook: "beat", entryIndex: 0, entry: try entry(every: 10))
        let state = planner.decide(EntryState(), now: decemberFirst, running: 0).state
        let later = decemberFirst.addingTimeInterval(35)
        let decision = planner.decide(state, now: later, running: 0)
        #expect(decision.start.map(\.scheduledAt) == [decemberFirst.addingTimeInterval(30)])
        #expect(decision.skipped.isEmpty)
        #expect(
            decision.missed == [
                MissedFires(
                    playbook: "beat", entry: 0, reason: .catchUp, first: decemberFirst.addingTimeInterval(10),
                    last: decemberFirst.addingTimeInterval(20), count: 2)
            ])
        // While a run still runs, the newest is skipped for the overlap; the older ones stay missed.
        let busy = planner.decide(state, now: later, running: 1)
        #expect(busy.start.isEmpty && busy.skipped.map(\.scheduledAt) == [decemberFirst.addingTimeInterval(30)])
        #expect(busy.missed.map(\.count) == [2])
        // `catch_up: all` starts them in order, one at a time.
        let all = FirePlanner(playbook: "beat", entryIndex: 0, entry: try entry(every: 10, catchUp: .all))
        let backlog = all.decide(all.decide(EntryState(), now: decemberFirst, running: 0).state, now: later, running: 0)
        #expect(backlog.start.map(\.scheduledAt) == [decemberFirst.addingTimeInterval(10)])
        #expect(backlog.state.backlog.map(\.scheduledAt) == [20, 30].map { decemberFirst.addingTimeInterval($0) })
        #expect(backlog.skipped.isEmpty && backlog.missed.isEmpty)
    }
}
