import Foundation
import SkillbookCore
import SkillbookHost
import SkillbookRuntime
import SkillbookSQL
import SkillbookSQLite
import SkillbookTesting
import Testing

/// A misbehaving server (`misbehaving_server.py`, its mode read from `Skills/mode.txt` at each
/// start): listed while it behaves, then failing a call in one way.
@Suite struct MCPServerFailureTests {
    static func workspace(timeout: String = "10s") throws -> (HostFixture, PlaybookHost, command: String) {
        let fixture = HostFixture()
        let python = try MCPServerSkillsTests.python()
        let script = "\(MCPServerSkillsTests.fixtures)/misbehaving_server.py"
        fixture.write("Skills/bad.yaml", "mcp: { command: [\(python), \(script), \"@mode.txt\"], prefix: bad, timeout: \(timeout) }\n")
        fixture.write("Skills/mode.txt", "ok")
        fixture.write(
            "Playbooks/crash.yaml",
            """
            name: crash
            steps:
              - id: save
                skill: notes.create
                with: { title: undone when the call fails }
              - id: call
                skill: bad.crash
                retry: { attempts: 2, delay: 0 }
            """)
        return (fixture, MCPServerSkillsTests.host(fixture), "\(python) \(script) @mode.txt")
    }

    /// Lists the tools while the server behaves, stops it, and makes the next start misbehave.
    static func failing(_ mode: String, timeout: String = "10s") async throws -> (HostFixture, PlaybookHost, command: String) {
        let (fixture, host, command) = try workspace(timeout: timeout)
        await host.listUncachedMCPServers()
        #expect(try host.loadRegistry().registry["bad.crash"] != nil)
        await host.shutdown()
        fixture.write("Skills/mode.txt", mode)
        return (fixture, host, command)
    }

    static func expectRolledBack(_ result: RunResult, _ fixture: HostFixture, error: String, sourceLocation: Testing.SourceLocation = #_sourceLocation)
        throws
    {
        #expect(result.status == .rolledBack, sourceLocation: sourceLocation)
        #expect(result.step("call")?.error == error, sourceLocation: sourceLocation)
        #expect(result.step("call")?.attempts == 2, sourceLocation: sourceLocation)
        #expect(try NotesStore(stateDirectory: fixture.state).list(tag: nil, limit: 10).isEmpty, sourceLocation: sourceLocation)
    }

    @Test func aServerThatExitsAtStart() async throws {
        let (fixture, host, command) = try await Self.failing("exit")
        let result = try await fixture.driving { try await host.run(RunRequest(playbook: "crash")) }
        await host.shutdown()
        try Self.expectRolledBack(
            result, fixture, error: "bad.crash: MCP server '\(command)' exited with code 3; its stderr ends: cannot find my configuration")
    }

    @Test func aServerWhoseProgramIsGone() async throws {
        let (fixture, _, _) = try Self.workspace()
        let python = try MCPServerSkillsTests.python()
        try FileManager.default.createSymbolicLink(atPath: fixture.url.appendingPathComponent("Skills/py").path, withDestinationPath: python)
        let script = "\(MCPServerSkillsTests.fixtures)/misbehaving_server.py"
        fixture.write("Skills/bad.yaml", "mcp: { command: [./py, \(script), \"@mode.txt\"], prefix: bad, timeout: 10s }\n")
        let host = MCPServerSkillsTests.host(fixture)
        await host.listUncachedMCPServers()
        await host.shutdown()
        fixture.remove("Skills/py")
        let program = fixture.url.appendingPathComponent("Skills/py").path
        let loaded = try host.loadRegistry()
        #expect(
            loaded.registry["bad.crash"]?.descriptor.availability
                == .unavailable(reason: "the MCP server's program '\(program)' is not an executable file"))
        let result = try await fixture.driving { try await host.run(RunRequest(playbook: "crash")) }
        await host.shutdown()
        try Self.expectRolledBack(
            result, fixture,
            error: "bad.crash: cannot start MCP server '\(program) \(script) @mode.txt': '\(program)' is not an executable file")
        #expect(result.failureKind == .unavailable)
    }

    @Test func aServerThatWritesGarbage() async throws {
        let (fixture, host, command) = try await Self.failing("garbage_on_call")
        let result = try await fixture.driving { try await host.run(RunRequest(playbook: "crash")) }
        await host.shutdown()
        try Self.expectRolledBack(
            result, fixture,
            error: "bad.crash: MCP server '\(command)' wrote something that is not JSON-RPC on stdout: Traceback (most recent call last): oops")
    }

    @Test func aServerThatHangsTimesOut() async throws {
        let (fixture, host, command) = try await Self.failing("silent_on_call", timeout: "2s")
        let started = ContinuousClock.now
        let result = try await fixture.driving { try await host.run(RunRequest(playbook: "crash")) }
        await host.shutdown()
        try Self.expectRolledBack(result, fixture, error: "bad.crash: MCP server '\(command)' did not answer 'tools/call' within 2 s")
        #expect(result.failureKind == .timeout)
        #expect(ContinuousClock.now - started < .seconds(20))
    }

    @Test func aServerThatDiesMidCall() async throws {
        let (fixture, host, command) = try await Self.failing("die_on_call")
        let result = try await fixture.driving { try await host.run(RunRequest(playbook: "crash")) }
        await host.shutdown()
        try Self.expectRolledBack(
            result, fixture, error: "bad.crash: MCP server '\(command)' exited with code 139; its stderr ends: segfault (pretend)")
    }

    @Test func aRetryStartsTheServerAgainAfterItDied() async throws {
        let (fixture, host, _) = try await Self.failing("die_on_first_call")
        let result = try await fixture.driving { try await host.run(RunRequest(playbook: "crash")) }
        await host.shutdown()
        #expect(result.status == .succeeded, "\(result.error ?? "")")
        #expect(result.step("call")?.attempts == 2)
        #expect(try NotesStore(stateDirectory: fixture.state).list(tag: nil, limit: 10).count == 1)
    }

    @Test func aServerThatCannotBeListedLeavesItsSkillsOutWithWhy() async throws {
        let (fixture, host, command) = try Self.workspace()
        fixture.write("Skills/mode.txt", "garbage")
        await host.listUncachedMCPServers()
        let loaded = try host.loadRegistry()
        await host.shutdown()
        #expect(loaded.registry["bad.crash"] == nil)
        #expect(
            loaded.warnings.map(\.description) == [
                "\(fixture.path)/Skills/bad.yaml:1:1: warning: MCP server 'bad' has no skills: cannot list its tools: MCP server "
                    + "'\(command)' wrote something that is not JSON-RPC on stdout: Welcome to my server!"
            ])
        // A run says why its step's skill is unknown, even where manifest warnings are not shown.
        let notices = NoticeLog()
        await #expect(throws: HostError.self) { _ = try await host.run(RunRequest(playbook: "crash"), onNotice: notices.handler) }
        await host.shutdown()
        let reported = notices.all.compactMap { notice -> [String]? in
            guard case .diagnostics(let diagnostics, _) = notice else { return nil }
            return diagnostics.map(\.description)
        }
        #expect(reported == [loaded.warnings.map(\.description)])
    }
}
