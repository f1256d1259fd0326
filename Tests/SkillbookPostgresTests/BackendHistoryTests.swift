import Foundation
import SkillbookCore
import SkillbookPostgres
import SkillbookSQL
import SkillbookSQLite
import SkillbookTesting
import Testing

/// Retention and the runs list at scale, on SQLite and PostgreSQL alike.
@Suite struct BackendHistoryTests {
    /// A finished run that started now (for a pruning pass at `now` in the future, inside its window).
    static func finishedRunForPruning(_ journal: any RunJournal, _ id: String, now: Date) async throws {
        try await journal.runStarted(RunRecord.sample(id, started: now.addingTimeInterval(-86_400)))
        try await journal.runFinished(finished(id, .succeeded))
    }

    /// A finished run of one call that started `daysAgo` days before `now`; the call `undone` (a compensation) when asked.
    private func finishedRun(
        _ journal: any RunJournal, _ id: String, playbook: String = "sample", daysAgo: Double, now: Date, keepUntil: Date? = nil,
        undone: Bool = false
    ) async throws {
        var record = RunRecord.sample(id, playbook: playbook, started: now.addingTimeInterval(-daysAgo * 86_400))
        record.keepUntil = keepUntil
        try await journal.runStarted(record)
        let one = call(id, "one")
        try await journal.callStarted(one)
        try await journal.callFinished(one, output: ["id": "n1"], error: nil, finished: Date())
        try await journal.stepFinished(runID: id, step: "one", status: .succeeded, output: ["id": "n1"], error: nil)
        if undone { try await journal.compensationFinished(runID: id, key: one.key, step: "one", error: nil, finished: Date()) }
        try await journal.runFinished(finished(id, .succeeded))
    }

    @Test(arguments: Backend.allCases)
    func aListWithNoLimitReturnsEveryRun(_ backend: Backend) async throws {
        let state = try await backend.makeState()
        let journal = try state.journal()
        let now = Date()
        for day in 1...3 { try await finishedRun(journal, "r\(day)", daysAgo: Double(day), now: now) }
        // `Int.max` (what "all of them" passes) once overflowed asking for one row past the page.
        let all = try await journal.runs(playbook: nil, status: nil, limit: .max)
        #expect(all.map(\.id) == ["r1", "r2", "r3"])
        #expect(try await journal.runs(playbook: nil, status: .succeeded, limit: .max).count == 3)
    }

    @Test(arguments: Backend.allCases)
    func theJournalCountsItsRunsAndKnowsTheOldestStartAsRunsComeAndGo(_ backend: Backend) async throws {
        let state = try await backend.makeState()
        let journal = try state.journal()
        #expect(try await journal.runCount() == 0)
        #expect(try await journal.oldestRunStart() == nil)
        let now = Date()
        for day in 1...3 { try await finishedRun(journal, "r\(day)", playbook: day == 2 ? "other" : "sample", daysAgo: Double(day), now: now) }
        #expect(try await journal.runCount() == 3)
        let oldest = try #require(try await journal.oldestRunStart())
        #expect(abs(oldest.timeIntervalSince(now.addingTimeInterval(-3 * 86_400))) < 0.01)
        // Pruning the oldest moves both.
        #expect(try await journal.prune(olderThan: now.addingTimeInterval(-2.5 * 86_400), keepingNewest: nil) == 1)
        #expect(try await journal.runCount() == 2)
        let next = try #require(try await journal.oldestRunStart())
        #expect(abs(next.timeIntervalSince(now.addingTimeInterval(-2 * 86_400))) < 0.01)
    }

