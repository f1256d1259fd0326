import Foundation
import SkillbookCore
import SkillbookHost
import SkillbookSchedule
import SkillbookSQL
import SkillbookSQLite
import SkillbookTesting
import Testing

/// Fires run through the host with trigger `schedule`, the entry's inputs and `scheduled_at`.
@Suite struct ScheduleFireStarterTests {
    static let greet = """
        name: greet
        inputs:
          who: { type: string, default: nobody }
        schedule: { every: 2s, inputs: { who: Ada } }
        steps:
          - id: say
            skill: notes.create
            with: { title: "hello ${{ inputs.who }}" }
        """

    @Test func aFireRunsThePlaybookWithTheSchedulesInputsAndIsJournaledWithItsInstant() async throws {
        let fixture = HostFixture()
        fixture.write("Playbooks/greet.yaml", Self.greet)
        fixture.write("Playbooks/broken.yaml", "name: broken\nschedule: { cron: \"61 * * * *\" }\nsteps: []\n")
        fixture.write("Playbooks/plain.yaml", "name: plain\nsteps:\n  - id: a\n    skill: debug.echo\n    with: { value: hi }\n")
        let host = fixture.host()
        let workspace = try host.scheduledWorkspace()
        #expect(workspace.entries.map(\.playbook.name) == ["greet"])
        #expect(workspace.broken.map(\.file) == [fixture.url.appendingPathComponent("Playbooks/broken.yaml").path])
        #expect(workspace.broken.first?.message.hasPrefix("\(fixture.path)/Playbooks/broken.yaml:2:20: error: schedule.cron: field 1 (minute): 61") == true)

        let lines = Recorder<String>()
        let starter = ScheduleFireStarter(host: host, files: workspace.files) { lines.append($0) }
        let scheduled = Date(timeIntervalSince1970: 1_780_000_000)
        let fire = Fire(key: FireKey(playbook: "greet", entry: 0, scheduledAt: scheduled))
        await starter.run(fire, inputs: workspace.entries[0].playbook.schedule[0].inputs)

        #expect(try NotesStore(stateDirectory: fixture.state).list(tag: nil, limit: 10).map(\.title) == ["hello Ada"])
        let run = try #require(try await host.openJournal().runs(playbook: "greet", status: nil, limit: 5).first)
        #expect(run.trigger == "schedule")
        #expect(run.scheduledAt == scheduled)
        #expect(run.inputs["who"] == "Ada")
        #expect(lines.values == ["run finished greet run=\(run.id) scheduled=2026-05-28T20:26:40Z status=succeeded"])
    }
}
