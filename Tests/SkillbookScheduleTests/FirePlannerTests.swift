import Foundation
import SkillbookCore
import SkillbookSchedule
import Testing

func entry(
    cron: String? = nil, every: Double? = nil, timezone: String? = "UTC", catchUp: CatchUpPolicy = .latest,
    window: Double = ScheduleEntry.defaultCatchUpWindow, overlap: OverlapPolicy = .skip
) throws -> ScheduleEntry {
    let trigger: ScheduleEntry.Trigger = try cron.map { .cron(try CronParser.parse($0).get()) } ?? .every(seconds: every ?? 60)
    return ScheduleEntry(
        trigger: trigger, timezone: timezone, catchUp: catchUp, catchUpWindow: window, overlap: overlap,
        location: SourceLocation(file: "p.yaml", line: 2, column: 3))
}

/// 2026-12-01T00:00:00Z.
let decemberFirst = Date(timeIntervalSince1970: 1_796_083_200)

/// Runs the planner with a manual clock stepping by `step` seconds from `start` to `end`, every run
/// finishing at once; returns the scheduled instants started, in the entry's zone.
func simulate(_ planner: FirePlanner, from start: Date, to end: Date, step: Double, zone: String) -> [String] {
    var state = planner.decide(EntryState(), now: start, running: 0).state
    var started: [String] = []
    var now = start
    while now < end {
        now = min(now.addingTimeInterval(step), end)
        let decision = planner.decide(state, now: now, running: 0)
        state = decision.state
        started += decision.start.map { ISOTime.format($0.scheduledAt, in: TimeZone(identifier: zone)!) }
    }
    return started
}

@Suite struct FirePlannerTests {
    @Test func aDayOfFiresInMilliseconds() throws {
        let planner = FirePlanner(playbook: "sync", entryIndex: 0, entry: try entry(cron: "*/15 * * * *"))
        var state = planner.decide(EntryState(), now: decemberFirst, running: 0).state
        #expect(state.watermark == decemberFirst)
        var keys: [FireKey] = []
        let clock = ContinuousClock.now
        while let next = planner.nextFire(state, now: decemberFirst), next <= decemberFirst.addingTimeInterval(86_400) {
            // The scheduler wakes 3 ms late.
            let decision = planner.decide(state, now: next.addingTimeInterval(0.003), running: 0)
            #expect(decision.start.map(\.scheduledAt) == [next])
            #expect(decision.start.allSatisfy { !$0.isCatchUp } && decision.dropped == 0)
            keys += decision.start.map(\.key)
            state = decision.state
        }
        #expect(ContinuousClock.now - clock < .seconds(1))
        #expect(keys.count == 96)
        #expect(Set(keys).count == 96)
        #expect(keys.first?.description == "sync#0@1796084100000")
    }

    @Test func threeDaysDownUnderEachCatchUpPolicy() throws {
        let down = EntryState(watermark: decemberFirst)
        let back = decemberFirst.addingTimeInterval(3 * 86_400 + 600)
        func decide(_ policy: CatchUpPolicy, overlap: OverlapPolicy = .skip) throws -> FireDecision {
            let planner = FirePlanner(
                playbook: "p", entryIndex: 0, entry: try entry(cron: "0 * * * *", catchUp: policy, overlap: overlap))
            return planner.decide(down, now: back, running: 0)
        }
        let none = try decide(.none)
        #expect(none.start.isEmpty && none.dropped == 72 && none.state.watermark == back)

        let latest = try decide(.latest)
        #expect(latest.start.map(\.scheduledAt) == [decemberFirst.addingTimeInterval(3 * 86_400)])
        #expect(latest.start.first?.isCatchUp == true)
        #expect(latest.dropped == 71)

        // `all`: the 24 of the window, one after another; the 48 older ones dropped.
        let all = try decide(.all)
        #expect(all.start.map(\.scheduledAt) == [decemberFirst.addingTimeInterval(2 * 86_400 + 3600)])
        #expect(all.state.backlog.count == 23)
        #expect(all.dropped == 48)
        let planner = FirePlanner(playbook: "p", entryIndex: 0, entry: try entry(cron: "0 * * * *", catchUp: .all))
        var state = all.state
        var order = all.start.map(\.scheduledAt)
        while !state.backlog.isEmpty {
            let busy = planner.decide(state, now: back.addingTimeInterval(1), running: 1)
            #expect(busy.start.isEmpty)
            let idle = planner.decide(busy.state, now: back.addingTimeInterval(2), running: 0)
            #expect(idle.start.count == 1)
            order += idle.start.map(\.scheduledAt)
            state = idle.state
        }
        #expect(order.count == 24 && order == order.sorted())

        let allAtOnce = try decide(.all, overlap: .allow)
        #expect(allAtOnce.start.count == 24 && allAtOnce.state.backlog.isEmpty)
    }

