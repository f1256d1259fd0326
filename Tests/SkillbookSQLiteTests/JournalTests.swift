import Foundation
import SkillbookCore
import SkillbookRuntime
import SkillbookSQLite
import SkillbookTesting
import Testing
import SkillbookSQL

/// The pid of a process that has exited (and been reaped): known dead on this machine.
func deadProcessID() throws -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/true")
    try process.run()
    process.waitUntilExit()
    return process.processIdentifier
}

/// A probe whose current process is `identity`, judging others like the real one.
func probe(as identity: ProcessIdentity) -> ProcessProbe {
    ProcessProbe(current: { identity }, state: ProcessProbe.live.state)
}

extension RunRecord {
    static func sample(_ id: String, playbook: String = "sample", started: Date = Date(), inputs: ValueObject = ["name": "Ada"]) -> RunRecord {
        RunRecord(
            runID: id, playbook: playbook, source: "name: \(playbook)\n", sourceHash: SourceHash.of("name: \(playbook)\n"),
            inputs: inputs, trigger: "cli", started: started, dryRun: false)
    }
}

func call(_ runID: String, _ step: String, batch: Int? = nil, skill: String = "notes.create", attempt: Int = 1) -> CallRecord {
    CallRecord(
        runID: runID, key: CallKey(step: StepPath(step: step), batch: batch), skill: skill, attempt: attempt, parameters: ["title": .string(step)],
        started: Date())
}

@Suite struct JournalTests {
    @Test func aRunRecordsItsWorkspaceGivenBeforeOrAfterItStarts() async throws {
        try await withTemporaryDirectory { dir in
            let journal = try SQLiteJournal(stateDirectory: dir)
            try journal.setWorkspace("/home/me/routines", forRun: "before")
            try journal.runStarted(.sample("before"))
            try journal.runStarted(.sample("after"))
            try journal.setWorkspace("/home/me/other", forRun: "after")
            try journal.runStarted(.sample("none"))
            #expect(try journal.run("before")?.workspace == "/home/me/routines")
            #expect(try journal.run("after")?.workspace == "/home/me/other")
            #expect(try journal.run("none")?.workspace == nil)
            #expect(StateDatabase.schemaVersion == 9, "migration 8 adds runs.workspace, 9 call_results")
        }
    }

    @Test func aRunRoundTripsThroughTheJournal() async throws {
        try await withTemporaryDirectory { dir in
            let journal = try SQLiteJournal(stateDirectory: dir)
            try journal.setFile("/playbooks/sample.yaml", forRun: "r1")
            try journal.runStarted(.sample("r1", inputs: ["name": "Ada", "token": "***"]))
            #expect(journal.heldRuns == ["r1"])

            let one = call("r1", "one")
            try journal.callStarted(one)
            try journal.callFinished(one, output: ["id": "n1", "n": 1.5], error: nil, finished: Date())
            try await journal.stepFinished(runID: "r1", step: "one", status: .succeeded, output: ["id": "n1", "n": 1.5], error: nil)
            let flaky1 = call("r1", "many", batch: 0, skill: "notes.create_many")
            try journal.callStarted(flaky1)
            try journal.callFinished(flaky1, output: nil, error: "boom", finished: Date())
            let flaky2 = call("r1", "many", batch: 0, skill: "notes.create_many", attempt: 2)
            try journal.callStarted(flaky2)

            let listed = try #require(try journal.runs().first)
            #expect(listed.id == "r1")
            #expect(listed.status == .running, "this process holds it and is alive")
            #expect(listed.file == "/playbooks/sample.yaml")
            #expect(listed.inputs == ["name": "Ada", "token": "***"])

            let timeline = try #require(try journal.timeline("r1"))
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

            try journal.checkpoint()
            try journal.compensationFinished(runID: "r1", key: CallKey(step: "one"), step: "one", error: nil, finished: Date())
            let result = RunResult(
                runID: "r1", playbook: "sample", status: .rolledBack, interrupted: false, outputs: [:],
                steps: [StepReport(id: "one", skill: "notes.create", status: .compensated)], error: "step 'many' failed: boom",
                started: Date(), finished: Date())
            try journal.runFinished(result)
            #expect(journal.heldRuns.isEmpty, "the heartbeat stops with the run")

            let ended = try #require(try journal.timeline("r1"))
            #expect(ended.run.status == .rolledBack)
            #expect(ended.run.error == "step 'many' failed: boom")
            #expect(ended.run.finished != nil)
            #expect(ended.calls[0].compensated)
            #expect(ended.compensations.map(\.key) == [CallKey(step: "one")])
            #expect(ended.sessions.map(\.outcome) == ["rolled_back"])
            #expect(ended.report?.arrayValue?.first?["status"] == "compensated")
            let replanned = try await journal.resumePlan("r1") { _ in .rerun }
            #expect(replanned.completed.isEmpty, "compensated calls are not reused")
        }
    }