    @Test(arguments: Backend.allCases)
    func aRunOlderThanTheWindowIsPrunedWithItsCallsAndARunningOneNever(_ backend: Backend) async throws {
        let state = try await backend.makeState()
        let journal = try state.journal()
        let now = Date()
        try await finishedRun(journal, "old", daysAgo: 40, now: now, undone: true)
        try await finishedRun(journal, "young", daysAgo: 10, now: now, undone: true)
        // Its playbook keeps its runs 60 days: older than the workspace's window, kept.
        try await finishedRun(journal, "kept-longer", daysAgo: 40, now: now, keepUntil: now.addingTimeInterval(20 * 86_400))
        // Its playbook keeps its runs 1 day: younger than the window, pruned.
        try await finishedRun(journal, "kept-shorter", daysAgo: 2, now: now, keepUntil: now.addingTimeInterval(-86_400))
        // Running (held by this live process) for 40 days: never pruned.
        try await journal.runStarted(.sample("running", started: now.addingTimeInterval(-40 * 86_400)))
        // Waiting 40 days for an approval: never pruned either.
        try await journal.runStarted(.sample("waiting", started: now.addingTimeInterval(-40 * 86_400)))
        try await journal.runFinished(finished("waiting", .waiting))

        let deleted = try await journal.pruneBatch(RetentionRules(workspace: RetentionPolicy(days: 30, maxRuns: 100)), now: now, limit: 200)
        #expect(deleted == 2)
        #expect(try await journal.run("old") == nil)
        #expect(try await journal.calls(of: "old").isEmpty)
        #expect(try await journal.steps(of: "old").isEmpty)
        #expect(try await journal.sessions(of: "old").isEmpty)
        #expect(try await journal.compensations(of: "old").isEmpty)
        #expect(try await journal.run("kept-shorter") == nil)
        #expect(try await journal.run("young") != nil)
        #expect(try await journal.calls(of: "young").count == 1)
        #expect(try await journal.steps(of: "young").count == 1)
        #expect(try await journal.sessions(of: "young").count == 1)
        #expect(try await journal.compensations(of: "young").count == 1)
        #expect(try await journal.run("kept-longer") != nil)
        #expect(try await journal.run("running")?.status == .running)
        #expect(try await journal.run("waiting")?.status == .waiting)
        // Nothing left to prune: a second pass deletes nothing.
        #expect(try await journal.pruneBatch(RetentionRules(workspace: RetentionPolicy(days: 30, maxRuns: 100)), now: now, limit: 200) == 0)
        // Nor does `runs prune` by age and by count, down to none kept: the running and the waiting run stay.
        _ = try await journal.prune(olderThan: now, keepingNewest: 0)
        #expect(try await journal.runs(playbook: nil, status: nil, limit: 10).map(\.id).sorted() == ["running", "waiting"])
    }

    @Test(arguments: Backend.allCases)
    func theCapsKeepTheNewestRunsInSmallBatchesAndNeverARunningOne(_ backend: Backend) async throws {
        let state = try await backend.makeState()
        let journal = try state.journal()
        let now = Date()
        // The oldest run is still running: it stays whatever the caps say.
        try await journal.runStarted(.sample("r00", playbook: "a", started: now.addingTimeInterval(-1000)))
        for index in 1..<12 {
            try await finishedRun(journal, String(format: "r%02d", index), playbook: index % 2 == 0 ? "a" : "b", daysAgo: Double(12 - index) / 1000, now: now)
        }
        let rules = RetentionRules(workspace: RetentionPolicy(days: 30, maxRuns: 8), playbookCap: ("a", 3))
        // Batches of 2: the journal converges on its policy a few runs at a time.
        var passes = 0
        while try await journal.pruneBatch(rules, now: now, limit: 2) > 0 { passes += 1 }
        #expect(passes >= 2)
        // Playbook a keeps its newest 3 and the running r00; the journal its newest 8 and r00.
        let left = try await journal.runs(playbook: nil, status: nil, limit: 100).map(\.id)
        #expect(left == ["r11", "r10", "r09", "r08", "r07", "r06", "r05", "r03", "r00"])
        #expect(try await journal.runs(playbook: "a", status: nil, limit: 100).map(\.id) == ["r10", "r08", "r06", "r00"])
        #expect(try await journal.latestRuns().map(\.id) == ["r10", "r11"])
    }

