import Foundation
import SkillbookCore
import SkillbookHost
import SkillbookTesting
import Testing

/// The console in a real browser: `skillbook serve` (the debug build) on a temporary workspace and
/// state, driven by Playwright in Debian's Chromium (Browser/console_flow.py). The screenshots it
/// takes go to .build/console-screenshots/ (`make screenshots` runs it with SKILLBOOK_SCREENSHOTS=docs/console
/// to refresh the ones the docs show), so a test run leaves the work tree as it was.
@Suite struct ConsoleBrowserTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func aPersonRunsAPlaybookFromItsFormAndWatchesItLive() async throws {
        // The chat's model: a chat-completions server on 127.0.0.1 that plans every request the same way.
        try await withLocalHTTPServer { model in
            model.route("/v1/chat/completions", ChatCompletionBodies.content(ConsoleChatTests.plan))
            try await clickThrough(modelURL: model.url("/v1"))
        }
    }

    /// What the fire ledger holds for `morning` when the Schedules page is looked at: two mornings
    /// missed while nothing ran (`catch_up: none`), and yesterday's skipped (the run before still ran).
    static func recordFiresNotStarted(_ host: PlaybookHost) async throws {
        let ledger = try host.openFireLedger()
        // The entry's own instants: 07:30 in Paris, `ago` days before today.
        var paris = Calendar(identifier: .gregorian)
        paris.timeZone = TimeZone(identifier: "Europe/Paris")!
        let today = paris.date(bySettingHour: 7, minute: 30, second: 0, of: Date())!
        let day = { (ago: Int) in paris.date(byAdding: .day, value: -ago, to: today)! }
        let missed = MissedFires(playbook: "morning", entry: 0, reason: .catchUp, first: day(3), last: day(2), count: 2)
        _ = try await ledger.commit(
            FireDecision(start: [], skipped: [], dropped: 2, state: EntryState(), missed: [missed]), playbook: "morning", entry: 0)
        let skipped = Fire(key: FireKey(playbook: "morning", entry: 0, scheduledAt: day(1)))
        _ = try await ledger.commit(FireDecision(start: [], skipped: [skipped], dropped: 0, state: EntryState()), playbook: "morning", entry: 0)
    }

    private func clickThrough(modelURL: String) async throws {
        let python = Self.root.appendingPathComponent(".build/venv/bin/python").path
        let chromium = ProcessInfo.processInfo.environment["CHROMIUM"] ?? "/usr/bin/chromium"
        let binary = Self.root.appendingPathComponent(".build/debug/skillbook").path
        try #require(
            FileManager.default.isExecutableFile(atPath: python) && FileManager.default.isExecutableFile(atPath: chromium),
            "the browser tests need Playwright in .build/venv and Debian's chromium: run 'make venv deps'")
        let check = try await run(python, ["-c", "import playwright"])
        try #require(check.code == 0, "Playwright is missing from .build/venv: run 'make venv deps' (\(check.err))")
        try #require(FileManager.default.isExecutableFile(atPath: binary), "no \(binary): run 'swift build' first")

        let workspace = FileManager.default.temporaryDirectory.appendingPathComponent("skillbook-browser-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: workspace) }
        let playbooks = workspace.appendingPathComponent("Playbooks")
        try FileManager.default.createDirectory(at: playbooks, withIntermediateDirectories: true)
        for (name, text) in ConsoleFixture.playbooks where name != "secretive" {
            try text.write(to: playbooks.appendingPathComponent("\(name).yaml"), atomically: true, encoding: .utf8)
        }
        try """
            name: morning
            description: Greets at 7:30, Paris time.
            schedule: { cron: "30 7 * * *", timezone: Europe/Paris }
            steps:
              - id: greet
                skill: debug.echo
                with: { value: good morning }

            """.write(to: playbooks.appendingPathComponent("morning.yaml"), atomically: true, encoding: .utf8)
        try """
            name: purge
            description: Makes a note, then deletes it (asking first).
            steps:
              - { id: make, skill: notes.create, with: { title: "<b>Old list</b>" } }
              - { id: remove, skill: notes.delete, with: { ids: ["${{ steps.make.output.id }}"] } }

            """.write(to: playbooks.appendingPathComponent("purge.yaml"), atomically: true, encoding: .utf8)
        try "buy milk\n".write(to: workspace.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)
        let state = workspace.appendingPathComponent("state")
        try await Self.recordFiresNotStarted(
            PlaybookHost(HostConfiguration(playbooksDirectory: playbooks, stateDirectory: state, currentDirectory: workspace)))

        let out = OutputFile()
        let err = OutputFile()
        let serve = try ChildProgram(
            binary, ["serve", "--listen", "127.0.0.1:0", "--state", state.path],
            environment: ProcessInfo.processInfo.environment.merging(["SKILLBOOK_MODEL_URL": modelURL, "SKILLBOOK_MODEL": "qwen"]) { $1 },
            in: workspace, output: .file(out), error: .file(err))
        defer { serve.signal(SIGTERM) }
        let firstLine = try #require(await ServeCommandTests.firstLine(out, of: serve), "skillbook serve printed no URL\n\(err.text)")
        #expect(firstLine.hasPrefix("http://127.0.0.1:") && firstLine.contains("/login?token="))

        let shots = Self.root.appendingPathComponent(
            ProcessInfo.processInfo.environment["SKILLBOOK_SCREENSHOTS"] ?? ".build/console-screenshots"
        ).path
        try FileManager.default.createDirectory(atPath: shots, withIntermediateDirectories: true)
        let flow = Self.root.appendingPathComponent("Tests/SkillbookConsoleTests/Browser/console_flow.py").path
        let result = try await run(
            python, [flow, firstLine, shots],
            environment: ["CHROMIUM": chromium, "SKILLBOOK_BIN": binary, "SKILLBOOK_STATE": state.path, "SKILLBOOK_WORKSPACE": workspace.path],
            upTo: 900)
        #expect(result.code == 0, "the browser flow failed:\n\(result.out)\n\(result.err)")
        #expect(result.out.contains("ok markup shown as text"))

        // The journal holds what was clicked, with trigger console.
        let stopping = Date()
        serve.signal(SIGTERM)  // a graceful stop
        #expect(await serve.exit(within: 60) == .exited(0))
        #expect(Date().timeIntervalSince(stopping) < 5)
        let host = PlaybookHost(
            HostConfiguration(playbooksDirectory: playbooks, stateDirectory: state, currentDirectory: workspace))
        let all = try await host.openJournal().runs(playbook: nil, status: nil, limit: 11)
        #expect(all.map(\.playbook) == ["plan", "purge", "stuck", "note", "failing", "many", "slow", "shouty", "slow", "hello"])
        // `purge` was started by `skillbook run` with no terminal, waited, and was approved from the
        // Confirmations page: the same run went on and succeeded.
        let purge = all[1]
        #expect(purge.status == .succeeded)
        #expect(purge.trigger == "cli")
        let purged = try #require(try await host.openJournal().timeline(purge.id))
        #expect(purged.sessions.map(\.outcome) == ["waiting", "succeeded"])
        let runs = all.filter { $0.playbook != "purge" }
        #expect(runs.map(\.playbook) == ["plan", "stuck", "note", "failing", "many", "slow", "shouty", "slow", "hello"])
        #expect(runs.map(\.status) == [.succeeded, .succeeded, .rolledBack, .rolledBack, .succeeded, .succeeded, .succeeded, .succeeded, .succeeded])
        // `stuck` was started by `skillbook run` (then killed, and resumed from the console); the
        // rest, the chat's plan among them, from the console.
        #expect(runs[1].trigger == "cli")
        #expect(runs.enumerated().allSatisfy { $0.offset == 1 || $0.element.trigger == "console" })
        let stuck = try #require(try await host.openJournal().timeline(runs[1].id))
        #expect(stuck.calls.contains { $0.key.step.description == "wait" && $0.isUncertain })
        #expect(stuck.sessions.map(\.trigger) == ["cli", "console"])
        let note = try #require(try await host.openJournal().timeline(runs[2].id))
        #expect(note.compensations.map(\.key.step.description) == ["write"])
        #expect(note.sessions.map(\.trigger) == ["console", "console"])
        #expect(runs.last?.inputs["name"] == "Ada")
        #expect(runs[6].inputs["text"] == "<img src=x onerror=alert(1)>")
        // The chat's plan, saved, and the edited playbook: valid files in Playbooks/.
        let registry = try host.loadRegistry().registry
        for name in ["chat-note", "broken"] {
            let file = try host.loadPlaybook(at: playbooks.appendingPathComponent("\(name).yaml"), registry: registry)
            #expect(file.playbook != nil, "\(name): \(file.result.diagnostics.map(\.message))")
        }
    }

    private func run(
        _ program: String, _ arguments: [String], environment: [String: String] = [:], upTo seconds: Double = 60
    ) async throws -> (code: Int32, out: String, err: String) {
        let result = try await runProgram(
            URL(fileURLWithPath: program), arguments, environment: ProcessInfo.processInfo.environment.merging(environment) { $1 },
            upTo: seconds)
        return (result.code, result.out, result.err)
    }
}
