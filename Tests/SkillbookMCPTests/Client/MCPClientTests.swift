import Foundation
import SkillbookCore
import SkillbookSkills
import Synchronization
import Testing
import SkillbookSystem

@testable import SkillbookMCP

/// The client against real server processes: the demo server, and servers that misbehave.
@Suite struct MCPClientTests {
    static func misbehaving(_ mode: String, timeout: Double = 20, grace: Double = 2) throws -> MCPServerCommand {
        MCPServerCommand([try Paths.python(), Paths.fixture("misbehaving_server.py"), mode], timeout: timeout, shutdownGrace: grace)
    }

    @Test func listsAndCallsTheToolsOfAChildProcess() async throws {
        let client = MCPClient(command: MCPServerCommand([Paths.testServer]), processes: ProcessRunner())
        let tools = try await client.listTools()
        #expect(tools.map(\.name) == ["demo.add_note", "demo.count", "demo.echo", "demo.fail", "demo.list_notes"])
        // Our own server speaks the stateless revision: discovered, no handshake, `_meta` on each
        // request (the server refuses a request without it when there was no `initialize`).
        #expect(await client.protocolVersion == "2026-07-28")
        #expect(await client.serverInfo == ["name": "skillbook-mcp-testserver", "version": "1.0"])
        let echo = try await client.callTool("demo.echo", arguments: ["text": "hi", "times": 2])
        #expect(echo == MCPCallResult(content: [["type": "text", "text": #"{"text":"hi hi"}"#]], structuredContent: ["text": "hi hi"], isError: false))
        let failed = try await client.callTool("demo.fail", arguments: [:])
        #expect(failed.isError)
        #expect(failed.text == "'demo.fail' failed: the demo failure")
        let reports = ProgressLog()
        let counted = try await client.callTool("demo.count", arguments: ["to": 3, "delay_ms": 1]) { reports.add($0) }
        #expect(counted.structuredContent == ["counted": 3])
        #expect(reports.all.map(\.progress) == [1, 2, 3])
        await client.stop()
        #expect(await !client.isRunning)
    }

    @Test func aServerOfTheHandshakeEraIsReachedThroughInitialize() async throws {
        let client = MCPClient(command: try Self.misbehaving("ok"), processes: ProcessRunner())
        #expect(try await client.listTools().map(\.name) == ["crash"])
        #expect(await client.protocolVersion == "2025-06-18")
        #expect(await client.serverInfo == ["name": "misbehaving", "version": "1"])
        #expect(try await client.callTool("crash", arguments: [:]).text == "ok")
        await client.stop()
    }

    @Test func aDiscoverAnswerWithoutTheStatelessRevisionFallsBackToInitialize() async throws {
        let client = MCPClient(command: try Self.misbehaving("discover_legacy"), processes: ProcessRunner())
        #expect(try await client.listTools().map(\.name) == ["crash"])
        #expect(await client.protocolVersion == "2025-06-18")
        await client.stop()
    }

