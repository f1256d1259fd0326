import Foundation
import SkillbookCore
import SkillbookSQL
import SkillbookSQLite
import SkillbookTesting
import Testing

/// `skillbook daemon` as a real process.
@Suite(.serialized) struct DaemonCommandTests {
    static let pulse = """
        name: pulse
        schedule: { every: 2s }
        steps:
          - id: save
            skill: notes.create
            with: { title: pulse }
        """

    @Test func firesEveryTwoSecondsRefusesASecondDaemonAndStopsOnSIGTERM() async throws {
        let directory = TemporaryDirectory()
        directory.write("Playbooks/pulse.yaml", Self.pulse)
        let workspace = ["--playbooks", directory.playbooks.path, "--state", directory.state.path]
        let daemon = try SkillbookChild(["daemon", "--grace", "5s"] + workspace, in: directory.url)
        #expect(await eventually(within: 10) { daemon.stderr.text.contains("fire started pulse#0@") })
        let started = Date()

        let second = try SkillbookChild(["daemon"] + workspace, in: directory.url)
        #expect(try await second.waitForExit(upTo: 10) != nil, "\(second.transcript)")
        // Refused while the first daemon runs (it gets its SIGTERM only below), not after
        // waiting for it to end. (No bound in seconds: a start takes up to 7 s on a loaded machine.)
        #expect(daemon.process.isRunning)
        #expect(second.process.termination == .exited(2))
        #expect(second.stderr.text.contains("skillbook: error: another skillbook daemon (pid \(daemon.pid)) is running on this state"))

        // The first fire is at once, then one every 2 s: about five in 10 s.
        try await Task.sleep(for: .seconds(max(0, 8.5 - Date().timeIntervalSince(started))))
        kill(daemon.pid, SIGTERM)
        let stopped = Date()
        #expect(await eventually(within: 10) { !daemon.process.isRunning })
        #expect(daemon.process.termination == .exited(0))
        let log = daemon.stderr.text
        #expect(log.contains("skillbook: daemon signal=SIGTERM: no more fires"))
        #expect(log.hasSuffix("skillbook: daemon stopped\n"))

        let runs = try SQLiteJournal(stateDirectory: directory.state).runs(playbook: "pulse", status: nil, limit: 100)
        let instants = runs.compactMap(\.scheduledAt)
        #expect(instants.count == runs.count)
        // A loaded machine may oversleep the test; the count must still match the time it let pass.
        let first = try #require(instants.min())
        let expected = Int(stopped.timeIntervalSince(first) / 2) + 1
        #expect(abs(runs.count - expected) <= 1, "\(runs.count) runs, \(expected) expected")
        if stopped.timeIntervalSince(first) < 9.5 { #expect((4...6).contains(runs.count), "\(runs.count) runs in 10 s") }
        #expect(Set(instants).count == instants.count)
        #expect(runs.allSatisfy { $0.trigger == "schedule" && $0.status == .succeeded })
        let gaps = zip(instants.sorted(), instants.sorted().dropFirst()).map { $1.timeIntervalSince($0) }
        #expect(gaps.allSatisfy { abs($0 - 2) < 0.001 }, "\(gaps)")
    }

    static let slow = """
        name: slow
        schedule: { every: 1h }
        steps:
          - id: save
            skill: notes.create
            with: { title: should be undone }
          - id: wait
            skill: debug.sleep
            with: { seconds: 600 }
        """

    @Test func reloadsChangedFilesKeepsTheOthersAndCancelsRunsAfterTheGrace() async throws {
        let directory = TemporaryDirectory()
        directory.write("Playbooks/slow.yaml", Self.slow)
        let workspace = ["--playbooks", directory.playbooks.path, "--state", directory.state.path]
        let daemon = try SkillbookChild(["daemon", "--grace", "1s"] + workspace, in: directory.url)
        #expect(await eventually(within: 10) { daemon.stderr.text.contains("fire started slow#0@") })

        directory.write("Playbooks/broken.yaml", "name: broken\nschedule: { cron: \"* 25 * * *\" }\nsteps: []\n")
        #expect(await eventually(within: 10) { daemon.stderr.text.contains("reloaded playbooks scheduled=1 broken=1") })
        // The daemon writes the reload's summary line before the lines of each playbook.
        let brokenLine =
            "skillbook: playbook broken file=Playbooks/broken.yaml error=Playbooks/broken.yaml:2:22: error: schedule.cron: field 2 (hour): 25 is out of range 0-23\n"
        #expect(await eventually(within: 10) { daemon.stderr.text.contains(brokenLine) }, "\(daemon.stderr.text)")

        let signalled = Date()
        kill(daemon.pid, SIGTERM)
        #expect(await eventually(within: 15) { !daemon.process.isRunning })
        #expect(daemon.process.termination == .exited(0))
        #expect(Date().timeIntervalSince(signalled) < 10)
        let end = daemon.stderr.text
        #expect(end.contains("skillbook: daemon stopping running=1 grace=1s\n"))
        #expect(end.contains("skillbook: daemon grace over: cancelling 1 run(s)\n"))
        #expect(end.contains("status=rolled_back"))
        #expect(end.hasSuffix("skillbook: daemon stopped\n"))
        let runs = try SQLiteJournal(stateDirectory: directory.state).runs(playbook: "slow", status: nil, limit: 10)
        #expect(runs.map(\.status) == [.rolledBack])
        #expect(try NotesStore(stateDirectory: directory.state).list(tag: nil, limit: 10).isEmpty)
    }

    static let minutely = """
        name: minutely
        schedule: { cron: "* * * * *", timezone: UTC, catch_up: all }
        steps:
          - id: wait
            skill: debug.sleep
            with: { seconds: 0.4 }
        """

    @Test func killDashNineDuringACatchUpThenARestartLosesNoFireAndDoublesNone() async throws {
        let directory = TemporaryDirectory()
        directory.write("Playbooks/minutely.yaml", Self.minutely)
        // Ten minutes of downtime: the watermark is ten whole minutes back.
        let now = Date()
        let watermark = Date(timeIntervalSince1970: (now.timeIntervalSince1970 / 60).rounded(.down) * 60 - 600)
        let state = String(decoding: try JSONEncoder().encode(EntryState(watermark: watermark)), as: UTF8.self)
        let database = try StateDatabase.openSeparately(stateDirectory: directory.state)
        try database.run(
            "INSERT INTO schedule_entries (playbook, entry, state, updated) VALUES ('minutely', 0, ?1, 0)", [.text(state)])
        let workspace = ["--playbooks", directory.playbooks.path, "--state", directory.state.path]

        let first = try SkillbookChild(["daemon"] + workspace, in: directory.url)
        #expect(await eventually(within: 20) { first.stderr.text.components(separatedBy: "fire started minutely#0@").count > 3 })
        try await first.kill(SIGKILL)

        let second = try SkillbookChild(["daemon"] + workspace, in: directory.url)
        let expected = (1...10).map { Int64((watermark.timeIntervalSince1970 + Double($0) * 60) * 1000) }
        let started = { () throws -> [Int64] in
            try database.query("SELECT scheduled_ms FROM fires WHERE playbook = 'minutely' AND outcome = 'started' ORDER BY scheduled_ms")
                .compactMap { $0.int("scheduled_ms").map(Int64.init) }
        }
        #expect(await eventually(within: 30) { ((try? started()) ?? []).count >= 10 && second.stderr.text.contains("status=succeeded") })
        try await Task.sleep(for: .seconds(1))
        kill(second.pid, SIGTERM)
        #expect(try await second.waitForExit() == 0, "\(second.transcript)")

        let fires = try started()
        #expect(Array(fires.prefix(10)) == expected, "\(first.stderr.text)\n---\n\(second.stderr.text)")
        let runs = try SQLiteJournal(stateDirectory: directory.state).runs(playbook: "minutely", status: nil, limit: 100)
        let instants = runs.compactMap(\.scheduledAt).map { Int64(($0.timeIntervalSince1970 * 1000).rounded()) }
        #expect(instants.sorted() == fires)
        // The killed run, if the kill came after its start was journaled; a fire claimed but not yet
        // begun is adopted by the restarted daemon instead.
        #expect(runs.filter { $0.status == .interrupted }.count <= 1)
    }
}
