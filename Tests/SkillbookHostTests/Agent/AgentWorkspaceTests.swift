import Foundation
import SkillbookAgent
import SkillbookCore
import SkillbookHost
import SkillbookRuntime
import SkillbookSQL
import SkillbookSQLite
import SkillbookTesting
import Testing

/// The host's agent wiring: the workspace the matcher routes over, routes, and runs of them.
@Suite struct AgentWorkspaceTests {
    static let dayNote = """
        name: day-note
        description: Saves a note for a day.
        triggers: ["note for {day}"]
        inputs:
          day: { type: string, format: date }
          title: { type: string, default: Day }
        steps:
          - id: save
            skill: notes.create
            with: { title: "${{ inputs.title }}", body: "${{ inputs.day }}" }

        """
    static let clock = Matcher.ReferenceTime(now: Date(timeIntervalSince1970: 1_796_112_900), timeZone: TimeZone(identifier: "Europe/Berlin")!)

    func fixture() -> HostFixture {
        let fixture = HostFixture()
        fixture.write("Playbooks/day-note.yaml", Self.dayNote)
        fixture.write("Playbooks/broken.yaml", "name: broken\nsteps:\n  - id: a\n    skill: no.such\n")
        return fixture
    }

    @Test func playbooksWithErrorsAreLeftOutAndTheRestAreRoutedTo() async throws {
        let fixture = fixture()
        let notices = NoticeLog()
        let workspace = try await fixture.host().agentWorkspace(onNotice: notices.handler)
        #expect(workspace.playbooks.map(\.name) == ["day-note"])
        // The broken one is said, not silently dropped.
        let warnings = notices.all.flatMap { notice -> [Diagnostic] in
            if case .diagnostics(let diagnostics, _) = notice { return diagnostics }
            return []
        }
        #expect(warnings.count == 1)
        #expect(warnings.first?.severity == .warning)
        #expect(warnings.first?.location?.file.hasSuffix("Playbooks/broken.yaml") == true, "\(warnings)")
        #expect(warnings.first?.message.hasPrefix("playbook left out (requests cannot route to it): ") == true, "\(warnings)")
        #expect(warnings.first?.message.contains("no.such") == true, "\(warnings)")
        let decision = workspace.decide("note for tomorrow", clock: Self.clock)
        #expect(decision.layer == .playbook)
        #expect(decision.target == "day-note")
        #expect(decision.inputs["day"] == "2026-12-02")
        #expect(workspace.offers.contains { $0.name == "day-note" && $0.layer == .playbook })
        #expect(workspace.isAction("notes.create", isPlaybook: false))
        #expect(!workspace.isAction("notes.list", isPlaybook: false))
    }

    @Test func aSkillRouteIsACheckedOneStepPlanJournaledWithItsTrigger() async throws {
        let fixture = fixture()
        let host = fixture.host(confirmation: .approveAll)
        let workspace = try await host.agentWorkspace()
        let route = host.skillRoute("notes.create", inputs: ["title": "Milk"], workspace: workspace, clock: Self.clock)
        #expect(route.playbookText(name: "milk", description: "", workspace: workspace) == """
            name: milk
            steps:
              - id: "notes_create"
                skill: "notes.create"
                with:
                  "title": "Milk"

            """)
        let prepared = try await host.prepareAgentRun(route, request: "note Milk", workspace: workspace, trigger: "ask")
        let result = await host.execute(prepared)
        #expect(result.status == .succeeded)
        let runs = try await host.openJournal().runs(playbook: nil, status: nil, limit: 10)
        #expect(runs.map(\.trigger) == ["ask"])
        #expect(runs.map(\.playbook) == ["notes-create"])
        #expect(try NotesStore(stateDirectory: fixture.state).list().map(\.title) == ["Milk"])
    }

    @Test func aModelPlansActionsAreConfirmedEvenWhenTheSkillDoesNotAsk() async throws {
        let fixture = fixture()
        let host = fixture.host(confirmation: .refuse(reason: "no terminal"))
        let workspace = try await host.agentWorkspace()
        let checked = workspace.checker(clock: Self.clock).check(
            Plan(steps: [Plan.Step(id: "save", target: "notes.create", with: ["title": "Milk"])]), name: "ask-plan")
        let route = AgentRoute.plan(checked, fromModel: true)
        #expect(route.playbookText(name: "p", description: "", workspace: workspace).contains("    confirm: true\n"))
        let prepared = try await host.prepareAgentRun(route, request: "save Milk", workspace: workspace)
        let result = await host.execute(prepared)
        #expect(result.status == .rolledBack)
        #expect(result.error?.contains("step needs confirmation (notes.create has confirm): no terminal") == true)
        #expect(try NotesStore(stateDirectory: fixture.state).list().isEmpty)
    }

    @Test func theChatRunnerReportsProgressAndRollsBackWhenCancelled() async throws {
        let fixture = fixture()
        var configuration = fixture.configuration()
        configuration.clock = SystemClock()
        let host = PlaybookHost(configuration)
        let workspace = try await host.agentWorkspace()
        let progress = Recorder<String>()
        let runner = HostPlanRunner(host: host, workspace: workspace, clock: Self.clock)
        let done = await runner.run(PendingRun(layer: .playbook, target: "day-note", inputs: ["day": "2026-12-02"])) { k, n in
            progress.append("\(k)/\(n)")
        }
        guard case .succeeded = done else { Issue.record("\(done)"); return }
        #expect(try NotesStore(stateDirectory: fixture.state).list().map(\.body) == ["2026-12-02"])
        #expect(await eventually(within: 5) { progress.values == ["1/1"] })

        let sleeping = Task { await runner.run(PendingRun(layer: .skill, target: "debug.sleep", inputs: ["seconds": 30])) { _, _ in } }
        try await Task.sleep(for: .milliseconds(300))
        sleeping.cancel()
        #expect(await sleeping.value == .rolledBack("interrupted"))
        let runs = try await host.openJournal().runs(playbook: nil, status: nil, limit: 10)
        #expect(runs.map(\.trigger) == ["chat", "chat"])
    }

    /// The session over the host's flow: a playbook route is confirmed, run on the engine and
    /// journaled; without a model a plan-shaped request is not planned.
    @MainActor @Test func aSessionOverTheHostsFlowRunsWhatWasConfirmed() async throws {
        let fixture = fixture()
        let host = fixture.host()
        let workspace = try await host.agentWorkspace()
        let runner = HostPlanRunner(host: host, workspace: workspace, clock: Self.clock, request: { "note for tomorrow" })
        let session = AgentSession(flow: host.agentFlow(workspace, runner: runner), clock: { Self.clock })
        await session.send("note for tomorrow")
        #expect(session.phase == .awaitingConfirmation)
        #expect(session.pending?.inputs == ["day": "2026-12-02"])
        await session.confirm()
        #expect(session.phase == .finished, "\(session.messages.map(\.text))")
        #expect(try NotesStore(stateDirectory: fixture.state).list().map(\.body) == ["2026-12-02"])
        let runs = try await host.openJournal().runs(playbook: nil, status: nil, limit: 10)
        #expect(runs.map(\.trigger) == ["chat"])
        await session.send("list my notes and then send me a notification")
        #expect(session.phase == .idle)
        #expect(session.messages.last?.text == "This request needs several skills in a row, and no model is configured to plan it.")
    }
}
