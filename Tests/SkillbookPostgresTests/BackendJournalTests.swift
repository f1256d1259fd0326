import Foundation
import SkillbookCore
import SkillbookPostgres
import SkillbookSQLite
import SkillbookTesting
import Testing
import SkillbookSQL

/// The journal's contract, run against SQLite and PostgreSQL alike.
@Suite struct BackendJournalTests {
    @Test(arguments: Backend.allCases)
    func aRunRoundTripsThroughTheJournal(_ backend: Backend) async throws {
        let state = try await backend.makeState()
        let journal = try state.journal()
        try await journal.setFile("/playbooks/sample.yaml", forRun: "r1")
        var record = RunRecord.sample("r1", inputs: ["name": "Ada", "token": "***"])
        record.scheduledAt = Date(timeIntervalSince1970: 1_780_000_000)
        record.trigger = "schedule"
        try await journal.runStarted(record)
        let one = call("r1", "one")
        try await journal.callStarted(one)
        try await journal.callFinished(one, output: ["id": "n1", "n": 1.5], error: nil, finished: Date())
        try await journal.stepFinished(runID: "r1", step: "one", status: .succeeded, output: ["id": "n1", "n": 1.5], error: nil)
        let flaky1 = call("r1", "many", batch: 0, skill: "notes.create_many")
        try await journal.callStarted(flaky1)
        try await journal.callFinished(flaky1, output: nil, error: "boom", finished: Date())
        try await journal.callStarted(call("r1", "many", batch: 0, skill: "notes.create_many", attempt: 2))

        let listed = try #require(try await journal.runs(playbook: nil, status: nil, limit: 20).first)
        #expect(listed.id == "r1")
        #expect(listed.status == .running)
        #expect(listed.file == "/playbooks/sample.yaml")
        #expect(listed.inputs == ["name": "Ada", "token": "***"])
        #expect(listed.trigger == "schedule")
        #expect(listed.scheduledAt == Date(timeIntervalSince1970: 1_780_000_000))

        let timeline = try #require(try await journal.timeline("r1"))
        #expect(timeline.source == "name: sample\n")
        #expect(timeline.calls.map(\.key.description) == ["one", "many[batch 1]", "many[batch 1]"])
        #expect(timeline.calls[0].output == ["id": "n1", "n": 1.5])
        #expect(timeline.calls[0].parameters == ["title": "one"])
        #expect(timeline.calls[1].error == "boom")
        #expect(timeline.calls[2].isUncertain)
        #expect(timeline.steps.map(\.status) == [.succeeded])
        #expect(timeline.sessions.map(\.kind) == ["run"])

        let plan = try await journal.resumePlan("r1") { _ in .skip }
        #expect(plan.completed.map(\.key) == [CallKey(step: "one")])
        #expect(plan.uncertain == [CallKey(step: "many", batch: 0): .skip])
        #expect(plan.finishedSteps["one"]?.output == ["id": "n1", "n": 1.5])

        try await journal.compensationFinished(runID: "r1", key: CallKey(step: "one"), step: "one", error: nil, finished: Date())
        var step = StepReport(id: "many", skill: "notes.create_many", status: .failed)
        step.error = "boom"
        step.failureKind = .skill
        try await journal.runFinished(finished("r1", .rolledBack, error: "step 'many' failed: boom", kind: .skill, steps: [step]))
        let ended = try #require(try await journal.timeline("r1"))
        #expect(ended.run.status == .rolledBack)
        #expect(ended.run.error == "step 'many' failed: boom")
        #expect(ended.calls[0].compensated)
        #expect(ended.compensations.map(\.key) == [CallKey(step: "one")])
        #expect(ended.sessions.map(\.outcome) == ["rolled_back"])
        #expect(ended.report?.arrayValue?.first?["failure_kind"] == "skill")
        #expect(ended.report?.arrayValue?.first?["error"] == "boom")
        let replanned = try await journal.resumePlan("r1") { _ in .rerun }
        #expect(replanned.completed.isEmpty, "compensated calls are not reused")
    }

