import Foundation
import SkillbookCore
import SkillbookHost
import SkillbookRuntime
import SkillbookSQL
import SkillbookSQLite
import SkillbookTesting
import Testing

/// `mcp:` manifests through the host: a Python SDK server's tools (`SkillbookMCPTests/Fixtures`,
/// run with the Python of `.build/venv`) as skills of real runs, their tool list cached in the
/// state folder, one server per manifest shared by the steps and stopped by `shutdown()`, and
/// every way a server can fail as a step failure with its message.
@Suite struct MCPServerSkillsTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("SkillbookMCPTests/Fixtures").path

    static func python() throws -> String {
        let python = URL(fileURLWithPath: fixtures).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent(".build/venv/bin/python").path
        guard FileManager.default.isExecutableFile(atPath: python) else {
            Issue.record("\(python) is missing: run 'make venv' (or 'make test', which creates it with PyPI 'mcp')")
            throw CancellationError()
        }
        return python
    }

    /// A host on `fixture` whose `Skills` folder is loaded, approving confirmations.
    static func host(_ fixture: HostFixture, pool: MCPServerPool = MCPServerPool()) -> PlaybookHost {
        var configuration = fixture.configuration(confirmation: .approveAll)
        configuration.skillDirectories = [fixture.url.appendingPathComponent("Skills")]
        return PlaybookHost(configuration, mcpServers: pool)
    }

    static func calcManifest() throws -> String {
        "mcp:\n  command: [\(try python()), \(fixtures)/calc_server.py]\n  prefix: calc\n  timeout: 20s\n"
    }

    static let sums = """
        name: sums
        inputs:
          a: { type: integer }
        steps:
          - id: first
            skill: calc.add
            with: { a: "${{ inputs.a }}", b: 3 }
          - id: again
            skill: calc.add
            with: { a: "${{ steps.first.output.sum }}", b: 10 }
          - id: who
            skill: calc.whoami
          - id: loud
            skill: calc.shout_text
            with: { text: "sum ${{ steps.again.output.sum }}", times: 2 }
        outputs:
          sum: "${{ steps.again.output.sum }}"
          loud: "${{ steps.loud.output.result }}"
          pid: "${{ steps.who.output.pid }}"
        """

    static func isRunning(_ pid: Int) -> Bool { kill(pid_t(pid), 0) == 0 }

    @Test func aServersToolsAreTheSkillsOfARealRun() async throws {
        let fixture = HostFixture()
        fixture.write("Skills/calc.yaml", try Self.calcManifest())
        fixture.write("Playbooks/sums.yaml", Self.sums)
        let pool = MCPServerPool()
        let host = Self.host(fixture, pool: pool)

        // No cached tool list yet: the registry (which never starts a server) says so.
        let before = try host.loadRegistry()
        #expect(before.registry["calc.add"] == nil)
        #expect(
            before.warnings.map(\.description) == [
                "\(fixture.path)/Skills/calc.yaml:1:1: warning: MCP server 'calc' has no skills: its tools are not known yet "
                    + "(no cached tool list); 'skillbook validate' starts it once to list them"
            ])

        // A run lists the tools first (the server then stays up for the run's calls).
        let result = try await host.run(RunRequest(playbook: "sums", inputs: ["a": 2]))
        #expect(result.status == .succeeded, "\(result.error ?? "")")
        #expect(result.outputs["sum"] == 15)
        #expect(result.outputs["loud"] == "SUM 15 SUM 15")
        let pid = try #require(result.outputs["pid"]?.intValue)
        #expect(Self.isRunning(pid))

        // Another run of the same pool calls the same server process.
        let second = try await Self.host(fixture, pool: pool).run(RunRequest(playbook: "sums", inputs: ["a": 1]))
        #expect(second.outputs["pid"]?.intValue == pid)
        #expect(second.outputs["sum"] == 14)

        // The cache is in the state folder; the registry now reads the tools from it.
        let cacheFiles = try FileManager.default.contentsOfDirectory(atPath: fixture.state.appendingPathComponent("mcp").path)
        #expect(cacheFiles.count == 1)
        #expect(cacheFiles.first?.hasPrefix("calc-") == true)
        let loaded = try host.loadRegistry()
        let add = try #require(loaded.registry["calc.add"]?.descriptor)
        #expect(add.kind == .query)
        #expect(add.output.property("sum")?.type == .integer)
        #expect(loaded.registry["calc.wipe"]?.descriptor.confirm == true)
        #expect(
            loaded.warnings.map(\.description) == [
                "\(fixture.path)/Skills/calc.yaml:1:1: warning: MCP server 'calc': calc.scale: inputSchema.properties.value: "
                    + "'multipleOf' is not checked",
                "\(fixture.path)/Skills/calc.yaml:1:1: warning: MCP server 'calc': calc.scale: inputSchema.properties.factor: "
                    + "'exclusiveMinimum' is checked as 'minimum' (inclusive)",
            ])

        // Shutting the host down stops the server; a later run starts a new one.
        await host.shutdown()
        #expect(await eventually { !Self.isRunning(pid) })
        let third = try await host.run(RunRequest(playbook: "sums", inputs: ["a": 0]))
        #expect(third.status == .succeeded)
        let newPID = try #require(third.outputs["pid"]?.intValue)
        #expect(newPID != pid)
        await host.shutdown()
        #expect(!Self.isRunning(newPID))
    }

    @Test func aMappingOfAFieldTheOutputSchemaLacksIsAnErrorAtItsPosition() async throws {
        let fixture = HostFixture()
        fixture.write("Skills/calc.yaml", try Self.calcManifest())
        let file = fixture.write("Playbooks/bad.yaml", Self.sums.replacingOccurrences(of: "output.sum }}\", b: 10", with: "output.total }}\", b: 10")
                .replacingOccurrences(of: "name: sums", with: "name: bad"))
        let host = Self.host(fixture)
        await host.listUncachedMCPServers()
        await host.shutdown()
        let loaded = try host.loadPlaybook(at: file, registry: try host.loadRegistry().registry)
        #expect(
            loaded.result.diagnostics.filter { $0.severity == .error }.map(\.description) == [
                "\(file.path):10:40: error: skill 'calc.add' has no output field 'total'; it has: sum, terms"
            ])
    }

    @Test func aToolThatReportsAnErrorFailsTheStepWithItsText() async throws {
        let fixture = HostFixture()
        fixture.write("Skills/calc.yaml", try Self.calcManifest())
        fixture.write(
            "Playbooks/broken.yaml",
            """
            name: broken
            steps:
              - id: save
                skill: notes.create
                with: { title: kept until the failure }
              - id: fail
                skill: calc.broken
                with: { reason: on purpose }
            """)
        let host = Self.host(fixture)
        let result = try await host.run(RunRequest(playbook: "broken"))
        await host.shutdown()
        #expect(result.status == .rolledBack)
        #expect(result.step("fail")?.error == "calc.broken: tool 'broken' failed: Error executing tool broken: broken on purpose: on purpose")
        #expect(try NotesStore(stateDirectory: fixture.state).list(tag: nil, limit: 10).isEmpty)
    }

    @Test func theServerGetsTheVariablesItsManifestSetsOrPassesOnAndNoOthers() async throws {
        let python = try Self.python()
        let script = "\(Self.fixtures)/misbehaving_server.py"
        let echo = """
            name: echo
            steps:
              - id: call
                skill: bad.crash
            outputs:
              seen: "${{ steps.call.output.text }}"
            """
        let fixture = HostFixture()
        fixture.write("Playbooks/echo.yaml", echo)
        fixture.write(
            "Skills/bad.yaml", "mcp: { command: [\(python), \(script), ok], prefix: bad, env: { ECHO_ENV: 'GREETING,OTHER', GREETING: hi } }\n")
        var configuration = fixture.configuration(confirmation: .approveAll)
        configuration.skillDirectories = [fixture.url.appendingPathComponent("Skills")]
        configuration.environment["OTHER"] = "not for the server"
        let set = PlaybookHost(configuration)
        let first = try await set.run(RunRequest(playbook: "echo"))
        await set.shutdown()
        #expect(first.outputs["seen"] == "GREETING=hi,OTHER=-")

        let passing = HostFixture()
        passing.write("Playbooks/echo.yaml", echo)
        passing.write("Skills/bad.yaml", "mcp: { command: [\(python), \(script), ok], prefix: bad, env: [ECHO_ENV, TOKEN, UNSET] }\n")
        configuration = passing.configuration(confirmation: .approveAll)
        configuration.skillDirectories = [passing.url.appendingPathComponent("Skills")]
        configuration.environment.merge(["ECHO_ENV": "TOKEN,UNSET,OTHER", "TOKEN": "s3cret", "OTHER": "not for the server"]) { $1 }
        let passed = PlaybookHost(configuration)
        let second = try await passed.run(RunRequest(playbook: "echo"))
        await passed.shutdown()
        #expect(second.outputs["seen"] == "TOKEN=s3cret,UNSET=-,OTHER=-")
    }
}
