import Foundation
import SkillbookTesting
import SkillbookConsole
import SkillbookCore
import SkillbookHost
import Testing

/// Cancel, resume, roll back and dry-run through the API, with the CLI's rules: the preview before
/// the undo, a 409 naming the reason for every refusal, the journal checked after each action.
@Suite struct ConsoleActionsTests {
    @Test func aSucceededRunIsRolledBackOnlyAfterThePreviewIsApproved() async throws {
        let console = try await ConsoleFixture.start()
        defer { Task { await console.stop() } }
        let session = try await console.logIn()
        let id = try await console.startRun("note", inputs: ["title": "Milk"], session: session)
        let run = try await console.finishedRun(id, session: session)
        #expect(run["status"] == "succeeded")
        let actions = try #require(run["actions"]?.objectValue)
        #expect(actions["rollback"]?.objectValue?["allowed"] == true)
        #expect(actions["rollback"]?.objectValue?["needs_approval"] == true)
        #expect(actions["resume"]?.objectValue?["allowed"] == false)
        #expect(actions["resume"]?.objectValue?["reason"]?.stringValue?.contains("already finished") == true)
        #expect(actions["cancel"]?.objectValue?["allowed"] == false)

        // The preview: what would be undone and kept; nothing happens.
        let preview = try console.json(try await console.send("GET", "/api/v1/runs/\(id)/rollback", session: session))
        #expect(preview["needs_approval"] == true)
        let undo = try #require(preview["undo"]?.arrayValue).compactMap(\.objectValue)
        #expect(undo.map { $0["skill"] } == ["notes.create"])
        #expect(undo.first?["step"] == "write")
        #expect(preview["keep"] == [])
        #expect(preview["uncertain"] == [])
        #expect(try console.json(try await console.send("GET", "/api/v1/runs/\(id)", session: session))["status"] == "succeeded")

        // Without the approval: refused, nothing undone.
        let refused = try await console.post("/api/v1/runs/\(id)/rollback", [:], session: session)
        #expect(refused.status == 409)
        #expect(try console.json(refused)["error"]?.stringValue?.contains("undoing it needs approval") == true)
        #expect(try console.json(try await console.send("GET", "/api/v1/runs/\(id)", session: session))["status"] == "succeeded")

        let accepted = try await console.post("/api/v1/runs/\(id)/rollback", ["approve": true], session: session)
        #expect(accepted.status == 202)
        #expect(try await console.finishedRun(id, session: session)["status"] == "rolled_back")
        let journal = try PlaybookHost(console.server.host.configuration).openJournal()
        let timeline = try #require(try await journal.timeline(id))
        #expect(timeline.run.status == .rolledBack)
        #expect(timeline.compensations.map(\.key.step.description) == ["write"])
        // The run and its rollback were both asked from the console.
        #expect(timeline.run.trigger == "console")
        #expect(timeline.sessions.map(\.kind) == ["run", "rollback"])
        #expect(timeline.sessions.map(\.trigger) == ["console", "console"])

        // Once rolled back, never again; and no other action applies.
        let again = try await console.send("GET", "/api/v1/runs/\(id)/rollback", session: session)
        #expect(again.status == 409)
        #expect(try console.json(again)["error"]?.stringValue?.contains("already rolled back") == true)
        let cancel = try await console.post("/api/v1/runs/\(id)/cancel", [:], session: session)
        #expect(cancel.status == 409)
        #expect(try console.json(cancel)["error"]?.stringValue?.contains("is not running (rolled_back); nothing to cancel") == true)
        let resume = try await console.post("/api/v1/runs/\(id)/resume", [:], session: session)
        #expect(resume.status == 409)
        #expect(try console.json(resume)["error"]?.stringValue?.contains("cannot be resumed: it was rolled back") == true)
    }

    @Test func aRunThisConsoleStartedIsCancelled() async throws {
        let console = try await ConsoleFixture.start()
        defer { Task { await console.stop() } }
        let session = try await console.logIn()
        let id = try await console.startRun("slow", inputs: ["seconds": 30], session: session)
        let running = try console.json(try await console.send("GET", "/api/v1/runs/\(id)", session: session))
        #expect(running["actions"]?.objectValue?["cancel"]?.objectValue?["allowed"] == true)
        #expect(running["actions"]?.objectValue?["rollback"]?.objectValue?["allowed"] == false)
        let started = Date()
        let cancel = try await console.post("/api/v1/runs/\(id)/cancel", [:], session: session)
        #expect(cancel.status == 202)
        let run = try await console.finishedRun(id, session: session)
        // Stopped, not run out: the step sleeps 30 s (a loaded parallel pass took 7.9 s to cancel).
        #expect(Date().timeIntervalSince(started) < 20)
        #expect(run["status"] == "interrupted" || run["status"] == "rolled_back")
        #expect(run["actions"]?.objectValue?["cancel"]?.objectValue?["allowed"] == false)
    }

