import Foundation
import SkillbookCore
import Testing

private let steps = "steps:\n  - { id: a, skill: debug.echo, with: { value: 1 } }\n"

private func decoded(_ yaml: String) throws -> (entries: [ScheduleEntry], diagnostics: [String]) {
    let root = try YAMLLoader().load(yaml, file: "p.yaml")
    var diagnostics: [Diagnostic] = []
    let playbook = PlaybookDecoder().decode(root, file: "p.yaml", diagnostics: &diagnostics)
    return (playbook?.schedule ?? [], diagnostics.map { "\($0.location.map { "\($0.line):\($0.column): " } ?? "")\($0.message)" })
}

@Suite struct ScheduleDecoderTests {
    @Test func oneEntryWithEveryKey() throws {
        let (entries, diagnostics) = try decoded(
            """
            name: briefing
            inputs:
              day: { type: string, default: today }
            schedule:
              cron: "30 7 * * 1-5"
              timezone: Europe/Berlin
              catch_up: all
              catch_up_window: 2h
              overlap: queue
              inputs: { day: tomorrow }
            \(steps)
            """)
        #expect(diagnostics == [])
        let entry = try #require(entries.first)
        #expect(entries.count == 1)
        guard case .cron(let expression) = entry.trigger else { Issue.record("not cron"); return }
        #expect(expression.source == "30 7 * * 1-5")
        #expect(entry.timezone == "Europe/Berlin")
        #expect(entry.catchUp == .all)
        #expect(entry.catchUpWindow == 7200)
        #expect(entry.overlap == .queue)
        #expect(entry.inputs == [ScheduleInput(name: "day", value: "tomorrow", location: .init(file: "p.yaml", line: 10, column: 13))])
        #expect(entry.path == "schedule")
        #expect(entry.triggerLocation == .init(file: "p.yaml", line: 5, column: 9))
    }

    @Test func defaultsAndAList() throws {
        let (entries, diagnostics) = try decoded(
            """
            name: sync
            schedule:
              - every: 15m
              - cron: "@daily"
            \(steps)
            """)
        #expect(diagnostics == [])
        #expect(entries.count == 2)
        #expect(entries[0].trigger == .every(seconds: 900))
        #expect(entries[0].timezone == nil)
        #expect(entries[0].catchUp == .latest)
        #expect(entries[0].catchUpWindow == 86_400)
        #expect(entries[0].overlap == .skip)
        #expect(entries[1].path == "schedule[1]")
    }

    @Test func everyProblemAtItsPosition() throws {
        let (entries, diagnostics) = try decoded(
            """
            name: broken
            schedule:
              - cron: "30 25 * * mon"
                timezone: Europe/Berln
              - every: 500ms
                catch_up: lastest
                overlap: wait
                catch_up_window: soon
              - { cron: "0 0 * * *", every: 1h }
              - { timezone: UTC }
              - { cron: "* * * * *", ovrlap: skip }
              - { cron: "@reboot" }
              - { every: 1m, inputs: { day: "${{ today() }}" } }
              - just text
            \(steps)
            """)
        #expect(entries.isEmpty)
        #expect(
            diagnostics == [
                "3:15: schedule[0].cron: field 2 (hour): 25 is out of range 0-23",
                "4:15: schedule[0].timezone: unknown time zone 'Europe/Berln'; did you mean 'Europe/Berlin'?",
                "5:12: schedule[1].every: must be an interval of at least 1s, such as 30s, 15m or 2h",
                "6:15: schedule[1].catch_up: must be one of none, latest, all; did you mean 'latest'?",
                "7:14: schedule[1].overlap: must be one of skip, queue, allow",
                "8:22: 'schedule[1].catch_up_window' must be a positive duration such as 30, 30s, 5m or 1h",
                "9:26: schedule[2]: give either 'cron' or 'every', not both",
                "10:5: schedule[3]: needs 'cron' (such as \"30 7 * * 1-5\") or 'every' (such as 15m)",
                "11:26: schedule[4]: unknown schedule key 'ovrlap'; did you mean 'overlap'?",
                "12:14: schedule[5].cron: unknown macro '@reboot' (known: @hourly, @daily, @weekly, @monthly, @yearly, @annually, @midnight)",
                "13:33: schedule[6].inputs.day: a schedule gives literal values; put expressions in the input's default",
                "14:5: schedule[7]: an entry must be a mapping with 'cron' or 'every', not a scalar (schedule: { cron: \"30 7 * * 1-5\" })",
            ])
    }
}

@Suite struct ScheduleCheckerTests {
    /// 2026-12-01, so the look-ahead covers Berlin's change of 2027-03-28 and 2027-10-31.
    static let now = Date(timeIntervalSince1970: 1_796_083_200)

    private func checked(_ yaml: String, machineZone: String = "UTC") throws -> [String] {
        let root = try YAMLLoader().load(yaml, file: "p.yaml")
        var diagnostics: [Diagnostic] = []
        let playbook = try #require(PlaybookDecoder().decode(root, file: "p.yaml", diagnostics: &diagnostics))
        #expect(diagnostics.isEmpty)
        let checker = ScheduleChecker(now: Self.now, machineZone: TimeZone(identifier: machineZone)!)
        return checker.check(playbook).map { "\($0.location!.line):\($0.location!.column): \($0.severity): \($0.message)" }
    }

    @Test func inputsAreCheckedAgainstThePlaybook() throws {
        let diagnostics = try checked(
            """
            name: briefing
            inputs:
              day: { type: string }
              count: { type: integer, minimum: 1, default: 3 }
            schedule:
              - { every: 1h, inputs: { dya: today, count: 0 } }
              - { every: 1h, inputs: { day: today, count: two } }
            \(steps)
            """)
        #expect(
            diagnostics == [
                "6:28: error: schedule[0].inputs: the playbook has no input 'dya'; did you mean 'day'?",
                "6:40: error: schedule[0].inputs.count must be at least 1, got 0",
                "6:5: error: schedule[0]: the required input 'day' has no value in a scheduled run; give it under schedule[0].inputs",
                "7:40: error: schedule[1].inputs.count expects integer, got string",
            ])
    }

    @Test func fixedTimesInADSTChangeAreWarnedAbout() throws {
        let diagnostics = try checked(
            """
            name: night
            schedule:
              - { cron: "30 2 * * *", timezone: Europe/Berlin }
              - { cron: "*/10 2 * * *", timezone: Europe/Berlin }
              - { cron: "30 1 * * 0", timezone: America/New_York }
              - { cron: "30 2 * * 1-5", timezone: Europe/Berlin }
              - { cron: "30 2 * * *" }
            \(steps)
            """)
        #expect(
            diagnostics == [
                "3:13: warning: schedule[0].cron: 02:30 falls in the DST change of Europe/Berlin on 2027-03-28: that time does not exist; it fires once at 03:00 instead",
                "3:13: warning: schedule[0].cron: 02:30 falls in the DST change of Europe/Berlin on 2027-10-31: that time happens twice; it fires once, at the first",
                "5:13: warning: schedule[2].cron: 01:30 falls in the DST change of America/New_York on 2027-11-07: that time happens twice; it fires once, at the first",
            ])
    }

    @Test func aScheduledPlaybookLoads() throws {
        let result = PlaybookFixture.load(
            "name: sync\nschedule: { cron: \"0 9 * * *\", timezone: Europe/Berlin }\n\(steps)")
        #expect(result.diagnostics.isEmpty)
        #expect(result.playbook?.schedule.count == 1)
    }
}
