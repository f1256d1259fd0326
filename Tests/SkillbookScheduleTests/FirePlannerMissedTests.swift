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
}