    @Test func catchUpAllKeepsTheNewestThousand() throws {
        let planner = FirePlanner(
            playbook: "p", entryIndex: 0, entry: try entry(every: 60, catchUp: .all, window: 4 * 86_400, overlap: .allow))
        let state = EntryState(watermark: decemberFirst, anchor: decemberFirst)
        let decision = planner.decide(state, now: decemberFirst.addingTimeInterval(3 * 86_400), running: 0)
        // The fire at `now` itself is live; of the 4,319 missed ones the newest 1,000 start.
        #expect(decision.start.filter(\.isCatchUp).count == 1000)
        #expect(decision.start.filter { !$0.isCatchUp }.map(\.scheduledAt) == [decemberFirst.addingTimeInterval(3 * 86_400)])
        #expect(decision.start.first?.scheduledAt == decemberFirst.addingTimeInterval(3 * 86_400 - 1000 * 60))
        #expect(decision.dropped == 3 * 1440 - 1001)
        let cron = FirePlanner(
            playbook: "p", entryIndex: 0, entry: try entry(cron: "* * * * *", catchUp: .all, window: 4 * 86_400, overlap: .allow))
        let cronDecision = cron.decide(EntryState(watermark: decemberFirst), now: decemberFirst.addingTimeInterval(3 * 86_400), running: 0)
        #expect(cronDecision.start.count == 1001 && cronDecision.dropped == 3 * 1440 - 1001)
        let sameKeys = cronDecision.start.map(\.key) == decision.start.map(\.key)
        #expect(sameKeys)
    }

    @Test func eachOverlapPolicyWithASlowRun() throws {
        func planner(_ overlap: OverlapPolicy) throws -> FirePlanner {
            FirePlanner(playbook: "slow", entryIndex: 1, entry: try entry(cron: "* * * * *", overlap: overlap))
        }
        let state = EntryState(watermark: decemberFirst)
        let minute = decemberFirst.addingTimeInterval(60)
        let twoMinutes = decemberFirst.addingTimeInterval(120)

        let skip = try planner(.skip).decide(state, now: minute, running: 1)
        #expect(skip.start.isEmpty && skip.skipped.map(\.scheduledAt) == [minute])

        let queue = try planner(.queue)
        let first = queue.decide(state, now: minute, running: 1)
        #expect(first.start.isEmpty && first.skipped.isEmpty && first.state.waiting?.scheduledAt == minute)
        let second = queue.decide(first.state, now: twoMinutes, running: 1)
        #expect(second.skipped.map(\.scheduledAt) == [twoMinutes] && second.state.waiting?.scheduledAt == minute)
        let finished = queue.decide(second.state, now: twoMinutes.addingTimeInterval(5), running: 0)
        #expect(finished.start.map(\.scheduledAt) == [minute] && finished.state.waiting == nil)

        let allow = try planner(.allow).decide(state, now: minute, running: 3)
        #expect(allow.start.map(\.scheduledAt) == [minute])
    }

