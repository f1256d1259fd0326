import SkillbookCore
import Synchronization
import Testing

@testable import SkillbookMCP

/// `tools/list` and `tools/call` under 2025-11-25: validation, results, confirmation through
/// elicitation, progress and cancellation.
@Suite struct MCPServerToolsTests {
    static let elicitation: Value = ["elicitation": ["form": [:]]]

    @Test func listsToolsInAStableOrderWithSchemasAndAnnotations() async throws {
        let harness = try await ServerHarness.initialized()
        let first = try await harness.call(2, "tools/list")
        let second = try await harness.call(3, "tools/list")
        let tools = try #require(first["result"]?["tools"]?.arrayValue)
        #expect(tools.map { $0["name"]?.stringValue ?? "" } == ["demo.add_note", "demo.count", "demo.echo", "demo.fail", "demo.list_notes"])
        #expect(first["result"] == second["result"])
        let addNote = tools[0]
        #expect(addNote["annotations"] == ["readOnlyHint": false, "destructiveHint": true, "idempotentHint": false])
        #expect(tools[1]["annotations"] == ["readOnlyHint": false, "destructiveHint": false, "idempotentHint": true])
        #expect(
            addNote["inputSchema"]
                == [
                    "type": "object", "properties": ["title": ["type": "string", "description": "The note's title.", "minLength": 1]],
                    "required": ["title"], "additionalProperties": false,
                ])
        #expect(addNote["outputSchema"]?["required"] == ["id", "title"])
        await harness.finish()
    }

    @Test func anUnknownToolIsInvalidParamsWithASuggestion() async throws {
        let harness = try await ServerHarness.initialized()
        let reply = try await harness.call(2, "tools/call", ["name": "demo.ecko", "arguments": [:]])
        #expect(
            reply["error"]
                == ["code": -32602, "message": "Unknown tool: demo.ecko; did you mean 'demo.echo'?", "data": ["name": "demo.ecko"]])
        let noName = try await harness.call(3, "tools/call", ["arguments": [:]])
        #expect(noName["error"]?["message"] == "Invalid params: 'name' (a string) is required")
        await harness.finish()
    }

    @Test func invalidArgumentsAreAnErrorResultAndNothingRuns() async throws {
        let harness = try await ServerHarness.initialized()
        let reply = try await harness.call(2, "tools/call", ["name": "demo.echo", "arguments": ["times": 9, "extra": 1]])
        #expect(
            reply["result"]
                == [
                    "content": [
                        [
                            "type": "text",
                            "text": """
                            invalid arguments for 'demo.echo'; nothing ran:
                            - missing required property 'text'
                            - times must be at most 5, got 9
                            - unknown property 'extra'
                            """,
                        ]
                    ],
                    "isError": true,
                ])
        #expect(harness.recordedEvents.isEmpty)
        await harness.finish()
    }

    @Test func aCallReturnsStructuredContentAndTheSameJSONAsText() async throws {
        let harness = try await ServerHarness.initialized()
        let reply = try await harness.call(2, "tools/call", ["name": "demo.echo", "arguments": ["text": "hi", "times": "2"]])
        #expect(
            reply["result"]
                == ["content": [["type": "text", "text": #"{"text":"hi hi"}"#]], "structuredContent": ["text": "hi hi"], "isError": false])
        #expect(harness.recordedEvents == ["ran demo.echo"])
        await harness.finish()
    }

    @Test func aFailedCallIsAnErrorResultWithItsStatus() async throws {
        let harness = try await ServerHarness.initialized()
        let reply = try await harness.call(2, "tools/call", ["name": "demo.fail"])
        #expect(reply["result"]?["isError"] == true)
        #expect(reply["result"]?["content"]?[0]?["text"] == "'demo.fail' failed: the demo failure")
        #expect(reply["result"]?["structuredContent"] == ["status": "failed", "error": "the demo failure"])
        await harness.finish()
    }

    @Test func confirmationWithoutElicitationIsRefusedUnlessStartedWithYes() async throws {
        let harness = try await ServerHarness.initialized()
        let reply = try await harness.call(2, "tools/call", ["name": "demo.add_note", "arguments": ["title": "milk"]])
        #expect(
            reply["result"]
                == [
                    "content": [["type": "text", "text": "'demo.add_note' needs confirmation; start the server with --yes to allow it"]],
                    "isError": true,
                ])
        #expect(harness.recordedEvents.isEmpty)
        await harness.finish()

        let allowed = try await ServerHarness.initialized(yes: true)
        let ran = try await allowed.call(2, "tools/call", ["name": "demo.add_note", "arguments": ["title": "milk"]])
        #expect(ran["result"]?["structuredContent"] == ["id": 1, "title": "milk"])
        await allowed.finish()
    }

    @Test func confirmationThroughElicitationDeclinedRunsNothingAcceptedRuns() async throws {
        let harness = try await ServerHarness.initialized(capabilities: Self.elicitation)
        let asked = Box()
        let declined = try await harness.call(2, "tools/call", ["name": "demo.add_note", "arguments": ["title": "milk"]]) {
            method, params in
            asked.set(method, params)
            return ["action": "decline"]
        }
        #expect(declined["result"]?["isError"] == true)
        #expect(declined["result"]?["content"]?[0]?["text"] == "'demo.add_note' was not approved; nothing ran")
        #expect(asked.method == "elicitation/create")
        #expect(asked.params?["message"] == #"Run demo.add_note with title: "milk""#)
        #expect(asked.params?["mode"] == "form")
        #expect(asked.params?["requestedSchema"]?["properties"]?["confirm"]?["type"] == "boolean")
        #expect(asked.params?["requestedSchema"]?["required"] == ["confirm"])

        let unchecked = try await harness.call(3, "tools/call", ["name": "demo.add_note", "arguments": ["title": "milk"]]) { _, _ in
            ["action": "accept", "content": ["confirm": false]]
        }
        #expect(unchecked["result"]?["isError"] == true)
        let list = try await harness.call(4, "tools/call", ["name": "demo.list_notes"])
        #expect(list["result"]?["structuredContent"] == ["titles": [], "count": 0])

        let accepted = try await harness.call(5, "tools/call", ["name": "demo.add_note", "arguments": ["title": "milk"]]) { _, _ in
            ["action": "accept", "content": ["confirm": true]]
        }
        #expect(accepted["result"]?["structuredContent"] == ["id": 1, "title": "milk"])
        await harness.finish()
    }

    @Test func progressNotificationsCarryTheTokenAndGrow() async throws {
        let harness = try await ServerHarness.initialized()
        let reply = try await harness.call(
            2, "tools/call", ["name": "demo.count", "arguments": ["to": 3, "delay_ms": 1], "_meta": ["progressToken": "p1"]])
        #expect(reply["result"]?["structuredContent"] == ["counted": 3])
        let progress = await harness.notifications.filter { $0["method"] == "notifications/progress" }
        #expect(progress.map { $0["params"] } == [1, 2, 3].map { ["progressToken": "p1", "progress": .int($0), "total": 3, "message": .string("\($0) of 3")] })
        await harness.finish()
    }

    @Test func noProgressWithoutAToken() async throws {
        let harness = try await ServerHarness.initialized()
        _ = try await harness.call(2, "tools/call", ["name": "demo.count", "arguments": ["to": 2, "delay_ms": 1]])
        #expect(await harness.notifications.isEmpty)
        await harness.finish()
    }

    @Test func cancelledNotificationStopsTheCallAndNothingAnswersIt() async throws {
        let harness = try await ServerHarness.initialized()
        await harness.send([
            "jsonrpc": "2.0", "id": 2, "method": "tools/call",
            "params": ["name": "demo.count", "arguments": ["to": 1000, "delay_ms": 20], "_meta": ["progressToken": 7]],
        ])
        let first = try await harness.next()
        #expect(first["method"] == "notifications/progress")
        await harness.send(["jsonrpc": "2.0", "method": "notifications/cancelled", "params": ["requestId": 2, "reason": "enough"]])
        // The next answer is the ping's: the cancelled call sends nothing more.
        await harness.send(["jsonrpc": "2.0", "id": 3, "method": "ping"])
        while true {
            let message = try await harness.next()
            if message["method"] == "notifications/progress" { continue }
            #expect(message == ["jsonrpc": "2.0", "id": 3, "result": [:]])
            break
        }
        await harness.finish()
        #expect(harness.recordedEvents.contains { $0.hasPrefix("counting stopped at") })
        #expect(harness.recordedEvents.contains("cancelled demo.count"))
    }

    @Test func closingTheInputCancelsARunningCallWhichAnswersRolledBack() async throws {
        let harness = try await ServerHarness.initialized()
        await harness.send([
            "jsonrpc": "2.0", "id": 2, "method": "tools/call",
            "params": ["name": "demo.count", "arguments": ["to": 1000, "delay_ms": 20], "_meta": ["progressToken": 1]],
        ])
        #expect(try await harness.next()["method"] == "notifications/progress")
        await harness.finish()
        var reply: Value = nil
        while reply == nil {
            let message = try await harness.next()
            if message["id"] == 2 { reply = message }
        }
        #expect(reply["result"]?["structuredContent"] == ["status": "rolled_back", "error": "cancelled"])
        #expect(await harness.outputEnds())
    }
}

/// What the server asked, seen from the answering closure.
final class Box: Sendable {
    private let state = Mutex<(String?, Value?)>((nil, nil))
    func set(_ method: String, _ params: Value) { state.withLock { $0 = (method, params) } }
    var method: String? { state.withLock { $0.0 } }
    var params: Value? { state.withLock { $0.1 } }
}
