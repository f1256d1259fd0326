// fuzz-modules: Core MCP MCPTesting
import Dispatch
import Foundation
import SkillbookCore
import SkillbookMCP
import SkillbookMCPTesting
import Synchronization

/// JSON-RPC and the MCP server in this process: each line of the input is a message from a client
/// (when the first byte is odd, after a standard `initialize` and `notifications/initialized`), sent
/// to an `MCPServer` over the demo tools (`demo.count`, which sleeps, left out) until the input
/// ends. Oracles: a line that decodes as a message encodes to a line that decodes to the same
/// message (the same JSON data); everything the server writes is one JSON-RPC 2.0 message per
/// line; every request gets an answer with its id (unless the input cancels something), and no id
/// more answers than it had requests; a line that is not JSON is answered -32700 with a null id.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMCPServer(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let text = FuzzInput.text(data, count)
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    if count > 0, data[0] & 1 == 1 { lines.insert(contentsOf: FuzzMCP.handshake, at: 0) }
    var requests: [JSONRPCID: Int] = [:]
    var parseErrors = 0
    var cancels = false
    for line in lines where !line.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\r" }) {
        do {
            let message = try JSONRPCMessage.decode(line)
            // Compared as JSON data, as JSON has one kind of number: `1e2` reads as a double and
            // is written `100`, which reads back as an integer.
            let again = try? JSONRPCMessage.decode(message.line)
            check(
                again.map { SchemaValidator.equalAsData($0.value, message.value) } ?? false,
                "\(line) → \(message.line) → \(String(describing: again))")
            switch message {
            case .request(let id, _, _): requests[id, default: 0] += 1
            case .notification(let method, _): cancels = cancels || method == "notifications/cancelled"
            default: break
            }
        } catch {
            if error.error.code == -32700 { parseErrors += 1 }
        }
    }
    let transport = FuzzMCP.Transport(lines)
    let server = MCPServer(
        catalog: FuzzMCP.toolbox, runner: FuzzMCP.toolbox, configuration: MCPServerConfiguration(name: "fuzz", version: "0.1"))
    let done = DispatchSemaphore(value: 0)
    Task {
        await server.serve(transport)
        done.signal()
    }
    done.wait()
    var answers: [JSONRPCID: Int] = [:]
    var nullErrors = 0
    for line in transport.written {
        check(!line.contains("\n"), "a line with a line break: \(line)")
        guard let message = try? JSONRPCMessage.decode(line) else { fail("the server wrote \(line)") }
        switch message {
        case .result(let id, _): answers[id, default: 0] += 1
        case .error(let id?, _): answers[id, default: 0] += 1
        case .error(nil, let error): if error.code == -32700 || error.code == -32600 { nullErrors += 1 }
        case .request, .notification: break
        }
    }
    for (id, answered) in answers {
        // An invalid request with a readable id is answered with it too.
        check(answered <= (requests[id] ?? 0) + lines.count, "\(id) answered \(answered) times")
    }
    if !cancels {
        for (id, _) in requests { check(answers[id] != nil, "request \(id) was not answered\n\(lines.joined(separator: "\n"))") }
    }
    check(nullErrors >= parseErrors, "\(parseErrors) lines that are not JSON, \(nullErrors) answers with a null id")
    return 0
}

enum FuzzMCP {
    static let handshake = [
        #"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"fuzz","version":"1"}}}"#,
        #"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
    ]

    static let toolbox = SkillToolbox(skills: DemoSkills.all().filter { $0.descriptor.id != "demo.count" })

    /// The client's lines, then the end of the input; what the server writes is kept.
    final class Transport: LineTransport {
        let lines: AsyncStream<String>
        private let output = Mutex<[String]>([])

        init(_ input: [String]) {
            let (stream, continuation) = AsyncStream<String>.makeStream()
            for line in input { continuation.yield(line) }
            continuation.finish()
            lines = stream
        }

        func start() {}

        func send(_ line: String) -> Bool {
            output.withLock { $0.append(line) }
            return true
        }

        func closeOutput() {}

        var written: [String] { output.withLock { $0 } }
    }
}
