import Foundation
import SkillbookCore
import SkillbookSQL
import SkillbookSQLite
import SkillbookTesting
import Testing

/// `schedule tick` and `schedule` in-process, on a real state database.
@Suite struct ScheduleCommandTests {
    static let every = """
        name: pulse
        inputs:
          who: { type: string, default: nobody }
        schedule: { every: 1h, inputs: { who: cron } }
        steps:
          - id: save
            skill: notes.create
            with: { title: "pulse ${{ inputs.who }}" }
        """

    @Test func tickStartsWhatIsDueOnceAndTheListingShowsIt() async throws {
        let directory = TemporaryDirectory()
        directory.write("Playbooks/pulse.yaml", Self.every)
        directory.write("Playbooks/broken.yaml", "name: broken\nschedule: { every: 0s }\nsteps: []\n")
        // A draft with errors and no schedule loses no fire: logged, not counted.
        directory.write("Playbooks/draft.yaml", "name: draft\nsteps: []\n")

        let first = await skillbook(["schedule", "tick"], in: directory)
        // The pulse ran, but a scheduled playbook that cannot fire is no success: cron mails it,
        // systemd marks the unit failed.
        #expect(first.code == 1, "\(first.err)")
        #expect(first.errLines.contains { $0.hasPrefix("skillbook: fire started pulse#0@") })
        #expect(first.errLines.contains { $0.hasPrefix("skillbook: run finished pulse run=") && $0.hasSuffix("status=succeeded") })
        #expect(first.errLines.contains { $0.hasPrefix("skillbook: playbook broken file=\(directory.playbooks.path)/broken.yaml error=") })
        #expect(first.errLines.last == "skillbook: tick done started=1 broken=1")

        // An hourly interval is not due again a moment later: the same key is never started twice.
        let second = await skillbook(["schedule", "tick"], in: directory)
        #expect(second.errLines.last == "skillbook: tick done started=0 broken=1")
        #expect(try NotesStore(stateDirectory: directory.state).list(tag: nil, limit: 10).map(\.title) == ["pulse cron"])

        let runs = await skillbook(["runs", "--json"], in: directory)
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(runs.out.utf8)) as? [[String: Any]])
        #expect(rows.count == 1)
        #expect(rows.first?["trigger"] as? String == "schedule")
        let scheduled = try #require(rows.first?["scheduled_at"] as? String)
        let id = try #require(rows.first?["id"] as? String)
        let shown = await skillbook(["runs", "show", id, "--json"], in: directory)
        let run = try #require(try JSONSerialization.jsonObject(with: Data(shown.out.utf8)) as? [String: Any])
        #expect(run["scheduled_at"] as? String == scheduled)
        #expect(run["trigger"] as? String == "schedule")

        let listing = await skillbook(["schedule"], in: directory)
        #expect(listing.code == 1)
        let lines = listing.out.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("pulse  schedule: every 1h (") == true)
        #expect(lines.filter { $0.hasPrefix("  next  ") }.count == 3)
        #expect(lines.last?.hasPrefix("  last  ") == true && lines.last?.hasSuffix("  run \(id.prefix(8))  succeeded") == true)
        #expect(listing.errLines.contains("\(directory.playbooks.path)/broken.yaml:2:20: error: schedule.every: must be an interval of at least 1s, such as 30s, 15m or 2h"), "\(listing.err)")
    }

    /// Tick runs once a minute: an interval under it cannot be kept, and tick says so.
    @Test func tickSaysAnIntervalUnderAMinuteIsNotKept() async throws {
        let directory = TemporaryDirectory()
        directory.write("Playbooks/beat.yaml", "name: beat\nschedule: { every: 10s }\nsteps:\n  - { id: a, skill: debug.echo, with: { value: 1 } }\n")
        let tick = await skillbook(["schedule", "tick"], in: directory)
        #expect(tick.code == 0, "\(tick.err)")
        #expect(
            tick.errLines.contains(
                "skillbook: beat: every 10s is shorter than a tick's minute; the fires between ticks are missed (skillbook daemon keeps it)"),
            "\(tick.err)")
    }

    @Test func helpSaysWhatTickAndDaemonDo() async {
        let tick = await skillbook(["help", "schedule", "tick"], in: TemporaryDirectory())
        #expect(tick.out.hasPrefix("Start every scheduled fire that is due now, wait for those runs, then exit.\n\nUsage: skillbook schedule tick"))
        let daemon = await skillbook(["daemon", "--help"], in: TemporaryDirectory())
        #expect(daemon.out.contains("Usage: skillbook daemon [--grace DURATION]"))
        #expect(daemon.out.contains("a second exits 2 at once"))
    }
}
