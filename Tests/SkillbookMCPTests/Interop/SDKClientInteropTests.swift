import Foundation
import SkillbookSkills
import Testing
import SkillbookSystem

@testable import SkillbookMCP

/// Interoperability the other way: the official Python SDK's client (`Fixtures/sdk_client.py`)
/// spawns the demo server (`skillbook-mcp-testserver`) and checks what it says, under the
/// `initialize` handshake and under 2026-07-28 (found through `server/discover`).
@Suite struct SDKClientInteropTests {
    static let commonChecks = [
        "lists the tools in order", "a query is read-only", "a confirming skill is destructive",
        "an idempotent skill says so", "outputSchema from the skill's output", "structuredContent", "the same JSON as text",
        "invalid arguments are an error result", "with every problem as text", "an unknown tool is JSON-RPC error -32602",
        "a failure is an error result with its error", "a declined confirmation is an error result", "and nothing ran",
        "an accepted confirmation runs", "the elicitation shows the summary", "a slow call finishes",
        "with progress notifications", "cancelling stops the run on the server", "and the server goes on",
    ]

    @Test(arguments: [
        ("legacy", ["the initialize handshake agrees on 2025-11-25"]),
        ("auto", ["server/discover, no handshake", "2026-07-28 is the newest supported revision"]),
    ])
    func thePythonClientUsesTheServer(mode: String, handshake: [String]) async throws {
        let events = try Paths.temporaryDirectory() + "/events"
        _ = FileManager.default.createFile(atPath: events, contents: nil)
        // Spawned and read without blocking a thread of the cooperative pool.
        let python = try await ServerProcess.start(
            MCPServerCommand([try Paths.python(), Paths.fixture("sdk_client.py"), Paths.testServer, mode, events]),
            processes: ProcessRunner())
        let output = LineInbox(python.transport)
        var lines: [String] = []
        while case .line(let line) = await output.next(seconds: 120) { lines.append(line) }
        #expect(lines == (handshake + Self.commonChecks).map { "ok: \($0)" })
        #expect(await python.waitForExit(seconds: 60) == "exited with code 0", "stderr: \(python.stderr)")
    }
}
