import Foundation
import SkillbookCore
import SkillbookSQL
import SkillbookSQLite
import SkillbookTesting
import Testing

/// `notify:` through the real processes: a failing scheduled run notifies a webhook once (also
/// across a daemon restart), dropped fires are recorded, listed and notify `missed`.
@Suite(.serialized) struct NotifyCommandTests {
    static func nightly(hook: String, schedule: String = "{ every: 1h }") -> String {
        """
        name: nightly
        schedule: \(schedule)
        notify:
          failure:
            skill: web.request
            with:
              url: \(hook)
              body:
                text: "${{ run.playbook }} ${{ run.status }}: ${{ run.error }} (step ${{ run.failed_step }}, ${{ run.trigger }})"
          missed:
            - id: tell
              skill: web.request
              with:
                url: \(hook)
                body: { text: "${{ run.playbook }}: ${{ run.missed }} fires missed" }
        steps:
          - id: work
            skill: debug.fail
            with: { message: disk full }
        """
    }

    /// `2026-12-02T12:46:08Z`, as `schedule` prints a whole-second UTC instant.
    static func iso(_ date: Date) -> String { ISO8601DateFormatter().string(from: date) }

    @Test func aFailingScheduledRunOfTheDaemonPostsOnceAlsoAfterARestart() async throws {
        let server = try LocalHTTPServer(routes: ["/hook": .text("ok")])
        defer { server.stop() }
        let directory = TemporaryDirectory()
        directory.write("Playbooks/nightly.yaml", Self.nightly(hook: server.url("/hook")))
        let workspace = ["--playbooks", directory.playbooks.path, "--state", directory.state.path]

        let daemon = try SkillbookChild(["daemon", "--grace", "5s"] + workspace, in: directory.url)
        #expect(await eventually(within: 30) { daemon.stderr.text.contains("run finished nightly") })
        #expect(await eventually(within: 10) { server.requests.count == 1 })
        kill(daemon.pid, SIGTERM)
        #expect(await eventually(within: 10) { !daemon.process.isRunning })

        let request = try #require(server.requests.first)
        #expect(request.method == "POST")
        #expect(request.header("Content-Type")?.hasPrefix("application/json") == true)
        let body = try #require(try JSONSerialization.jsonObject(with: Data(request.body)) as? [String: String])
        #expect(body == ["text": "nightly rolled_back: step 'work' failed: disk full (step work, schedule)"])

        // A second daemon on the same state: the hourly fire is not due, the failed run was reported.
        let again = try SkillbookChild(["daemon", "--grace", "5s"] + workspace, in: directory.url)
        #expect(await eventually(within: 30) { again.stderr.text.contains("loaded nightly") })
        try await Task.sleep(for: .seconds(1))
        kill(again.pid, SIGTERM)
        #expect(await eventually(within: 10) { !again.process.isRunning })
        #expect(server.requests.count == 1)

        let runs = try SQLiteJournal(stateDirectory: directory.state).runs(playbook: nil, status: nil, limit: 10)
        let failed = try #require(runs.first { $0.playbook == "nightly" })
        let notification = try #require(runs.first { $0.playbook == "nightly.notify.failure" })
        #expect(failed.status == .rolledBack && failed.trigger == "schedule")
        #expect(notification.status == .succeeded && notification.trigger == "notify")
        #expect(runs.count == 2)

        let shown = await skillbook(["runs", "show", failed.id], in: directory)
        #expect(shown.out.hasSuffix("\nNotifications:\n  failure  run \(notification.id.prefix(8))  succeeded\n"), "\(shown.out)")
        let carried = await skillbook(["runs", "show", notification.id, "--json"], in: directory)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(carried.out.utf8)) as? [String: Any])
        let notifies = try #require(json["notifies"] as? [String: Any])
        #expect(notifies["subject"] as? String == failed.id && notifies["event"] as? String == "failure")
        let inputs = try #require(json["inputs"] as? [String: Any])
        let subject = try #require(inputs["run"] as? [String: Any])
        #expect(subject["failed_step"] as? String == "work" && subject["status"] as? String == "rolled_back")
    }

    @Test func ticksOnceEachAndAFailingNotificationDoesNotNotifyNorChangeTheRun() async throws {
        let directory = TemporaryDirectory()
        // Nothing listens on this port: the notification fails.
        let port = try LocalHTTPServer().port
        directory.write("Playbooks/nightly.yaml", Self.nightly(hook: "http://127.0.0.1:\(port)/hook"))
        let first = await skillbook(["schedule", "tick"], in: directory)
        #expect(first.errLines.contains { $0.hasSuffix("status=rolled_back error=step 'work' failed: disk full") })
        let second = await skillbook(["schedule", "tick"], in: directory)
        #expect(second.errLines.last == "skillbook: tick done started=0")
        let runs = try SQLiteJournal(stateDirectory: directory.state).runs(playbook: nil, status: nil, limit: 10)
        #expect(runs.map(\.playbook).sorted() == ["nightly", "nightly.notify.failure"])
        #expect(runs.first { $0.playbook == "nightly" }?.status == .rolledBack)
        #expect(runs.first { $0.trigger == "notify" }?.status == .succeededWithErrors)
    }

    @Test func droppedFiresAreRecordedListedAndNotifyOncePerBatch() async throws {
        let server = try LocalHTTPServer(routes: ["/hook": .text("ok")])
        defer { server.stop() }
        let directory = TemporaryDirectory()
        directory.write(
            "Playbooks/nightly.yaml",
            Self.nightly(hook: server.url("/hook"), schedule: "{ every: 1h, catch_up: none, catch_up_window: 3h }"))
        // The scheduler last decided 5½ hours ago: five fires were due since, three of them within the window.
        let now = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        let anchor = now.addingTimeInterval(-5.5 * 3600)
        let ledger = SQLiteFireLedger(database: try StateDatabase.open(stateDirectory: directory.state))
        let state = EntryState(watermark: anchor.addingTimeInterval(1), anchor: anchor)
        _ = try await ledger.commit(FireDecision(start: [], skipped: [], dropped: 0, state: state), playbook: "nightly", entry: 0)

        let tick = await skillbook(["schedule", "tick"], in: directory)
        #expect(tick.errLines.contains("skillbook: fires dropped nightly#0 count=2 reason=window (catch_up none, window 10800s)"))
        #expect(tick.errLines.contains("skillbook: fires dropped nightly#0 count=3 reason=catch_up (catch_up none, window 10800s)"))
        #expect(tick.errLines.last == "skillbook: tick done started=0")
        let texts = server.requests.map(\.text).sorted()
        #expect(texts == [#"{"text":"nightly: 2 fires missed"}"#, #"{"text":"nightly: 3 fires missed"}"#])

        let listing = await skillbook(["schedule"], in: directory, environment: ["TZ": "UTC"])
        let first = Self.iso(anchor.addingTimeInterval(3600))
        #expect(listing.out.contains("\n  missed 5 since \(first)  (catch_up 3, window 2; see 'skillbook schedule history nightly')\n"), "\(listing.out)")

        let history = await skillbook(["schedule", "history", "nightly", "--json"], in: directory, environment: ["TZ": "UTC"])
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(history.out.utf8)) as? [[String: Any]])
        #expect(rows.map { $0["reason"] as? String } == ["catch_up", "window"])
        #expect(rows.map { $0["count"] as? Int } == [3, 2])
        #expect(rows.last?["scheduled_at"] as? String == first)
        #expect(rows.allSatisfy { $0["outcome"] as? String == "missed" })
        // A name that is no playbook is a typo, said as one.
        let typo = await skillbook(["schedule", "history", "nightyl"], in: directory)
        #expect(typo.code == 2)
        #expect(typo.errLines.first == "skillbook: error: no fires recorded for 'nightyl', and no playbook has that name; did you mean 'nightly'?")
        let text = await skillbook(["schedule", "history"], in: directory, environment: ["TZ": "UTC"])
        #expect(text.out.split(separator: "\n").last == "\(first)  nightly#0  missed 2 through \(Self.iso(anchor.addingTimeInterval(2 * 3600))) (window)")

        // Another tick decides nothing new: no batch is recorded or notified twice.
        _ = await skillbook(["schedule", "tick"], in: directory)
        #expect(server.requests.count == 2)
        let notifications = try SQLiteJournal(stateDirectory: directory.state).runs(playbook: "nightly.notify.missed", status: nil, limit: 10)
        #expect(notifications.count == 2 && notifications.allSatisfy { $0.trigger == "notify" && $0.status == .succeeded })
    }

    @Test func aRestartedDaemonRollsBackTheRunItsPredecessorLeftInterruptedAndNotifiesOnce() async throws {
        let server = try LocalHTTPServer(routes: ["/hook": .text("ok")])
        defer { server.stop() }
        let directory = TemporaryDirectory()
        directory.write(
            "Playbooks/slow.yaml",
            """
            name: slow
            schedule: { every: 1h }
            on_interrupted: rollback
            notify:
              failure:
                skill: web.request
                with: { url: "\(server.url("/hook"))", body: { text: "${{ run.playbook }} ${{ run.status }}" } }
            steps:
              - id: save
                skill: notes.create
                with: { title: should be undone }
              - id: wait
                skill: debug.sleep
                with: { seconds: 600 }
            """)
        let workspace = ["--playbooks", directory.playbooks.path, "--state", directory.state.path]
        let first = try SkillbookChild(["daemon"] + workspace, in: directory.url)
        let notes = try NotesStore(stateDirectory: directory.state)
        // Killed while it sleeps: the note's call was journaled as completed, so it can be undone.
        let journal = try SQLiteJournal(stateDirectory: directory.state)
        let sleeping = await eventually(within: 30) {
            let runs = (try? journal.runs(playbook: "slow", status: nil, limit: 1)) ?? []
            let calls = runs.first.flatMap { try? journal.calls(of: $0.id) } ?? []
            return calls.contains { $0.skill == "notes.create" && $0.finished != nil } && calls.contains { $0.skill == "debug.sleep" }
        }
        #expect(sleeping)
        #expect(try notes.list(tag: nil, limit: 10).count == 1)
        kill(first.pid, SIGKILL)
        #expect(await eventually(within: 10) { !first.process.isRunning })

        let second = try SkillbookChild(["daemon", "--grace", "5s"] + workspace, in: directory.url)
        #expect(await eventually(within: 30) { second.stderr.text.contains("run rolled back slow") })
        kill(second.pid, SIGTERM)
        #expect(await eventually(within: 10) { !second.process.isRunning })
        let log = second.stderr.text
        #expect(log.contains(" on_interrupted=rollback\n"), "\(log)")
        #expect(log.contains("status=rolled_back"))
        #expect(try notes.list(tag: nil, limit: 10).isEmpty)
        #expect(server.requests.map(\.text) == [#"{"text":"slow rolled_back"}"#])
    }
}
