import SkillbookCore
import Testing

@testable import SkillbookMCP

/// The stateless 2026-07-28 revision: `server/discover`, per-request `_meta`, `resultType`,
/// its errors, and confirmation through the `input_required` round trip.
@Suite struct MCPServerStatelessTests {
    static func meta(_ capabilities: Value = [:], version: Value = "2026-07-28", progress: Value? = nil) -> Value {
        var meta: ValueObject = [
            "io.modelcontextprotocol/protocolVersion": version,
            "io.modelcontextprotocol/clientCapabilities": capabilities,
            "io.modelcontextprotocol/clientInfo": ["name": "tests", "version": "1"],
        ]
        if let progress { meta["progressToken"] = progress }
        return .object(meta)
    }

    static let serverMeta: Value = ["io.modelcontextprotocol/serverInfo": ["name": "test", "version": "0.1"]]
    static let elicitation: Value = ["elicitation": ["form": [:]]]

    @Test func discoverNeedsNoHandshake() async throws {
        let harness = ServerHarness()
        let reply = try await harness.call(1, "server/discover", ["_meta": Self.meta()])
        #expect(
            reply["result"]
                == [
                    "supportedVersions": ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26"],
                    "capabilities": ["tools": ["listChanged": false]], "ttlMs": 0, "cacheScope": "private",
                    "resultType": "complete", "_meta": Self.serverMeta,
                ])
        await harness.finish()
    }

    @Test(arguments: [
        (["name": "demo.echo"] as Value, "Invalid params: '_meta' is required and must be an object"),
        (
            ["_meta": ["io.modelcontextprotocol/protocolVersion": "2026-07-28"]] as Value,
            "Invalid params: '_meta' needs 'io.modelcontextprotocol/clientCapabilities' (an object)"
        ),
        (
            ["_meta": ["io.modelcontextprotocol/protocolVersion": 20260728, "io.modelcontextprotocol/clientCapabilities": [:]]] as Value,
            "Invalid params: '_meta' needs 'io.modelcontextprotocol/protocolVersion' (a string)"
        ),
        (
            [
                "_meta": [
                    "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": [:],
                    "io.modelcontextprotocol/clientInfo": "me",
                ]
            ] as Value,
            "Invalid params: '_meta' member 'io.modelcontextprotocol/clientInfo' must be an object"
        ),
    ])
    func malformedMetaIsInvalidParams(params: Value, message: String) async throws {
        let harness = ServerHarness()
        let reply = try await harness.call(1, "server/discover", params)
        #expect(reply["error"] == ["code": -32602, "message": .string(message)])
        await harness.finish()
    }

    @Test func anUnsupportedVersionListsTheSupportedOnes() async throws {
        let harness = ServerHarness()
        for (id, version) in [(1, "1900-01-01"), (2, "2025-11-25")] {
            let reply = try await harness.call(id, "tools/list", ["_meta": Self.meta(version: .string(version))])
            #expect(
                reply["error"]
                    == [
                        "code": -32022, "message": "Unsupported protocol version",
                        "data": ["supported": ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26"], "requested": .string(version)],
                    ])
        }
        await harness.finish()
    }

    @Test func resultsCarryResultTypeAndServerInfo() async throws {
        let harness = ServerHarness()
        let list = try await harness.call(1, "tools/list", ["_meta": Self.meta()])
        #expect(list["result"]?["resultType"] == "complete")
        #expect(list["result"]?["ttlMs"] == 0)
        #expect(list["result"]?["_meta"] == Self.serverMeta)
        #expect(list["result"]?["tools"]?.arrayValue?.count == 5)
        let call = try await harness.call(
            2, "tools/call", ["name": "demo.echo", "arguments": ["text": "hey"], "_meta": Self.meta()])
        #expect(
            call["result"]
                == [
                    "content": [["type": "text", "text": #"{"text":"hey"}"#]], "structuredContent": ["text": "hey"], "isError": false,
                    "resultType": "complete", "_meta": Self.serverMeta,
                ])
        let unknown = try await harness.call(3, "tools/call", ["name": "nope", "_meta": Self.meta()])
        #expect(unknown["error"]?["code"] == -32602)
        let ping = try await harness.call(4, "ping", ["_meta": Self.meta()])
        #expect(ping["error"]?["code"] == -32601)
        await harness.finish()
    }

    @Test func statelessRequestsWorkBesideAnInitializedSession() async throws {
        let harness = try await ServerHarness.initialized("2025-06-18")
        let modern = try await harness.call(2, "tools/list", ["_meta": Self.meta()])
        #expect(modern["result"]?["resultType"] == "complete")
        let legacy = try await harness.call(3, "tools/list")
        #expect(legacy["result"]?["resultType"] == nil)
        await harness.finish()
    }

    @Test func confirmationWithoutElicitationIsAMissingCapability() async throws {
        let harness = ServerHarness()
        let reply = try await harness.call(
            1, "tools/call", ["name": "demo.add_note", "arguments": ["title": "milk"], "_meta": Self.meta()])
        #expect(
            reply["error"]
                == [
                    "code": -32021,
                    "message": "'demo.add_note' needs confirmation; start the server with --yes to allow it, or declare the elicitation capability",
                    "data": ["requiredCapabilities": ["elicitation": ["form": [:]]]],
                ])
        #expect(harness.recordedEvents.isEmpty)
        await harness.finish()
    }

    @Test func confirmationIsAnInputRequiredRoundTrip() async throws {
        let harness = ServerHarness()
        let params: ValueObject = ["name": "demo.add_note", "arguments": ["title": "milk"], "_meta": Self.meta(Self.elicitation)]
        let first = try await harness.call(1, "tools/call", .object(params))
        let result = try #require(first["result"])
        #expect(result["resultType"] == "input_required")
        #expect(result["inputRequests"]?["confirm"]?["method"] == "elicitation/create")
        #expect(result["inputRequests"]?["confirm"]?["params"]?["message"] == #"Run demo.add_note with title: "milk""#)
        let state = try #require(result["requestState"]?.stringValue)
        #expect(harness.recordedEvents.isEmpty)

        var declined = params
        declined["inputResponses"] = ["confirm": ["action": "decline"]]
        declined["requestState"] = .string(state)
        let no = try await harness.call(2, "tools/call", .object(declined))
        #expect(no["result"]?["isError"] == true)
        #expect(no["result"]?["resultType"] == "complete")
        #expect(no["result"]?["content"]?[0]?["text"] == "'demo.add_note' was not approved; nothing ran")

        var otherCall = params
        otherCall["arguments"] = ["title": "bread"]
        otherCall["inputResponses"] = ["confirm": ["action": "accept", "content": ["confirm": true]]]
        otherCall["requestState"] = .string(state)
        let replayed = try await harness.call(3, "tools/call", .object(otherCall))
        #expect(replayed["result"]?["resultType"] == "input_required")
        #expect(harness.recordedEvents.isEmpty)

        var accepted = params
        accepted["inputResponses"] = ["confirm": ["action": "accept", "content": ["confirm": true]]]
        accepted["requestState"] = .string(state)
        let yes = try await harness.call(4, "tools/call", .object(accepted))
        #expect(yes["result"]?["structuredContent"] == ["id": 1, "title": "milk"])
        #expect(harness.recordedEvents == ["ran demo.add_note"])
        await harness.finish()
    }

    @Test func progressTokenFromMeta() async throws {
        let harness = ServerHarness()
        let reply = try await harness.call(
            1, "tools/call", ["name": "demo.count", "arguments": ["to": 2, "delay_ms": 1], "_meta": Self.meta(progress: "t")])
        #expect(reply["result"]?["structuredContent"] == ["counted": 2])
        #expect(await harness.notifications.compactMap { $0["params"]?["progressToken"] } == ["t", "t"])
        await harness.finish()
    }
}