    @Test func aRunKilledInAnotherProcessIsRefusedWhileHeldThenResumedWithTheUncertainCallChoice() async throws {
        let binary = ServeCommandTests.binary
        try #require(FileManager.default.isExecutableFile(atPath: binary), "no \(binary): run 'swift build' first")
        let console = try await ConsoleFixture.start()
        defer { Task { await console.stop() } }
        let session = try await console.logIn()

        let child = try ChildProgram(
            binary, ["run", "stuck", "--state", console.server.host.configuration.stateDirectory.path],
            environment: ["HOME": console.directory.path, "PATH": "/usr/bin:/bin", "NO_COLOR": "1"], in: console.directory)

        // Wait until the child is inside `sleep 30`.
        var id = ""
        let deadline = Date().addingTimeInterval(15)
        while Date() < deadline, id.isEmpty {
            let list = try console.json(try await console.send("GET", "/api/v1/runs?playbook=stuck", session: session))
            if let run = list["runs"]?.arrayValue?.first?.objectValue, case .string(let found)? = run["id"] {
                let record = try console.json(try await console.send("GET", "/api/v1/runs/\(found)", session: session))
                if record["calls"]?.arrayValue?.contains(where: { $0.objectValue?["step"] == "wait" }) == true { id = found }
            }
            if id.isEmpty { try await Task.sleep(nanoseconds: 100_000_000) }
        }
        try #require(!id.isEmpty, "the child never reached its 'wait' step")

        let held = try console.json(try await console.send("GET", "/api/v1/runs/\(id)", session: session))
        #expect(held["status"] == "running")
        #expect(held["actions"]?.objectValue?["cancel"]?.objectValue?["allowed"] == false)
        let cancel = try await console.post("/api/v1/runs/\(id)/cancel", [:], session: session)
        #expect(cancel.status == 409)
        let message = try console.json(cancel)["error"]?.stringValue ?? ""
        #expect(message.contains("is running in process \(child.pid), not in this console"), "\(message)")
        #expect(try await console.post("/api/v1/runs/\(id)/resume", [:], session: session).status == 409)

        child.signal(SIGKILL)
        _ = await child.exit(within: 60)
        let killed = try console.json(try await console.send("GET", "/api/v1/runs/\(id)", session: session))
        #expect(killed["status"] == "interrupted")
        #expect(killed["actions"]?.objectValue?["resume"]?.objectValue?["allowed"] == true)

        // shell.run is not idempotent: the console must choose.
        let ask = try await console.post("/api/v1/runs/\(id)/resume", [:], session: session)
        #expect(ask.status == 409)
        let uncertain = try #require(try console.json(ask)["uncertain"]?.arrayValue).compactMap(\.objectValue)
        #expect(uncertain.map { $0["step"] } == ["wait"])
        #expect(uncertain.first?["skill"] == "shell.run")
        #expect(try await console.post("/api/v1/runs/\(id)/resume", ["uncertain": "twice"], session: session).status == 400)

        let resumed = try await console.post("/api/v1/runs/\(id)/resume", ["uncertain": "skip"], session: session)
        #expect(resumed.status == 202)
        #expect(try await console.finishedRun(id, session: session)["status"] == "succeeded")
        let journal = try PlaybookHost(console.server.host.configuration).openJournal()
        let runs = try await journal.runs(playbook: "stuck", status: nil, limit: 5)
        #expect(runs.map(\.id) == [id])
        #expect(runs.first?.status == .succeeded)
        // The run was started from the command line; its resume, from the console.
        #expect(runs.first?.trigger == "cli")
        let sessions = try #require(try await journal.timeline(id)).sessions
        #expect(sessions.map(\.kind) == ["run", "resume"])
        #expect(sessions.map(\.trigger) == ["cli", "console"])
        let shown = try #require(try console.json(try await console.send("GET", "/api/v1/runs/\(id)", session: session))["sessions"]?.arrayValue)
        #expect(shown.compactMap { $0.objectValue?["trigger"] } == ["cli", "console"])
    }

