import Foundation
import SkillbookCore
import SkillbookTesting
import Testing

/// An `mcp:` manifest on the real executable: `validate` lists the server's tools once (into the
/// state folder's cache) and type-checks mappings from their `outputSchema`, `skills` lists them
/// from the cache without starting the server, and `skillbook run` calls them through one server
/// that ends with the command.
@Suite struct MCPServerManifestCLITests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    static let sums = """
        name: sums
        inputs:
          a: { type: integer }
        steps:
          - id: first
            skill: calc.add
            with: { a: "${{ inputs.a }}", b: 3 }
          - id: who
            skill: calc.whoami
          - id: loud
            skill: calc.shout_text
            with: { text: "sum ${{ steps.first.output.sum }}", times: 2 }
        outputs:
          sum: "${{ steps.first.output.sum }}"
          loud: "${{ steps.loud.output.result }}"
          pid: "${{ steps.who.output.pid }}"
        """

    /// A workspace whose `Skills/calc.yaml` starts the Python SDK server `Skills/calc_server.py`
    /// (a copy of the fixture) with the Python of `.build/venv`.
    static func workspace() throws -> TemporaryDirectory {
        let python = "\(packageRoot)/.build/venv/bin/python"
        guard FileManager.default.isExecutableFile(atPath: python) else {
            Issue.record("\(python) is missing: run 'make venv' (or 'make test', which creates it with PyPI 'mcp')")
            throw CancellationError()
        }
        let directory = TemporaryDirectory()
        directory.write("Skills/calc.yaml", "mcp:\n  command: [\(python), calc_server.py]\n  prefix: calc\n")
        try FileManager.default.copyItem(
            atPath: "\(packageRoot)/Tests/SkillbookMCPTests/Fixtures/calc_server.py",
            toPath: directory.url.appendingPathComponent("Skills/calc_server.py").path)
        directory.write("Playbooks/sums.yaml", sums)
        directory.write(
            "Playbooks/wrong.yaml",
            sums.replacingOccurrences(of: "name: sums", with: "name: wrong")
                .replacingOccurrences(of: "sum ${{ steps.first.output.sum }}", with: "sum ${{ steps.first.output.total }}"))
        return directory
    }

    static let warnings = [
        "Skills/calc.yaml:1:1: warning: MCP server 'calc': calc.scale: inputSchema.properties.value: 'multipleOf' is not checked",
        " 1 | mcp:",
        "   | ^",
        "Skills/calc.yaml:1:1: warning: MCP server 'calc': calc.scale: inputSchema.properties.factor: 'exclusiveMinimum' is checked as 'minimum' (inclusive)",
        " 1 | mcp:",
        "   | ^",
    ]

    @Test func validateListsTheToolsOnceAndChecksMappingsFromTheOutputSchema() async throws {
        let directory = try Self.workspace()
        let state = ["--state", directory.state.path]
        let good = try await runSkillbook(["validate", "Playbooks/sums.yaml"] + state, in: directory.url)
        #expect(good.code == 0, "\(good.err)")
        #expect(good.out == "Playbooks/sums.yaml: ok\n")
        #expect(good.err.split(separator: "\n").map(String.init) == Self.warnings + ["0 errors, 2 warnings"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.state.appendingPathComponent("mcp").path).count == 1)

        let wrong = try await runSkillbook(["validate", "Playbooks/wrong.yaml"] + state, in: directory.url)
        #expect(wrong.code == 2)
        let lines = wrong.err.split(separator: "\n").map(String.init)
        #expect(
            Array(lines.dropFirst(Self.warnings.count + 1)) == [
                "Playbooks/wrong.yaml:12:47: error: skill 'calc.add' has no output field 'total'; it has: sum, terms",
                #" 12 |     with: { text: "sum ${{ steps.first.output.total }}", times: 2 }"#,
                "    |                                               ^",
                "1 of 1 playbook failed validation",
            ], "\(wrong.err)")

        // The cache is enough: with the server's script gone (it could not start), the skills are
        // still listed.
        try FileManager.default.removeItem(atPath: directory.url.appendingPathComponent("Skills/calc_server.py").path)
        let listed = try await runSkillbook(["skills"] + state, in: directory.url)
        #expect(listed.code == 0, "\(listed.err)")
        let rows = listed.out.split(separator: "\n").filter { $0.hasPrefix("calc.") }.map { $0.split(separator: " ").first.map(String.init) ?? "" }
        #expect(rows == ["calc.add", "calc.broken", "calc.nap", "calc.scale", "calc.shout_text", "calc.whoami", "calc.wipe"])
        let one = try await runSkillbook(["skills", "calc.add"] + state, in: directory.url)
        #expect(one.out.hasPrefix("calc.add — Adds two whole numbers.\n\nquery, cannot be undone, idempotent, timeout 35s\n"), "\(one.out)")
    }

    /// The processes whose working directory is `folder` (a server runs in its manifest's folder).
    static func processes(in folder: URL) -> [String] {
        let target = folder.resolvingSymlinksInPath().path
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.filter { Int($0) != nil }.filter { pid in
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/cwd")) == target
        }
    }

    @Test func ctrlCDuringACallRollsBackAndStopsTheServer() async throws {
        let directory = try Self.workspace()
        directory.write(
            "Playbooks/napper.yaml",
            """
            name: napper
            steps:
              - id: save
                skill: notes.create
                with: { title: undone on Ctrl-C }
              - id: nap
                skill: calc.nap
                with: { seconds: 60 }
            """)
        let child = try SkillbookChild(["run", "napper", "--json", "--state", directory.state.path], in: directory.url)
        let signalled = try await child.kill(SIGINT, after: 0.5) { $0["type"] as? String == "step.started" && $0["step"] as? String == "nap" }
        #expect(signalled, "\(child.transcript)")
        #expect(child.process.termination == .exited(130), "\(child.transcript)")
        let finished = try #require(child.events.last)
        #expect(finished["type"] as? String == "run.finished")
        #expect(finished["status"] as? String == "rolled_back")
        #expect(Self.processes(in: directory.url.appendingPathComponent("Skills")).isEmpty, "the server outlived skillbook")
    }

    @Test func runCallsTheToolsThroughOneServerThatEndsWithTheCommand() async throws {
        let directory = try Self.workspace()
        let run = try await runSkillbook(["run", "sums", "-i", "a=2", "--state", directory.state.path], in: directory.url)
        #expect(run.code == 0, "\(run.err)")
        let outputs = try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
        #expect(outputs["sum"] as? Int == 5)
        #expect(outputs["loud"] as? String == "SUM 5 SUM 5")
        let pid = try #require(outputs["pid"] as? Int)
        #expect(kill(pid_t(pid), 0) != 0, "the server outlived skillbook")
        #expect(run.err.contains("✓ first"))
        #expect(run.err.contains("sums succeeded"))
    }

    /// Issue 27 item 5: a tool added to the server's script is seen by the next `validate` (the
    /// cache is keyed on the script's modification time and size too); a list that is cached
    /// and lacks a tool says when it was listed and how to refresh it, and `skills --refresh`
    /// lists the server again.
    @Test func aChangedScriptIsListedAgainAndACachedListSaysHowToRefreshIt() async throws {
        let directory = try Self.workspace()
        let state = ["--state", directory.state.path]
        let first = try await runSkillbook(["validate", "Playbooks/sums.yaml"] + state, in: directory.url)
        #expect(first.code == 0, "\(first.err)")

        let script = directory.url.appendingPathComponent("Skills/calc_server.py")
        var text = try String(contentsOf: script, encoding: .utf8)
        let main = try #require(text.range(of: "\nif __name__"))
        text.insert(contentsOf: "\n\n@server.tool()\ndef subtract(a: int, b: int) -> int:\n    \"\"\"Subtracts.\"\"\"\n    return a - b\n", at: main.lowerBound)
        try text.write(to: script, atomically: true, encoding: .utf8)
        directory.write("Playbooks/minus.yaml", "name: minus\nsteps:\n  - id: less\n    skill: calc.subtract\n    with: { a: 5, b: 2 }\n")
        let changed = try await runSkillbook(["validate", "Playbooks/minus.yaml"] + state, in: directory.url)
        #expect(changed.code == 0, "\(changed.err)")
        #expect(changed.out == "Playbooks/minus.yaml: ok\n")

        // A cached list without 'add' (as after a change the key does not see): the unknown
        // skill says when the list was cached and how to refresh it.
        let folder = directory.state.appendingPathComponent("mcp")
        let cacheFile = folder.appendingPathComponent(try #require(try FileManager.default.contentsOfDirectory(atPath: folder.path).first))
        guard case .object(var cached) = try JSONText.decode(try String(contentsOf: cacheFile, encoding: .utf8)) else {
            Issue.record("the cache is not an object")
            return
        }
        cached["tools"] = .array((cached["tools"]?.arrayValue ?? []).filter { $0["name"]?.stringValue != "add" })
        try JSONText.encode(.object(cached), pretty: true).write(to: cacheFile, atomically: true, encoding: .utf8)
        let stale = try await runSkillbook(["validate", "Playbooks/sums.yaml"] + state, in: directory.url)
        #expect(stale.code == 2)
        let error = try #require(stale.err.split(separator: "\n").first { $0.contains("error:") }.map(String.init))
        #expect(error.hasPrefix("Playbooks/sums.yaml:6:12: error: step 'first' uses unknown skill 'calc.add'; "), "\(error)")
        #expect(
            error.wholeMatch(of: /.*; tool list cached at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d [+-]\d\d:\d\d; refresh with `skillbook skills --refresh`/)
                != nil, "\(error)")

        let refreshed = try await runSkillbook(["skills", "--refresh"] + state, in: directory.url)
        #expect(refreshed.code == 0, "\(refreshed.err)")
        #expect(refreshed.out.contains("calc.add "), "\(refreshed.out)")
        let again = try await runSkillbook(["validate", "Playbooks/sums.yaml"] + state, in: directory.url)
        #expect(again.code == 0, "\(again.err)")
    }
}