    @Test func aDSTNightInBerlin() throws {
        let start = try #require(ISOTime.parse("2026-03-28T12:00:00Z", in: .gmt))
        let fixed = FirePlanner(playbook: "p", entryIndex: 0, entry: try entry(cron: "30 2 * * *", timezone: "Europe/Berlin"))
        #expect(
            simulate(fixed, from: start, to: start.addingTimeInterval(2 * 86_400), step: 60, zone: "Europe/Berlin") == [
                "2026-03-29T03:00:00+02:00", "2026-03-30T02:30:00+02:00",
            ])
        let autumn = try #require(ISOTime.parse("2026-10-24T12:00:00Z", in: .gmt))
        #expect(
            simulate(fixed, from: autumn, to: autumn.addingTimeInterval(86_400), step: 60, zone: "Europe/Berlin") == [
                "2026-10-25T02:30:00+02:00"
            ])
        let halfHourly = FirePlanner(playbook: "p", entryIndex: 0, entry: try entry(cron: "*/30 2 * * *", timezone: "Europe/Berlin"))
        #expect(
            simulate(halfHourly, from: autumn, to: autumn.addingTimeInterval(86_400), step: 60, zone: "Europe/Berlin") == [
                "2026-10-25T02:00:00+02:00", "2026-10-25T02:30:00+02:00", "2026-10-25T02:00:00+01:00",
                "2026-10-25T02:30:00+01:00",
            ])
    }

    @Test func aDSTNightInNewYork() throws {
        let spring = try #require(ISOTime.parse("2026-03-07T12:00:00Z", in: .gmt))
        let fixed = FirePlanner(playbook: "p", entryIndex: 0, entry: try entry(cron: "15 2 * * *", timezone: "America/New_York"))
        #expect(
            simulate(fixed, from: spring, to: spring.addingTimeInterval(2 * 86_400), step: 60, zone: "America/New_York") == [
                "2026-03-08T03:00:00-04:00", "2026-03-09T02:15:00-04:00",
            ])
        let autumn = try #require(ISOTime.parse("2026-10-31T12:00:00Z", in: .gmt))
        let hourly = FirePlanner(playbook: "p", entryIndex: 0, entry: try entry(cron: "0 0-3 * * *", timezone: "America/New_York"))
        // `0 0-3`: minute fixed, hour a range, so a fixed time: 01:00 fires once.
        #expect(
            simulate(hourly, from: autumn, to: autumn.addingTimeInterval(86_400), step: 60, zone: "America/New_York") == [
                "2026-11-01T00:00:00-04:00", "2026-11-01T01:00:00-04:00", "2026-11-01T02:00:00-05:00",
                "2026-11-01T03:00:00-05:00",
            ])
    }

    @Test func theFirstDecisionSetsTheWatermarkAndAnIntervalFiresAtOnce() throws {
        let cron = FirePlanner(playbook: "p", entryIndex: 0, entry: try entry(cron: "* * * * *"))
        let first = cron.decide(EntryState(), now: decemberFirst, running: 0)
        #expect(first.start.isEmpty && first.state.watermark == decemberFirst)
        let interval = FirePlanner(playbook: "p", entryIndex: 0, entry: try entry(every: 2))
        let anchored = interval.decide(EntryState(), now: decemberFirst, running: 0)
        #expect(anchored.start.map(\.scheduledAt) == [decemberFirst] && anchored.state.anchor == decemberFirst)
        #expect(interval.nextFire(anchored.state, now: decemberFirst) == decemberFirst.addingTimeInterval(2))
        // The same decision again starts nothing: the watermark has passed it.
        #expect(interval.decide(anchored.state, now: decemberFirst.addingTimeInterval(1), running: 0).start.isEmpty)
    }

    /// Issue 27 item 2: a fire adopted from a daemon that died before starting it obeys the
    /// entry's `catch_up` and window, as if it were due now.
    @Test func anAdoptedFireObeysCatchUp() throws {
        func planner(_ policy: CatchUpPolicy, window: Double = ScheduleEntry.defaultCatchUpWindow) throws -> FirePlanner {
            FirePlanner(playbook: "p", entryIndex: 0, entry: try entry(every: 10, catchUp: policy, window: window))
        }
        let anchor = decemberFirst
        let state = EntryState(watermark: anchor, anchor: anchor)
        let orphan = Fire(key: FireKey(playbook: "p", entry: 0, scheduledAt: anchor.addingTimeInterval(10)), isCatchUp: false)
        let soon = anchor.addingTimeInterval(16)  // 6 s late: live for every policy
        let later = anchor.addingTimeInterval(75)  // 65 s late: newer fires are due
        for policy in [CatchUpPolicy.none, .latest, .all] {
            #expect(try planner(policy).adopts(orphan, state: state, now: soon), "\(policy)")
        }
        #expect(try !planner(.none).adopts(orphan, state: state, now: later))
        #expect(try !planner(.latest).adopts(orphan, state: state, now: later), "a newer fire is due: latest means that one")
        #expect(try planner(.all).adopts(orphan, state: state, now: later))
        #expect(try !planner(.all, window: 60).adopts(orphan, state: state, now: anchor.addingTimeInterval(100)), "outside the window")
        // 15 s late, with a newer fire due (at 20 s): not live, as `decide` has it — missed.
        let superseded = anchor.addingTimeInterval(25)
        #expect(try !planner(.none).adopts(orphan, state: state, now: superseded))
        #expect(try !planner(.latest).adopts(orphan, state: state, now: superseded))
        #expect(try planner(.all).adopts(orphan, state: state, now: superseded))
    }
}