    /// A run with a secret input, killed: the journal kept no secret, so resume asks for it again
    /// (409 naming it), and the value given never comes back in an answer.
    @Test func aResumeAsksForTheSecretInputsAgain() async throws {
        let binary = ServeCommandTests.binary
        try #require(FileManager.default.isExecutableFile(atPath: binary), "no \(binary): run 'swift build' first")
        let console = try await ConsoleFixture.start()
        defer { Task { await console.stop() } }
        let session = try await console.logIn()
        let text = """
            name: guarded
            inputs:
              token: { type: string, secret: true }
            steps:
              - id: wait
                skill: debug.sleep
                with: { seconds: 8 }
              - id: use
                skill: debug.echo
                with: { value: "${{ inputs.token }}" }

            """
        try text.write(to: console.directory.appendingPathComponent("Playbooks/guarded.yaml"), atomically: true, encoding: .utf8)
        let child = try ChildProgram(
            binary, ["run", "guarded", "-i", "token=first-secret-value", "--state", console.server.host.configuration.stateDirectory.path],
            environment: ["HOME": console.directory.path, "PATH": "/usr/bin:/bin", "NO_COLOR": "1"], in: console.directory)
        var id = ""
        let deadline = Date().addingTimeInterval(15)
        while Date() < deadline, id.isEmpty {
            let list = try console.json(try await console.send("GET", "/api/v1/runs?playbook=guarded", session: session))
            if case .string(let found)? = list["runs"]?.arrayValue?.first?.objectValue?["id"] { id = found }
            if id.isEmpty { try await Task.sleep(nanoseconds: 100_000_000) }
        }
        try #require(!id.isEmpty, "the child never started its run")
        // Killed while its first step sleeps: eight seconds leave room for a loaded machine to see the
        // run appear (the resume sleeps again, as the sleep never recorded its end).
        try await Task.sleep(nanoseconds: 300_000_000)
        child.signal(SIGKILL)
        _ = await child.exit(within: 60)

        let ask = try await console.post("/api/v1/runs/\(id)/resume", [:], session: session)
        #expect(ask.status == 409)
        let body = try console.json(ask)
        #expect(body["secrets"] == ["token"], "\(body)")
        #expect(body["error"]?.stringValue?.contains("give it again") == true)
        let wrong = try await console.post("/api/v1/runs/\(id)/resume", ["secrets": ["nope": "x"]], session: session)
        #expect(wrong.status == 400)

        let resumed = try await console.post("/api/v1/runs/\(id)/resume", ["secrets": ["token": "second-secret-value"]], session: session)
        #expect(resumed.status == 202)
        let run = try await console.finishedRun(id, session: session)
        #expect(run["status"] == "succeeded")
        let everything = String(decoding: try await console.send("GET", "/api/v1/runs/\(id)", session: session).body, as: UTF8.self)
        #expect(!everything.contains("second-secret-value") && !everything.contains("first-secret-value"))
        #expect(everything.contains("***"))
    }

    @Test func aDryRunAnswersThePlanAndRecordsNothing() async throws {
        let console = try await ConsoleFixture.start()
        defer { Task { await console.stop() } }
        let session = try await console.logIn()
        let response = try await console.post("/api/v1/playbooks/failing/dry-run", ["inputs": [:]], session: session)
        #expect(response.status == 200)
        let answer = try console.json(response)
        let plan = try #require(answer["plan"]?.arrayValue).compactMap(\.objectValue)
        // notes.create is only planned; debug.fail is a query after it, which fails: as the CLI's
        // dry run says, it is not checkable until 'note' runs, and a dry run never reports a rollback.
        #expect(plan.map { $0["step"] } == ["note", "boom"])
        #expect(answer["dry_run"] == true)
        #expect(answer["status"] == "succeeded")
        #expect(plan.last?["not_checkable_until"] == .array(["note"]))
        #expect(plan.first?["skill"] == "notes.create")
        #expect(plan.first?["kind"] == "action")
        #expect(plan.first?["reversible"] == true)
        #expect(plan.first?["ran"] == false)
        #expect(plan.first?["parameters"]?.objectValue?["title"] == "Draft </script><b>bold</b>")

        let bad = try await console.post("/api/v1/playbooks/hello/dry-run", ["inputs": ["times": 9]], session: session)
        #expect(bad.status == 400)
        #expect(try console.json(bad)["diagnostics"]?.arrayValue?.isEmpty == false)
        #expect(try await console.post("/api/v1/playbooks/broken/dry-run", [:], session: session).status == 400)
        #expect(try await console.post("/api/v1/playbooks/nope/dry-run", [:], session: session).status == 404)

        let journal = try PlaybookHost(console.server.host.configuration).openJournal()
        #expect(try await journal.runs(playbook: nil, status: nil, limit: 5).isEmpty)
    }

