import Foundation
import SkillbookCore
import SkillbookRuntime
import SkillbookSQLite
import SkillbookTesting
import Testing
import SkillbookSQL

/// What only the SQLite journal has to show: its file, its connections, its liveness rule (a live
/// process on this machine is never declared dead by time alone) and its heartbeat. What every
/// journal does is in `BackendJournalTests` and `BackendCapabilitiesTests`.
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
            #expect(StateDatabase.schemaVersion == 17, "migration 8 adds runs.workspace, 9 call_results, 10 approvals, 11 missed_fires, 12 notifications, 13 retention, 14 sessions.trigger, 15 runs.seq, 16 blobs, 17 run deletes")
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
