import Foundation
import SkillbookCore
import SkillbookMCP
import SkillbookMCPTesting
import Synchronization
import Testing

/// A server over the demo skills in this process, and the client end of its pipes.
actor ServerHarness {
    struct Timeout: Error, CustomStringConvertible {
        let what: String
        var description: String { "timed out waiting for \(what)" }
    }

    let channel: LineChannel
    let server: Task<Void, Never>
    let events = EventLog()
    private let inbox: LineInbox
    /// Notifications received while waiting for responses.
    private(set) var notifications: [Value] = []

    init(allowsUnconfirmedCalls: Bool = false, lineLimit: Int = LineChannel.maximumLineLength) {
        let pipes = PipePair(serverLineLimit: lineLimit)
        channel = pipes.testSide
        inbox = LineInbox(channel)
        let events = self.events
        let toolbox = SkillToolbox(skills: DemoSkills.all(events: events.append), events: events.append)
        let server = MCPServer(
            catalog: toolbox, runner: toolbox,
            configuration: MCPServerConfiguration(name: "test", version: "0.1", allowsUnconfirmedCalls: allowsUnconfirmedCalls))
        self.server = Task { await server.serve(pipes.serverSide) }
    }

    /// A harness that has done the `initialize` handshake for `version`.
    static func initialized(_ version: String = "2025-11-25", capabilities: Value = [:], yes: Bool = false) async throws
        -> ServerHarness
    {
        let harness = ServerHarness(allowsUnconfirmedCalls: yes)
        let reply = try await harness.call(
            1, "initialize",
            ["protocolVersion": .string(version), "capabilities": capabilities, "clientInfo": ["name": "tests", "version": "1"]])
        #expect(reply["result"]?["protocolVersion"] != nil)
        await harness.send(#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)
        return harness
    }

    func send(_ line: String) {
        channel.send(line)
    }

    func send(_ message: Value) {
        channel.send(JSONText.encode(message))
    }

    /// The next line from the server, as JSON.
    func next(seconds: Double = 20) async throws -> Value {
        switch await inbox.next(seconds: seconds) {
        case .line(let line): return try JSONText.decode(line)
        case .ended: throw Timeout(what: "a line (the server's output ended)")
        case .timedOut: throw Timeout(what: "a line from the server")
        }
    }

    /// Whether the server's output has ended (within `seconds`) with nothing more written.
    func outputEnds(seconds: Double = 20) async -> Bool {
        if case .ended = await inbox.next(seconds: seconds) { return true }
        return false
    }

    /// Sends a request and returns its response, answering the server's requests with `answer`
    /// and keeping notifications.
    func call(
        _ id: Int, _ method: String, _ params: Value? = nil, answer: (@Sendable (String, Value) -> Value)? = nil
    ) async throws -> Value {
        var message: ValueObject = ["jsonrpc": "2.0", "id": .int(id), "method": .string(method)]
        if let params { message["params"] = params }
        send(.object(message))
        return try await response(id, answer: answer)
    }

    func response(_ id: Int, answer: (@Sendable (String, Value) -> Value)? = nil) async throws -> Value {
        while true {
            let message = try await next()
            if message["id"] == .int(id), message["method"] == nil { return message }
            if let method = message["method"]?.stringValue, let requestID = message["id"] {
                let result = answer?(method, message["params"] ?? .null) ?? ["action": "cancel"]
                send(["jsonrpc": "2.0", "id": requestID, "result": result])
            } else if message["method"] != nil {
                notifications.append(message)
            } else {
                Issue.record("unexpected message \(JSONText.encode(message))")
            }
        }
    }

    /// Closes the server's input and waits (up to `seconds`) for it to finish.
    func finish(seconds: Double = 20) async {
        channel.closeOutput()
        let server = self.server
        let ended = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let answer = FirstAnswer(continuation)
            Task { await server.value; answer.give(true) }
            Task { try? await Task.sleep(for: .seconds(seconds)); answer.give(false) }
        }
        #expect(ended, "the server did not end within \(seconds) s of its input closing")
    }

    nonisolated var recordedEvents: [String] { events.all }
}

/// What the demo skills reported, in order.
final class EventLog: Sendable {
    private let events = Mutex<[String]>([])
    @Sendable func append(_ event: String) { events.withLock { $0.append(event) } }
    var all: [String] { events.withLock { $0 } }
}

/// Resumes a continuation with the first answer given; later ones are dropped.
final class FirstAnswer: Sendable {
    private let continuation: Mutex<CheckedContinuation<Bool, Never>?>

    init(_ continuation: CheckedContinuation<Bool, Never>) { self.continuation = Mutex(continuation) }

    func give(_ answer: Bool) {
        continuation.withLock { pending in
            pending?.resume(returning: answer)
            pending = nil
        }
    }
}