    @Test func aStatelessResultAskingForInputIsAClearError() async throws {
        let command = try Self.misbehaving("input_required")
        let client = MCPClient(command: command, processes: ProcessRunner())
        #expect(try await client.listTools().map(\.name) == ["crash"])
        #expect(await client.protocolVersion == "2026-07-28")
        await #expect(
            throws: MCPClientError.badAnswer(
                command: command.display, method: "tools/call", detail: "it asks for more input ('input_required'), which this client cannot give")
        ) {
            _ = try await client.callTool("crash", arguments: [:])
        }
        await client.stop()
    }

    @Test func anUnknownToolIsARefusal() async throws {
        let client = MCPClient(command: MCPServerCommand([Paths.testServer]), processes: ProcessRunner())
        do {
            _ = try await client.callTool("demo.nope", arguments: [:])
            Issue.record("no error")
        } catch {
            #expect(error.description.hasSuffix("refused 'tools/call': Unknown tool: demo.nope (error -32602)"))
        }
        await client.stop()
    }

    @Test func aMissingProgramCannotStart() async throws {
        let client = MCPClient(command: MCPServerCommand(["no-such-mcp-server-here", "--stdio"]), processes: ProcessRunner())
        await #expect(throws: MCPClientError.cannotStart(command: "no-such-mcp-server-here --stdio", reason: "'no-such-mcp-server-here' is not on PATH")) {
            try await client.start()
        }
    }

    @Test func aServerThatExitsAtOnceShowsItsStatusAndStderr() async throws {
        let command = try Self.misbehaving("exit")
        let client = MCPClient(command: command, processes: ProcessRunner())
        await #expect(throws: MCPClientError.exited(command: command.display, status: "exited with code 3", stderr: "cannot find my configuration")) {
            try await client.start()
        }
        #expect(await !client.isRunning)
    }

    @Test func garbageOnStdoutIsAClearError() async throws {
        let command = try Self.misbehaving("garbage")
        let client = MCPClient(command: command, processes: ProcessRunner())
        await #expect(throws: MCPClientError.garbage(command: command.display, line: "Welcome to my server!")) {
            try await client.start()
        }
        #expect(await !client.isRunning)
    }

    @Test func aServerThatNeverAnswersTimesOut() async throws {
        let command = try Self.misbehaving("silent", timeout: 1, grace: 0.5)
        let client = MCPClient(command: command, processes: ProcessRunner())
        let started = ContinuousClock.now
        await #expect(throws: MCPClientError.timedOut(command: command.display, method: "server/discover", seconds: 1)) {
            try await client.start()
        }
        #expect(ContinuousClock.now - started < .seconds(60))
    }

    @Test func aServerThatDiesMidCallIsAClearError() async throws {
        let command = try Self.misbehaving("die_on_call")
        let client = MCPClient(command: command, processes: ProcessRunner())
        #expect(try await client.listTools().map(\.name) == ["crash"])
        await #expect(throws: MCPClientError.exited(command: command.display, status: "exited with code 139", stderr: "segfault (pretend)")) {
            _ = try await client.callTool("crash", arguments: [:])
        }
        // The next call starts it again.
        #expect(try await client.listTools().map(\.name) == ["crash"])
        await client.stop()
    }

    @Test func shutdownEscalatesToSIGKILLForAServerThatIgnoresEOFAndSIGTERM() async throws {
        let command = try Self.misbehaving("stubborn", grace: 0.5)
        let client = MCPClient(command: command, processes: ProcessRunner())
        try await client.start()
        let process = try #require(await client.processForTests)
        let started = ContinuousClock.now
        let status = await process.shutdown(grace: 0.5)
        #expect(status == "was killed by signal 9 (SIGKILL)")
        #expect(ContinuousClock.now - started < .seconds(10))
        await client.stop()
    }

    @Test func cancellingACallTellsTheServer() async throws {
        let events = try Paths.temporaryDirectory() + "/events"
        let command = MCPServerCommand([Paths.testServer, "--events", events])
        let client = MCPClient(command: command, processes: ProcessRunner())
        try await client.start()
        let call = Task { try await client.callTool("demo.count", arguments: ["to": 1000, "delay_ms": 20]) }
        try await Task.sleep(for: .milliseconds(300))
        call.cancel()
        await #expect(throws: MCPClientError.cancelled(command: command.display)) { _ = try await call.value }
        // Still running, and the server stopped counting.
        #expect(try await client.callTool("demo.echo", arguments: ["text": "x"]).isError == false)
        await client.stop()
        let log = (try? String(contentsOfFile: events, encoding: .utf8)) ?? ""
        #expect(log.contains("counting stopped at"))
        #expect(log.contains("cancelled demo.count"))
    }
}

final class ProgressLog: Sendable {
    private let reports = Mutex<[MCPProgress]>([])
    func add(_ report: MCPProgress) { reports.withLock { $0.append(report) } }
    var all: [MCPProgress] { reports.withLock { $0 } }
}