    @Test func theEngineJournalsARunThatCanBeResumedFromTheFile() async throws {
        try await withTemporaryDirectory { dir in
            let made = Recorder<String>()
            let healed = Recorder<Bool>()
            let create = ClosureSkill.action("test.create") { parameters, _ in
                made.append(parameters["title"]?.stringValue ?? "")
                return ["title": parameters["title"] ?? .null]
            }
            let flaky = ClosureSkill.action("test.flaky") { _, _ in
                if healed.values.isEmpty { throw SkillError("not yet") }
                return ["ok": true]
            }
            let registry = try SkillRegistry([create, flaky])
            let yaml = """
                name: resumable
                on_failure: stop
                steps:
                  - { id: one, skill: test.create, with: { title: one } }
                  - { id: flaky, skill: test.flaky }
                  - { id: two, skill: test.create, with: { title: two } }
                """
            let playbook = try #require(PlaybookLoader(registry: registry).load(yaml, file: "resumable.yaml").playbook)
            let journal = try SQLiteJournal(stateDirectory: dir)
            let engine = Engine(registry: registry, environment: .test(), recorder: journal)
            let first = await engine.run(playbook, inputs: [:], options: .init(source: yaml))
            #expect(first.status == .failed)
            #expect(try journal.run(first.runID)?.status == .failed)
            #expect(try journal.run(first.runID)?.sourceHash == SourceHash.of(yaml))

            healed.append(true)
            // Another connection, as another process would have.
            let reopened = try SQLiteJournal(database: try StateDatabase.openSeparately(stateDirectory: dir))
            try reopened.takeOver(first.runID, for: .resume)
            let plan = try await reopened.resumePlan(first.runID) { _ in .rerun }
            let resumed = await Engine(registry: registry, environment: .test(), recorder: reopened)
                .run(playbook, inputs: [:], options: .init(resume: (first.runID, plan)))
            #expect(resumed.status == .succeeded)
            #expect(made.values == ["one", "two"], "step one was not made again")
            let timeline = try #require(try journal.timeline(first.runID))
            #expect(timeline.run.status == .succeeded)
            #expect(timeline.sessions.map(\.kind) == ["run", "resume"])
            #expect(timeline.sessions.map(\.outcome) == ["failed", "succeeded"])
            #expect(timeline.calls.map(\.key.step) == ["one", "flaky", "flaky", "two"])
        }
    }

    @Test func aRunWhoseProcessIsGoneIsInterrupted() async throws {
        try await withTemporaryDirectory { dir in
            let me = ProcessProbe.live.current()
            let dead = try deadProcessID()
            let deadJournal = try SQLiteJournal(
                stateDirectory: dir, probe: probe(as: ProcessIdentity(pid: dead, host: me.host, boot: me.boot, start: "1")))
            try deadJournal.runStarted(.sample("gone"))
            try deadJournal.callStarted(call("gone", "one"))

            let journal = try SQLiteJournal(stateDirectory: dir)
            let run = try #require(try journal.run("gone"))
            #expect(run.status == .interrupted)
            #expect(run.interruption == "process \(dead) is gone")
            #expect(try journal.runs(status: .interrupted).map(\.id) == ["gone"])
            #expect(try journal.runs(status: .running).isEmpty)
        }
    }

