import Foundation
@testable import SkillbookCLI
import SkillbookTesting
import Testing

@Suite struct LogWriterTests {
    private func writer(_ format: LogFormat, journald: Bool = false, prefix: String = "skillbook") -> LogWriter {
        LogWriter(
            format: format, journald: journald, prefix: prefix, console: CapturedOutput().console,
            now: { Date(timeIntervalSince1970: 1_780_000_000.5) })
    }

    @Test func jsonLinesCarryTimeLevelEventPlaybookRunAndFields() throws {
        let line = writer(.json).line("run finished pulse run=0b1c scheduled=2026-05-28T20:26:40Z status=failed error=on purpose: it broke")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["time"] as? String == "2026-05-28T20:26:40.500Z")
        #expect(object["level"] as? String == "warning")
        #expect(object["event"] as? String == "run finished")
        #expect(object["playbook"] as? String == "pulse")
        #expect(object["run"] as? String == "0b1c")
        #expect(object["message"] as? String == "run finished pulse run=0b1c scheduled=2026-05-28T20:26:40Z status=failed error=on purpose: it broke")
        #expect(
            object["fields"] as? [String: String] == ["scheduled": "2026-05-28T20:26:40Z", "status": "failed", "error": "on purpose: it broke"])
        #expect(!line.contains("\n"))
    }

    @Test func anEventWithLineBreaksIsStillOneLine() throws {
        let event = "run finished pulse run=a status=failed error=first line\nsecond line\r\nthird"
        let text = writer(.text, journald: true).line(event)
        #expect(text == "<4>skillbook: run finished pulse run=a status=failed error=first line second line third")
        let json = writer(.json).line(event)
        #expect(!json.contains("\n"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect((object["fields"] as? [String: String])?["error"] == "first line second line third")
    }

    @Test func levelsFollowTheEvent() {
        #expect(LogLine("run finished pulse run=a status=succeeded").level == .info)
        #expect(LogLine("run not started pulse scheduled=x error=no such file").level == .error)
        #expect(LogLine("claim failed error=connection refused").level == .error)
        #expect(LogLine("fire skipped pulse#0@2026 (the previous run still runs)").level == .warning)
        #expect(LogLine("lease lost run=a: another worker took it over; stopping it here").level == .warning)
        #expect(LogLine("daemon started pid=1 state=/tmp/s").level == .info)
        #expect(LogLine("daemon started pid=1 state=/tmp/s").fields.map(\.key) == ["pid", "state"])
        #expect(LogLine("daemon stopped").event == "daemon stopped")
        let fire = LogLine("fire started pulse#0@1796233516158 catch-up late=1ms")
        #expect(fire.event == "fire started catch-up")
        #expect(fire.playbook == "pulse")
        #expect(fire.fields.map(\.key) == ["fire", "late"])
        #expect(fire.fields.first?.value == "pulse#0@1796233516158")
    }

    @Test func underSystemdTextLinesStartWithTheirPriority() {
        let journal = writer(.text, journald: true)
        #expect(journal.line("run finished pulse run=a status=succeeded") == "<6>skillbook: run finished pulse run=a status=succeeded")
        #expect(journal.line("run finished pulse run=a status=failed") == "<4>skillbook: run finished pulse run=a status=failed")
        #expect(journal.line("claim failed error=x") == "<3>skillbook: claim failed error=x")
        #expect(writer(.text).line("daemon stopped") == "skillbook: daemon stopped")
        #expect(writer(.text, journald: true, prefix: "skillbook mcp").line("signal 15: stopping") == "<6>skillbook mcp: signal 15: stopping")
    }
}
