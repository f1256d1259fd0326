import Foundation
import Testing

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
    func thePythonClientUsesTheServer(mode: String, handshake: [String]) throws {
        let events = try Paths.temporaryDirectory() + "/events"
        _ = FileManager.default.createFile(atPath: events, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try Paths.python())
        process.arguments = [Paths.fixture("sdk_client.py"), Paths.testServer, mode, events]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(lines == (handshake + Self.commonChecks).map { "ok: \($0)" })
        #expect(process.terminationStatus == 0)
    }
}