    @Test func aLiveProcessIsRunningHoweverOldItsHeartbeat() async throws {
        try await withTemporaryDirectory { dir in
            let me = ProcessProbe.live.current()
            let clock = FixedClock(Date().addingTimeInterval(-3600))
            let journal = try SQLiteJournal(stateDirectory: dir, clock: clock)
            try journal.runStarted(.sample("alive"))
            let reader = try SQLiteJournal(stateDirectory: dir)
            #expect(try reader.run("alive")?.status == .running, "an hour-old heartbeat, but pid \(me.pid) is alive")
        }
    }

    @Test func aReusedPidOrARestartedMachineMeansInterrupted() async throws {
        try await withTemporaryDirectory { dir in
            let me = ProcessProbe.live.current()
            let reused = try SQLiteJournal(
                stateDirectory: dir, probe: probe(as: ProcessIdentity(pid: me.pid, host: me.host, boot: me.boot, start: "not-mine")))
            try reused.runStarted(.sample("reused"))
            let rebooted = try SQLiteJournal(
                stateDirectory: dir, probe: probe(as: ProcessIdentity(pid: me.pid, host: me.host, boot: "an-earlier-boot", start: me.start)))
            try rebooted.runStarted(.sample("rebooted"))

            let reader = try SQLiteJournal(stateDirectory: dir)
            #if os(Linux)
                #expect(try reader.run("reused")?.interruption == "process \(me.pid) is gone (its id now belongs to another process)")
                #expect(try reader.run("rebooted")?.interruption == "the machine has restarted since process \(me.pid) took the run")
            #endif
        }
    }

    @Test func aRunOnAnotherMachineIsJudgedByItsHeartbeat() async throws {
        try await withTemporaryDirectory { dir in
            let elsewhere = ProcessIdentity(pid: 4242, host: "another-machine")
            let now = Date()
            let writer = try SQLiteJournal(
                stateDirectory: dir, probe: ProcessProbe(current: { elsewhere }, state: { _ in .unknown }), clock: FixedClock(now))
            try writer.runStarted(.sample("remote"))
            func reader(at date: Date) throws -> SQLiteJournal {
                try SQLiteJournal(
                    stateDirectory: dir, probe: ProcessProbe(current: { ProcessProbe.live.current() }, state: { _ in .unknown }),
                    clock: FixedClock(date), leaseDuration: 15)
            }
            #expect(try reader(at: now.addingTimeInterval(10)).run("remote")?.status == .running)
            let late = try #require(try reader(at: now.addingTimeInterval(20)).run("remote"))
            #expect(late.status == .interrupted)
            #expect(late.interruption == "no heartbeat from process 4242 on another-machine for 20 s")
        }
    }

    @Test func theHeartbeatIsRefreshedWhileTheRunIsHeldAndStopsAfter() async throws {
        try await withTemporaryDirectory { dir in
            let journal = try SQLiteJournal(stateDirectory: dir, heartbeatInterval: 0.05)
            try journal.runStarted(.sample("beating", started: Date().addingTimeInterval(-10)))
            let first = try #require(try journal.run("beating")?.heartbeat)
            // Beats every 50 ms; allow for a busy machine.
            var later = first
            for _ in 0..<200 where later == first {
                try await Task.sleep(for: .milliseconds(25))
                later = try #require(try journal.run("beating")?.heartbeat)
            }
            #expect(later > first)
            try journal.runFinished(
                RunResult(
                    runID: "beating", playbook: "sample", status: .succeeded, interrupted: false, outputs: [:], steps: [], error: nil,
                    started: Date(), finished: Date()))
            #expect(journal.heldRuns.isEmpty)
        }
    }