    @Test(arguments: Backend.allCases)
    func pagesNeverSkipOrRepeatARunWhileRunsAreAdded(_ backend: Backend) async throws {
        let state = try await backend.makeState()
        let journal = try state.journal()
        let base = Date().addingTimeInterval(-3600)
        // Two runs at each instant, so that the order column breaks the ties across page ends.
        var expected: [String] = []
        for index in 0..<25 {
            let id = String(format: "old%02d", index)
            try await journal.runStarted(.sample(id, started: base.addingTimeInterval(Double(index / 2))))
            try await journal.runFinished(finished(id, .succeeded))
            expected.insert(id, at: 0)
        }
        var seen: [String] = []
        var cursor: RunCursor?
        var added = 0
        repeat {
            let page = try await journal.runs(RunFilter(), after: cursor, limit: 4)
            seen += page.runs.map(\.id)
            cursor = page.next
            // A run added between pages is newer than the cursor: it does not shift the next page.
            added += 1
            try await journal.runStarted(.sample("new\(added)", started: Date()))
        } while cursor != nil
        #expect(seen == expected)
        #expect(Set(seen).count == seen.count)
        // The cursor round-trips as text, and text that is not one is refused.
        #expect(RunCursor(text: RunCursor(started: 12.5, order: 3).text) == RunCursor(started: 12.5, order: 3))
        #expect(RunCursor(text: "100") == nil)
    }

    @Test(arguments: Backend.allCases)
    func theFiltersOfTheRunsListAndAPrefixAreReadAsRanges(_ backend: Backend) async throws {
        let state = try await backend.makeState()
        let journal = try state.journal()
        let base = Date().addingTimeInterval(-3600)
        for index in 0..<10 {
            var record = RunRecord.sample("ab\(index)f", playbook: index % 2 == 0 ? "even" : "odd", started: base.addingTimeInterval(Double(index * 60)))
            record.trigger = index % 3 == 0 ? "schedule" : "cli"
            try await journal.runStarted(record)
            try await journal.runFinished(finished("ab\(index)f", index == 4 ? .failed : .succeeded))
        }
        let filter = RunFilter(playbook: "even", trigger: "schedule")
        #expect(try await journal.runs(filter, after: nil, limit: 10).runs.map(\.id) == ["ab6f", "ab0f"])
        #expect(try await journal.runs(RunFilter(status: .failed), after: nil, limit: 10).runs.map(\.id) == ["ab4f"])
        let window = RunFilter(startedFrom: base.addingTimeInterval(120), startedBefore: base.addingTimeInterval(300))
        #expect(try await journal.runs(window, after: nil, limit: 10).runs.map(\.id) == ["ab4f", "ab3f", "ab2f"])
        #expect(try await journal.resolveRunID("AB7") == "ab7f")
        #expect(try await journal.resolveRunID("ab7f") == "ab7f")
        await #expect(throws: JournalError.self) { try await journal.resolveRunID("ab") }
        await #expect(throws: JournalError.self) { try await journal.resolveRunID("zz") }
    }

    @Test(arguments: Backend.allCases)
    func aRunsCallsAreReadInPagesInOrderOfStarting(_ backend: Backend) async throws {
        let state = try await backend.makeState()
        let journal = try state.journal()
        try await journal.runStarted(.sample("big"))
        try await journal.runStarted(.sample("other"))
        var keys: [String] = []
        for index in 0..<25 {
            let item = CallRecord(
                runID: "big", key: CallKey(step: StepPath(parsing: "each"), iteration: index), skill: "notes.create", attempt: 1,
                parameters: ["title": .int(index)], started: Date())
            try await journal.callStarted(item)
            // Another run's calls between this run's: a page holds this run's alone.
            if index % 5 == 0 { try await journal.callStarted(call("other", "x\(index)")) }
            // Item 8's process died during its call: no result.
            if index != 7 { try await journal.callFinished(item, output: ["id": .int(index)], error: nil, finished: Date()) }
            keys.append(item.key.description)
        }
        var pages: [Int] = []
        var read: [JournalCall] = []
        try await journal.forEachCallPage(of: "big", pageSize: 4) { calls in
            pages.append(calls.count)
            read += calls
        }
        #expect(read.map(\.key.description) == keys)
        #expect(try await journal.calls(of: "big").map(\.key.description) == keys)
        #expect(pages == [4, 4, 4, 4, 4, 4, 1])
        #expect(read[7].isUncertain && read[8].output == ["id": 8])
        // A run of exactly a page ends with an empty read, not an empty page handed out.
        pages = []
        try await journal.forEachCallPage(of: "big", pageSize: 25) { calls in pages.append(calls.count) }
        #expect(pages == [25])
        let header = try #require(try await journal.timelineWithoutCalls("big"))
        #expect(header.run.id == "big" && header.calls.isEmpty && header.sessions.count == 1)
        // The run's row, source and report (one statement on PostgreSQL) as the whole timeline has them.
        let whole = try #require(try await journal.timeline("big"))
        #expect(header.run.status == whole.run.status && header.run.started == whole.run.started && header.source == whole.source && !header.source.isEmpty && header.report == whole.report)
        #expect(try await journal.timelineWithoutCalls("big", withReport: false)?.source == whole.source)
        #expect(try await journal.timelineWithoutCalls("nope") == nil)
    }
}