    @Test(arguments: Backend.allCases)
    func aRunWhoseProcessIsGoneIsInterruptedAndCanBeTakenOverOnce(_ backend: Backend) async throws {
        let state = try await backend.makeState()
        let me = ProcessProbe.live.current()
        let dead = try deadProcessID()
        let crashed = try state.journal(probe: probe(as: ProcessIdentity(pid: dead, host: me.host, boot: me.boot, start: "1")))
        try await crashed.runStarted(.sample("r"))
        try await crashed.callStarted(call("r", "one"))

        let first = try state.journal()
        let second = try state.journal()
        let run = try #require(try await first.run("r"))
        #expect(run.status == .interrupted)
        #expect(run.interruption == "process \(dead) is gone")
        #expect(try await first.runs(playbook: nil, status: .interrupted, limit: 10).map(\.id) == ["r"])
        #expect(try await first.runs(playbook: nil, status: .running, limit: 10).isEmpty)

        let before = try await first.takeOver("r", for: .resume, trigger: "cli") { _ throws(JournalError) in }
        #expect(before.status == .interrupted)
        #expect(try await second.run("r")?.status == .running)
        let refusal = await #expect(throws: JournalError.self) { try await second.takeOver("r", for: .resume, trigger: "cli") { _ throws(JournalError) in } }
        #expect(refusal?.kind == .busy)
        #expect(refusal?.message == "run r (sample) is still running in process \(me.pid); wait for it to finish or stop that process first")
        #expect(try await first.sessions(of: "r").map(\.outcome) == ["interrupted", nil])

        try await first.release("r", status: .interrupted)
        #expect(try await second.run("r")?.status == .interrupted)
        #expect(try await second.sessions(of: "r").last?.outcome == "abandoned")
        let checked = await #expect(throws: JournalError.self) {
            try await second.takeOver("r", for: .rollback, trigger: "cli") { _ throws(JournalError) in throw JournalError(.refused, "no") }
        }
        #expect(checked?.message == "no")
        #expect(try await second.run("r")?.status == .interrupted, "a refused check changes nothing")
        // Each session says who started it: the run's trigger, then where each takeover was asked.
        try await second.takeOver("r", for: .rollback, trigger: "console") { _ throws(JournalError) in }
        let sessions = try await second.sessions(of: "r")
        #expect(sessions.map(\.kind) == ["run", "resume", "rollback"])
        #expect(sessions.map(\.trigger) == ["cli", "cli", "console"])
        let missing = await #expect(throws: JournalError.self) { try await second.takeOver("nope", for: .resume, trigger: "cli") { _ throws(JournalError) in } }
        #expect(missing?.kind == .notFound)
    }

    @Test(arguments: Backend.allCases)
    func pruneDeletesOldRunsAndKeepsTheNewestButNeverALiveOne(_ backend: Backend) async throws {
        let state = try await backend.makeState()
        let journal = try state.journal()
        let now = Date()
        let me = ProcessProbe.live.current()
        let crashed = try state.journal(probe: probe(as: ProcessIdentity(pid: try deadProcessID(), host: me.host, boot: me.boot)))
        for day in 0..<6 {
            let id = "day-\(day)"
            let started = now.addingTimeInterval(-Double(day) * 86400 - 60)
            try await (day == 5 ? crashed : journal).runStarted(.sample(id, started: started))
            if day < 4 { try await journal.runFinished(finished(id, .succeeded)) }
        }
        // day-4 is still held by this (live) process; day-5's process is gone.
        #expect(try await journal.prune(olderThan: now.addingTimeInterval(-2.5 * 86400), keepingNewest: nil) == 2, "day-3 and day-5")
        #expect(try await journal.runs(playbook: nil, status: nil, limit: 10).map(\.id) == ["day-0", "day-1", "day-2", "day-4"])
        #expect(try await journal.prune(olderThan: nil, keepingNewest: 10) == 0)
        #expect(try await journal.prune(olderThan: nil, keepingNewest: 1) == 2, "day-1 and day-2 go; day-4 is live")
        #expect(try await journal.runs(playbook: nil, status: nil, limit: 10).map(\.id) == ["day-0", "day-4"])
    }

    @Test(arguments: Backend.allCases)
    func aRunOnAnotherMachineIsJudgedByItsLease(_ backend: Backend) async throws {
        let state = try await backend.makeState()
        let elsewhere = ProcessIdentity(pid: 4242, host: "another-machine")
        let writer = try state.journal(
            probe: ProcessProbe(current: { elsewhere }, state: { _ in .unknown }), heartbeatInterval: 60, leaseDuration: 0.3)
        try await writer.runStarted(.sample("remote"))
        let reader = try state.journal(
            probe: ProcessProbe(current: { ProcessProbe.live.current() }, state: { _ in .unknown }), leaseDuration: 0.3)
        #expect(try await reader.run("remote")?.status == .running)
        try await Task.sleep(for: .milliseconds(700))
        let late = try #require(try await reader.run("remote"))
        #expect(late.status == .interrupted)
        let prefix = backend == .sqlite ? "no heartbeat from process 4242 on another-machine for " : "its lease expired: no heartbeat from process 4242 on another-machine for "
        #expect(late.interruption?.hasPrefix(prefix) == true, "\(late.interruption ?? "")")
    }

    @Test(arguments: Backend.allCases)
    func runsAreFoundByAUniquePrefixAndPruned(_ backend: Backend) async throws {
        let state = try await backend.makeState()
        let journal = try state.journal()
        let now = Date()
        for (index, id) in ["abc111", "abc222", "def333"].enumerated() {
            try await journal.runStarted(.sample(id, started: now.addingTimeInterval(Double(index - 10))))
            try await journal.runFinished(finished(id, .succeeded))
        }
        #expect(try await journal.resolveRunID("def") == "def333")
        #expect(try await journal.resolveRunID("ABC1") == "abc111")
        let ambiguous = await #expect(throws: JournalError.self) { try await journal.resolveRunID("abc") }
        #expect(ambiguous?.kind == .ambiguous)
        #expect(ambiguous?.message == "run prefix 'abc' matches more than one run: abc222 (sample), abc111 (sample); give more characters")
        let missing = await #expect(throws: JournalError.self) { try await journal.resolveRunID("zzz") }
        #expect(missing?.kind == .notFound)
        #expect(try await journal.prune(olderThan: nil, keepingNewest: 1) == 2)
        #expect(try await journal.runs(playbook: nil, status: nil, limit: 10).map(\.id) == ["def333"])
    }
}