    @Test func takingOverRefusesALiveHolderAndASecondTakeover() async throws {
        try await withTemporaryDirectory { dir in
            let me = ProcessProbe.live.current()
            let dead = try deadProcessID()
            let crashed = try SQLiteJournal(
                stateDirectory: dir, probe: probe(as: ProcessIdentity(pid: dead, host: me.host, boot: me.boot)))
            try crashed.runStarted(.sample("r"))

            // Two connections, as two `resume` processes would have.
            let first = try SQLiteJournal(database: try StateDatabase.openSeparately(stateDirectory: dir))
            let second = try SQLiteJournal(database: try StateDatabase.openSeparately(stateDirectory: dir))
            let before = try first.takeOver("r", for: .resume)
            #expect(before.status == .interrupted)
            #expect(try second.run("r")?.status == .running)
            let refusal = #expect(throws: JournalError.self) { try second.takeOver("r", for: .resume) }
            #expect(refusal?.kind == .busy)
            #expect(refusal?.message == "run r (sample) is still running in process \(me.pid); wait for it to finish or stop that process first")

            let sessions = try first.sessions(of: "r")
            #expect(sessions.map(\.kind) == ["run", "resume"])
            #expect(sessions.map(\.outcome) == ["interrupted", nil])

            try first.release("r")
            #expect(try second.run("r")?.status == .interrupted, "persisted when given back")
            #expect(try second.sessions(of: "r").last?.outcome == "abandoned")
            let checked = #expect(throws: JournalError.self) {
                try second.takeOver("r", for: .rollback) { _ throws(JournalError) in throw JournalError(.refused, "no") }
            }
            #expect(checked?.message == "no")
            #expect(try second.run("r")?.status == .interrupted, "a refused check changes nothing")
        }
    }

    @Test func pruneDeletesOldRunsAndKeepsTheNewestButNeverALiveOne() async throws {
        try await withTemporaryDirectory { dir in
            let journal = try SQLiteJournal(stateDirectory: dir)
            let now = Date()
            let dead = try deadProcessID()
            let me = ProcessProbe.live.current()
            let crashed = try SQLiteJournal(stateDirectory: dir, probe: probe(as: ProcessIdentity(pid: dead, host: me.host, boot: me.boot)))
            for day in 0..<6 {
                let id = "day-\(day)"
                let started = now.addingTimeInterval(-Double(day) * 86400 - 60)
                try (day == 5 ? crashed : journal).runStarted(.sample(id, started: started))
                let one = call(id, "one")
                try journal.callStarted(one)
                try journal.callFinished(one, output: ["id": "x"], error: nil, finished: started)
                if day < 4 {
                    try journal.runFinished(
                        RunResult(
                            runID: id, playbook: "sample", status: .succeeded, interrupted: false, outputs: [:], steps: [], error: nil,
                            started: started, finished: started))
                }
            }
            // day-4 is still held by this (live) process; day-5's process is gone.
            #expect(try journal.prune(olderThan: now.addingTimeInterval(-2.5 * 86400)) == 2, "day-3 and day-5; day-4 is live")
            #expect(try journal.runs().map(\.id) == ["day-0", "day-1", "day-2", "day-4"])
            #expect(try journal.prune(keepingNewest: 10) == 0)
            #expect(try journal.prune(keepingNewest: 1) == 2, "day-1 and day-2 go; day-4 is live")
            #expect(try journal.runs().map(\.id) == ["day-0", "day-4"])
            let orphans = try journal.database.query(
                "SELECT count(*) FROM calls WHERE run NOT IN (SELECT id FROM runs)").first?[0].intValue
            #expect(orphans == 0, "calls go with their run")
            #expect(try journal.database.query("SELECT count(*) FROM calls").first?[0].intValue == 2)
        }
    }

    @Test func twoConnectionsWritingAtOnceKeepTheFileIntact() async throws {
        try await withTemporaryDirectory { dir in
            let journals = [
                try SQLiteJournal(database: try StateDatabase.openSeparately(stateDirectory: dir)),
                try SQLiteJournal(database: try StateDatabase.openSeparately(stateDirectory: dir)),
            ]
            let notes = try NotesStore(stateDirectory: dir)
            let perWriter = 150
            try await withThrowingTaskGroup(of: Void.self) { group in
                for writer in 0..<4 {
                    let journal = journals[writer % 2]
                    group.addTask {
                        let runID = "writer-\(writer)"
                        try journal.runStarted(.sample(runID))
                        for n in 0..<perWriter {
                            let record = call(runID, "step\(n)")
                            try journal.callStarted(record)
                            _ = try notes.create(title: "\(runID) \(n)")
                            try journal.callFinished(record, output: ["n": .int(n)], error: nil, finished: Date())
                            try await journal.stepFinished(runID: runID, step: "step\(n)", status: .succeeded, output: nil, error: nil)
                        }
                        try journal.runFinished(
                            RunResult(
                                runID: runID, playbook: "sample", status: .succeeded, interrupted: false, outputs: [:], steps: [],
                                error: nil, started: Date(), finished: Date()))
                    }
                }
                try await group.waitForAll()
            }
            let check = try StateDatabase.openSeparately(stateDirectory: dir)
            #expect(try check.query("PRAGMA integrity_check").first?[0] == .text("ok"))
            #expect(try check.query("SELECT count(*) FROM call_attempts WHERE output IS NOT NULL").first?[0].intValue == 4 * perWriter)
            #expect(try check.query("SELECT count(*) FROM notes").first?[0].intValue == 4 * perWriter)
            let reader = try SQLiteJournal(database: check)
            #expect(try reader.runs().map(\.status) == Array(repeating: .succeeded, count: 4))
            for writer in 0..<4 {
                #expect(try reader.calls(of: "writer-\(writer)").map(\.order) == Array(stride(from: 2, through: 2 * perWriter, by: 2)))
            }
        }
    }

    @Test func runsAreFoundByAUniquePrefix() async throws {
        try await withTemporaryDirectory { dir in
            let journal = try SQLiteJournal(stateDirectory: dir)
            for id in ["abc123", "abd456", "xyz789"] { try journal.runStarted(.sample(id)) }
            #expect(try journal.resolveRunID("x") == "xyz789")
            #expect(try journal.resolveRunID("ABC") == "abc123")
            #expect(try journal.resolveRunID("abd456") == "abd456")
            let ambiguous = #expect(throws: JournalError.self) { try journal.resolveRunID("ab") }
            #expect(ambiguous?.kind == .ambiguous)
            #expect(ambiguous?.message.hasPrefix("run prefix 'ab' matches more than one run: ") == true)
            let missing = #expect(throws: JournalError.self) { try journal.resolveRunID("q") }
            #expect(missing?.kind == .notFound)
        }
    }

    @Test func aCorruptStateFileIsReportedAndLeftAlone() async throws {
        try await withTemporaryDirectory { dir in
            let file = StateDatabase.url(in: dir)
            let garbage = Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) })
            try garbage.write(to: file)
            let error = #expect(throws: StoreError.self) { try SQLiteJournal(stateDirectory: dir) }
            #expect(error?.kind == .notADatabase)
            #expect(error?.message.contains(file.path) == true)
            #expect(error?.message.contains("move it aside or use another state directory") == true)
            #expect(try Data(contentsOf: file) == garbage, "never replaced by a new, empty journal")
        }
    }

    @Test func aDamagedJournalIsReportedNotRecreated() async throws {
        try await withTemporaryDirectory { dir in
            do {
                let journal = try SQLiteJournal(database: try StateDatabase.openSeparately(stateDirectory: dir))
                for n in 0..<200 { try journal.runStarted(.sample("run-\(n)", inputs: ["padding": .string(String(repeating: "x", count: 500))])) }
                try journal.database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            }
            // Overwrite the middle of the file (the tables' pages) with garbage, keeping the header.
            let file = StateDatabase.url(in: dir)
            var bytes = try Data(contentsOf: file)
            #expect(bytes.count > 16384)
            for index in 8192..<(bytes.count - 4096) { bytes[index] = UInt8(truncatingIfNeeded: index &* 13) }
            try bytes.write(to: file)

            let error = #expect(throws: StoreError.self) {
                let journal = try SQLiteJournal(database: try StateDatabase.openSeparately(stateDirectory: dir))
                _ = try journal.runs(limit: 1000)
            }
            #expect(error?.kind == .corrupt)
            #expect(error?.message.contains(file.path) == true)
            #expect(error?.message.contains("is corrupt") == true)
            #expect(try Data(contentsOf: file) == bytes)
        }
    }
}