/// Pruning takes what hangs off a run along: its approval requests, the notifications claimed
/// about it; and the missed fires (with their `missed` claims) recorded before the window.
@Suite struct BackendPruneCompanionsTests {
    @Test(arguments: Backend.allCases)
    func aPrunedRunTakesItsApprovalsAndNotificationsAndOldMissedFiresGo(_ backend: Backend) async throws {
        let state = try await backend.makeState()
        let persistence = state.stateBackend()
        let journal = try persistence.openJournal()
        let approvals = try #require(persistence.approvals(journal))
        let notifications = try persistence.openNotificationLedger()
        // Two runs that waited and were declined, started now.
        for id in ["old", "young"] {
            _ = try await BackendApprovalTests.waitingRun(id, in: journal)
            try await approvals.decide(id, step: nil, ApprovalDecision(verdict: .declined, by: "ada@desk", at: Date()))
            _ = try await journal.takeOver(id, for: .resume, trigger: .cli) { _ in }
            try await journal.runFinished(finished(id, .rolledBack))
            #expect(try await notifications.claim(subject: id, event: .failure, playbook: "sample.notify.failure"))
        }
        // A batch of missed fires, and the claim of its notification, recorded now.
        let noon = Date(timeIntervalSince1970: 1_780_000_000)
        let missed = MissedFires(playbook: "sync", entry: 0, reason: .window, first: noon, last: noon.addingTimeInterval(60), count: 2)
        let decision = FireDecision(start: [], skipped: [], dropped: 2, state: EntryState(watermark: noon.addingTimeInterval(60)), missed: [missed])
        _ = try await state.ledger().commit(decision, playbook: "sync", entry: 0)
        #expect(try await notifications.claim(subject: missed.key, event: .missed, playbook: "sync.notify.missed"))
        #expect(try await state.ledger().history(playbook: "sync", limit: 10).count == 1)

        // 31 days on, with a window of 30 days: both started before it; `inside` a day before then.
        let now = Date().addingTimeInterval(31 * 86_400)
        try await BackendHistoryTests.finishedRunForPruning(journal, "inside", now: now)
        let rules = RetentionRules(workspace: RetentionPolicy(days: 30, maxRuns: 100))
        let deleted = try await journal.pruneBatch(rules, now: now, limit: 200)
        #expect(deleted == 2, "old and young started before the window")
        for id in ["old", "young"] {
            #expect(try await journal.run(id) == nil)
            #expect(try await approvals.approvals(ofRun: id).isEmpty, "its approval requests went with it")
            #expect(try await notifications.notifications(about: id).isEmpty, "and the notifications claimed about it")
        }
        #expect(try await state.ledger().history(playbook: "sync", limit: 10).filter { $0.missed != nil }.isEmpty, "missed fires before the window go")
        #expect(try await notifications.claim(subject: missed.key, event: .missed, playbook: "sync.notify.missed"), "with their claim")
        #expect(try await journal.run("inside") != nil)
    }
}