    @Test func schedulesListsEntriesWithNextFiresLocalAndUTC() async throws {
        let console = try await ConsoleFixture.start()
        defer { Task { await console.stop() } }
        let session = try await console.logIn()
        let empty = try console.json(try await console.send("GET", "/api/v1/schedules", session: session))
        #expect(empty["schedules"] == [])
        #expect(empty["fired_here"] == false)

        let text = """
            name: morning
            schedule:
              cron: "30 7 * * *"
              timezone: Europe/Paris
            steps:
              - id: greet
                skill: debug.echo
                with: { value: hi }

            """
        try text.write(to: console.directory.appendingPathComponent("Playbooks/morning.yaml"), atomically: true, encoding: .utf8)
        let answer = try console.json(try await console.send("GET", "/api/v1/schedules", session: session))
        let entry = try #require(answer["schedules"]?.arrayValue?.first?.objectValue)
        #expect(entry["playbook"] == "morning")
        #expect(entry["trigger"] == "cron 30 7 * * *")
        #expect(entry["timezone"] == "Europe/Paris")
        #expect(entry["last"] == .null)
        let next = try #require(entry["next"]?.arrayValue).compactMap(\.objectValue)
        #expect(next.count == 3)
        let first = try #require(next.first)
        #expect(first["local"]?.stringValue?.contains("T07:30:00+01:00") == true, "\(first)")
        #expect(first["utc"]?.stringValue?.hasSuffix("T06:30:00Z") == true, "\(first)")
        #expect(entry["missed"] == .null)
        #expect(entry["misses"] == [])

        // The fire ledger records fires not started: two days of morning fires missed while
        // nothing ran (catch_up: none), and one skipped because the previous run still ran.
        let now = Date()
        let morning = { (daysAgo: Double) in Fire(key: FireKey(playbook: "morning", entry: 0, scheduledAt: now.addingTimeInterval(-daysAgo * 86400))) }
        let paris = { (date: Date) in date.formatted(Date.ISO8601FormatStyle(timeZoneSeparator: .colon, timeZone: TimeZone(identifier: "Europe/Paris")!)) }
        let ledger = try console.server.host.openFireLedger()
        let batch = MissedFires(
            playbook: "morning", entry: 0, reason: .catchUp, first: morning(3).scheduledAt, last: morning(2).scheduledAt, count: 2)
        _ = try await ledger.commit(FireDecision(start: [], skipped: [], dropped: 2, state: EntryState(), missed: [batch]), playbook: "morning", entry: 0)
        _ = try await ledger.commit(FireDecision(start: [], skipped: [morning(1)], dropped: 0, state: EntryState()), playbook: "morning", entry: 0)
        // Older than 7 days: not counted.
        let old = MissedFires(playbook: "morning", entry: 0, reason: .window, first: morning(9).scheduledAt, last: morning(9).scheduledAt, count: 1)
        _ = try await ledger.commit(FireDecision(start: [], skipped: [], dropped: 1, state: EntryState(), missed: [old]), playbook: "morning", entry: 0)

        let later = try console.json(try await console.send("GET", "/api/v1/schedules", session: session))
        let missedEntry = try #require(later["schedules"]?.arrayValue?.first?.objectValue)
        let missed = try #require(missedEntry["missed"]?.objectValue, "\(missedEntry)")
        #expect(missed["count"] == 3)
        #expect(missed["days"] == 7)
        #expect(missed["reasons"] == ["catch_up": 2, "overlap": 1])
        #expect(missed["since"]?.stringValue == paris(morning(3).scheduledAt))
        let misses = try #require(missedEntry["misses"]?.arrayValue).compactMap(\.objectValue)
        #expect(misses.map { $0["outcome"] } == ["skipped", "missed"])
        #expect(misses.map { $0["reason"] } == ["overlap", "catch_up"])
        #expect(misses.map { $0["count"] } == [1, 2])
        #expect(misses[0]["through"] == .null)
        #expect(misses[1]["scheduled_at"]?.stringValue == paris(morning(3).scheduledAt))
        #expect(misses[1]["through"]?.stringValue == paris(morning(2).scheduledAt))
    }
}
