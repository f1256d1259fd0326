import Foundation
import SkillbookCore
import SkillbookSkills
import Testing
import SkillbookSystem

@testable import SkillbookMCP

/// The server as a real child process (`skillbook-mcp-testserver`): only JSON-RPC lines on
/// stdout, logs on stderr, an answer for a malformed line, and exit 0 once stdin closes.
@Suite struct MCPServerProcessTests {
    @Test func aChildProcessAnswersLineByLineAndExitsWhenStdinCloses() async throws {
        let child = try await ServerProcess.start(MCPServerCommand([Paths.testServer]), processes: ProcessRunner())
        let inbox = LineInbox(child.transport)
        for line in [
            #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{}}}"#,
            "{oops",
            #"{"jsonrpc":"2.0","id":2,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#,
            #"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"demo.echo","arguments":{"text":"bye"}}}"#,
        ] {
            child.transport.send(line)
        }
        child.transport.closeOutput()
        var replies: [Value] = []
        while case .line(let line) = await inbox.next(seconds: 30) {
            replies.append(try JSONText.decode(line))
        }
        #expect(replies.count == 4)
        #expect(replies.first { $0["id"] == 1 }?["result"]?["protocolVersion"] == "2025-06-18")
        #expect(replies.first { $0["id"] == .null }?["error"]?["code"] == -32700)
        #expect(replies.first { $0["id"] == 2 }?["result"]?["resultType"] == "complete")
        #expect(replies.first { $0["id"] == 3 }?["result"]?["structuredContent"] == ["text": "bye"])
        #expect(await child.waitForExit(seconds: 30) == "exited with code 0")
        #expect(child.stderr.contains("testserver: initialize: an unnamed client asked for 2025-06-18, speaking 2025-06-18"))
    }
}
