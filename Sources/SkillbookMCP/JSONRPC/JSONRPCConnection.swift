public import SkillbookCore
import Synchronization

/// A message that asks something of this side: a request (answer it with `respond`) or a notification.
public enum JSONRPCIncoming: Sendable, Hashable {
    case request(id: JSONRPCID, method: String, params: ValueObject)
    case notification(method: String, params: ValueObject)
}

/// Why a request this side sent got no result.
public enum JSONRPCConnectionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The peer's output ended (it exited or closed it) before the answer came.
    case closed
    /// No answer within the time allowed.
    case timedOut(method: String, seconds: Double)
    /// The peer wrote a line that is not a JSON-RPC message.
    case garbage(String)

    public var description: String {
        switch self {
        case .closed: "the connection closed before the answer came"
        case .timedOut(let method, let seconds): "no answer to '\(method)' within \(JSONText.number(seconds)) s"
        case .garbage(let line): "the peer wrote a line that is not JSON-RPC: \(line)"
        }
    }
}

/// JSON-RPC 2.0 over a `LineTransport`, both directions: requests this side sends are matched to
/// their responses by id; requests and notifications the peer sends go to a handler.
///
/// Semantics: `serve` reads until the input ends, then fails every request still waiting with
/// `.closed`. A line that does not parse is answered with a parse error (-32700) or an invalid
/// request error (-32600) when `answersMalformedLines` (the server role); otherwise (the client
/// role) every waiting request fails with `.garbage`; so is a line over the transport's
/// `lineLimit` (cut by the transport, its tail discarded). A response whose id matches nothing is
/// logged and dropped. The handler is called on the reading task and must not block: start a
/// task for work that takes time.
public final class JSONRPCConnection: Sendable {
    private struct State {
        var nextID = 1
        var pending: [JSONRPCID: CheckedContinuation<Value, any Error>] = [:]
        var closed = false
    }

    public let channel: any LineTransport
    private let answersMalformedLines: Bool
    private let log: @Sendable (String) -> Void
    private let state = Mutex(State())

    public init(channel: any LineTransport, answersMalformedLines: Bool, log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.channel = channel
        self.answersMalformedLines = answersMalformedLines
        self.log = log
    }

    public var isClosed: Bool { state.withLock { $0.closed } }

    /// Reads messages until the input ends.
    public func serve(_ handler: @Sendable (JSONRPCIncoming) -> Void) async {
        channel.start()
        let limit = channel.lineLimit
        for await line in channel.lines {
            let message: JSONRPCMessage
            do throws(JSONRPCMessage.DecodingFailure) {
                guard line.utf8.count <= limit else {
                    throw JSONRPCMessage.DecodingFailure(id: nil, error: .parseError("the line is longer than \(limit) bytes; it was discarded"))
                }
                message = try JSONRPCMessage.decode(line)
            } catch {
                let shown = line.count > 200 ? String(line.prefix(200)) + "…" : line
                log("unreadable message: \(error.error.message): \(shown)")
                if answersMalformedLines {
                    send(.error(id: error.id, error: error.error))
                } else {
                    failAll(JSONRPCConnectionError.garbage(shown))
                }
                continue
            }
            switch message {
            case .request(let id, let method, let params):
                handler(.request(id: id, method: method, params: params ?? [:]))
            case .notification(let method, let params):
                handler(.notification(method: method, params: params ?? [:]))
            case .result(let id, let result):
                complete(id, .success(result))
            case .error(let id, let error):
                if let id { complete(id, .failure(error)) } else { log("error response without an id: \(error.message)") }
            }
        }
        state.withLock { $0.closed = true }
        failAll(JSONRPCConnectionError.closed)
    }

    /// Sends a request and waits for its result. Throws the peer's `JSONRPCError`, a
    /// `JSONRPCConnectionError`, or `CancellationError` (after telling the peer with
    /// `notifications/cancelled`).
    public func request(_ method: String, params: ValueObject? = nil, timeout: Double? = nil) async throws -> Value {
        let id: JSONRPCID = state.withLock { state in
            defer { state.nextID += 1 }
            return .int(state.nextID)
        }
        let timer = timeout.map { seconds in
            Task {
                try await Task.sleep(for: .seconds(seconds))
                if self.complete(id, .failure(JSONRPCConnectionError.timedOut(method: method, seconds: seconds))) {
                    self.notify("notifications/cancelled", ["requestId": id.value, "reason": "timed out"])
                }
            }
        }
        defer { timer?.cancel() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, any Error>) in
                let accepted: Bool = state.withLock { state in
                    guard !state.closed else { return false }
                    state.pending[id] = continuation
                    return true
                }
                guard accepted else { return continuation.resume(throwing: JSONRPCConnectionError.closed) }
                if Task.isCancelled {
                    complete(id, .failure(CancellationError()))
                } else if !send(.request(id: id, method: method, params: params)) {
                    complete(id, .failure(JSONRPCConnectionError.closed))
                }
            }
        } onCancel: {
            if self.complete(id, .failure(CancellationError())) {
                self.notify("notifications/cancelled", ["requestId": id.value, "reason": "cancelled by the caller"])
            }
        }
    }

    public func notify(_ method: String, _ params: ValueObject? = nil) {
        send(.notification(method: method, params: params))
    }

    public func respond(_ id: JSONRPCID, result: Value) {
        send(.result(id: id, result: result))
    }

    public func respond(_ id: JSONRPCID, error: JSONRPCError) {
        send(.error(id: id, error: error))
    }

    @discardableResult
    public func send(_ message: JSONRPCMessage) -> Bool {
        channel.send(message.line)
    }

    /// Resumes the waiter of `id`, once; `false` when none was waiting.
    @discardableResult
    private func complete(_ id: JSONRPCID, _ outcome: Result<Value, any Error>) -> Bool {
        let waiter = state.withLock { $0.pending.removeValue(forKey: id) }
        guard let waiter else {
            if case .success = outcome { log("a response to \(id) that no request is waiting for") }
            return false
        }
        waiter.resume(with: outcome)
        return true
    }

    private func failAll(_ error: JSONRPCConnectionError) {
        let waiters = state.withLock { state in
            defer { state.pending.removeAll() }
            return Array(state.pending.values)
        }
        for waiter in waiters { waiter.resume(throwing: error) }
    }
}
