import SkillbookCore
import Testing

@testable import SkillbookMCP

@Suite struct JSONRPCMessageTests {
    @Test func readsRequestsNotificationsAndResponses() throws {
        #expect(
            try JSONRPCMessage.decode(#"{"jsonrpc":"2.0","id":7,"method":"tools/list","params":{"cursor":"a"}}"#)
                == .request(id: .int(7), method: "tools/list", params: ["cursor": "a"]))
        #expect(
            try JSONRPCMessage.decode(#"{"jsonrpc":"2.0","id":"x","method":"ping"}"#)
                == .request(id: .string("x"), method: "ping", params: nil))
        #expect(
            try JSONRPCMessage.decode(#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)
                == .notification(method: "notifications/initialized", params: nil))
        #expect(try JSONRPCMessage.decode(#"{"jsonrpc":"2.0","id":3,"result":{}}"#) == .result(id: .int(3), result: [:]))
        #expect(
            try JSONRPCMessage.decode(#"{"jsonrpc":"2.0","id":3,"error":{"code":-32601,"message":"no"}}"#)
                == .error(id: .int(3), error: JSONRPCError(code: -32601, message: "no")))
    }

    /// JSON has one kind of number: `1e2` is read as a double and written `100`, which reads back
    /// as an integer — the same data (the mcp-server fuzz harness's round-trip oracle compares so).
    @Test func aNumberKeepsItsValueThroughALine() throws {
        let message = try JSONRPCMessage.decode(#"{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"n":1e2,"x":2.5e0}}"#)
        #expect(message.line == #"{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"n":100,"x":2.5}}"#)
        let again = try JSONRPCMessage.decode(message.line)
        #expect(again == .request(id: .int(6), method: "tools/call", params: ["n": 100, "x": 2.5]))
        #expect(SchemaValidator.equalAsData(again.value, message.value))
    }

    @Test func aLineThatIsNotJSONIsAParseError() {
        #expect(throws: JSONRPCMessage.DecodingFailure.self) { try JSONRPCMessage.decode("{not json") }
        do {
            _ = try JSONRPCMessage.decode("{not json")
        } catch {
            #expect(error.id == nil)
            #expect(error.error.code == -32700)
            #expect(error.error.message == "Parse error: expected a key at offset 1")
        }
    }

    @Test(arguments: [
        (#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#, nil as JSONRPCID?, "Invalid request: batches are not supported"),
        (#"{"id":1,"method":"ping"}"#, JSONRPCID.int(1), #"Invalid request: 'jsonrpc' must be "2.0""#),
        (#"{"jsonrpc":"2.0","id":true,"method":"ping"}"#, nil, "Invalid request: 'id' must be a string or an integer"),
        (#"{"jsonrpc":"2.0","id":2,"method":5}"#, JSONRPCID.int(2), "Invalid request: 'method' must be a string"),
        (#"{"jsonrpc":"2.0","id":2,"method":"x","params":[1]}"#, JSONRPCID.int(2), "Invalid request: 'params' must be an object"),
        (#"{"jsonrpc":"2.0","id":"q"}"#, JSONRPCID.string("q"), "Invalid request: a message needs 'method', 'result' or 'error'"),
    ])
    func messagesThatAreNotJSONRPCAreInvalidRequests(line: String, id: JSONRPCID?, message: String) {
        do {
            _ = try JSONRPCMessage.decode(line)
            Issue.record("accepted \(line)")
        } catch {
            #expect(error.error.code == -32600)
            #expect(error.id == id)
            #expect(error.error.message == message)
        }
    }

    @Test func writesOneLineWithEscapedNewlines() {
        let message = JSONRPCMessage.result(id: .int(1), result: ["text": "two\nlines"])
        #expect(message.line == #"{"jsonrpc":"2.0","id":1,"result":{"text":"two\nlines"}}"#)
        #expect(!message.line.contains("\n"))
        let error = JSONRPCMessage.error(id: nil, error: .parseError("bad"))
        #expect(error.line == #"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: bad"}}"#)
    }
}
