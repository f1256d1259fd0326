import Foundation
import SkillbookTesting
import Testing

/// `--log-format` on the long-running commands, as real processes whose stderr is parsed.
@Suite(.serialized) struct LogFormatCommandTests {
    @Test func theDaemonWritesOneJSONObjectPerLine() async throws {
        let directory = TemporaryDirectory()
        directory.write("Playbooks/pulse.yaml", MetricsCommandTests.pulse)
        let daemon = try SkillbookChild(["daemon", "--log-format", "json", "--state", directory.state.path], in: directory.url)
        try #require(await eventually(within: 30) { daemon.stderr.text.contains("\"event\":\"run finished\"") }, "\(daemon.transcript)")
        kill(daemon.pid, SIGTERM)
        #expect(try await daemon.waitForExit(upTo: 30) != nil)
        let lines = daemon.stderr.text.split(separator: "\n")
        let objects = try lines.map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not JSON: \(line)")
        }
        #expect(objects.allSatisfy { ($0["time"] as? String)?.hasSuffix("Z") == true && $0["level"] is String && $0["fields"] is [String: Any] })
        #expect(objects.first?["event"] as? String == "loaded" && objects.first?["playbook"] as? String == "pulse")
        let started = try #require(objects.first { $0["event"] as? String == "daemon started" })
        #expect(started["event"] as? String == "daemon started")
        #expect((started["fields"] as? [String: String])?["pid"] == "\(daemon.pid)")
        let finished = try #require(objects.first { $0["event"] as? String == "run finished" })
        #expect(finished["playbook"] as? String == "pulse")
        #expect(finished["level"] as? String == "info")
        #expect((finished["run"] as? String)?.count == 36)
        #expect((finished["fields"] as? [String: String])?["status"] == "succeeded")
        #expect(objects.last?["event"] as? String == "daemon stopped")
    }

    @Test func underSystemdTextLinesCarryPriorities() async throws {
        let directory = TemporaryDirectory()
        directory.write("Playbooks/broken-pulse.yaml", MetricsCommandTests.broken)
        let daemon = try SkillbookChild(
            ["daemon", "--state", directory.state.path], in: directory.url, environment: ["JOURNAL_STREAM": "8:12345"])
        try #require(await eventually(within: 30) { daemon.stderr.text.contains("run finished broken-pulse") }, "\(daemon.transcript)")
        kill(daemon.pid, SIGTERM)
        #expect(try await daemon.waitForExit(upTo: 30) != nil)
        let lines = daemon.stderr.text.split(separator: "\n").map(String.init)
        #expect(lines.allSatisfy { $0.hasPrefix("<6>skillbook: ") || $0.hasPrefix("<4>skillbook: ") || $0.hasPrefix("<3>skillbook: ") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("<6>skillbook: daemon started pid=") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("<4>skillbook: run finished broken-pulse run=") && $0.contains("status=rolled_back") }, "\(lines)")
    }

    @Test func anUnknownFormatIsAUsageError() async {
        let directory = TemporaryDirectory()
        for command in [["daemon"], ["worker"], ["serve"], ["mcp"]] {
            let run = await skillbook(command + ["--log-format", "xml"], in: directory)
            #expect(run.code == 2, "\(command)")
            #expect(run.err.contains("--log-format expects text or json, got 'xml'"), "\(command): \(run.err)")
        }
    }
}
