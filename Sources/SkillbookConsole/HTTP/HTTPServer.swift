import Foundation
import Synchronization
internal import CMicroHTTPD

/// Why the server could not start.
public struct HTTPServerError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}

/// A small HTTP/1.1 server over GNU libmicrohttpd (loaded on first use): every complete request
/// goes to one async handler, whose response is sent back. libmicrohttpd parses the requests; its
/// limits (header and body size, idle time) answer before the handler is asked.
///
/// Each connection has a thread of its own (libmicrohttpd's), on which its handler runs (as the
/// task's executor: the server answers even when the cooperative pool is busy); a streamed body is
/// written from that thread as bytes arrive.
/// `stop()` closes the listening socket, ends every stream, and waits for the connections to end.
public final class HTTPServer: Sendable {
    public typealias Handler = @Sendable (ServerRequest) async -> ServerResponse

    /// `address` as the host part of a URL or `ADDRESS:PORT`: an IPv6 address in brackets.
    static func hostText(_ address: String) -> String {
        address.contains(":") ? "[\(address)]" : address
    }

    /// What the C callbacks reach through their context pointer.
    final class Context: Sendable {
        let handler: Handler
        let limits: ServerLimits
        let streams = Mutex<[ObjectIdentifier: ResponseStream]>([:])
        let stopping = Atomic(false)

        init(handler: @escaping Handler, limits: ServerLimits) {
            self.handler = handler
            self.limits = limits
        }
    }

    private struct Running: @unchecked Sendable {
        var server: OpaquePointer
    }

    private let context: Context
    private let running = Mutex<Running?>(nil)
    public let address: String
    /// The port it listens on (the one given, or the one the system chose for 0).
    public let port: Int

    /// Starts listening on `address` (an IPv4 or IPv6 literal) and `port` (0: any free port).
    public init(address: String, port: Int, limits: ServerLimits = ServerLimits(), handler: @escaping Handler) throws(HTTPServerError) {
        guard (0...65535).contains(port) else { throw HTTPServerError(message: "port \(port) is out of range") }
        let context = Context(handler: handler, limits: limits)
        self.context = context
        self.address = address
        let cLimits = skb_mhd_limits(
            max_body_bytes: limits.maxBodyBytes, connection_memory_bytes: limits.maxHeaderBytes,
            idle_timeout_seconds: UInt32(limits.idleTimeout), max_connections: UInt32(limits.maxConnections))
        var problem: UnsafePointer<CChar>?
        let unmanaged = Unmanaged.passRetained(context)
        guard let server = skb_mhd_start(address, UInt16(port), cLimits, handleRequest, unmanaged.toOpaque(), &problem) else {
            unmanaged.release()
            throw HTTPServerError(message: problem.map { String(cString: $0) } ?? "cannot start the HTTP server")
        }
        self.port = Int(skb_mhd_port(server))
        running.withLock { $0 = Running(server: server) }
    }

    /// Stops accepting connections at once; requests in flight go on.
    public func stopAccepting() {
        running.withLock { running in
            if let server = running?.server { skb_mhd_quiesce(server) }
        }
    }

    /// Stops accepting, finishes every stream, and returns once every connection has ended. Blocks.
    public func stop() {
        guard let server = running.withLock({ running -> OpaquePointer? in
            defer { running = nil }
            return running?.server
        }) else { return }
        skb_mhd_quiesce(server)
        context.stopping.store(true, ordering: .sequentiallyConsistent)
        for stream in context.streams.withLock({ Array($0.values) }) { stream.finish() }
        skb_mhd_stop(server)
        Unmanaged.passUnretained(context).release()
    }

    deinit {
        stop()
    }
}

/// Reads one request out of libmicrohttpd and runs the handler, waiting for its answer.
private func handleRequest(_ pointer: UnsafeMutableRawPointer?, _ request: OpaquePointer?) {
    guard let pointer, let request else { return }
    let context = Unmanaged<HTTPServer.Context>.fromOpaque(pointer).takeUnretainedValue()
    let parsed = ServerRequest(
        method: String(cString: skb_mhd_method(request)), path: String(cString: skb_mhd_path(request)),
        query: values(request, Int32(SKB_MHD_ARGUMENTS), lowercased: false), headers: values(request, Int32(SKB_MHD_HEADERS), lowercased: true),
        cookies: values(request, Int32(SKB_MHD_COOKIES), lowercased: false), body: body(request))
    let response: ServerResponse
    if context.stopping.load(ordering: .sequentiallyConsistent) {
        response = ServerResponse(status: 503, contentType: "application/json", text: #"{"error":"the server is stopping"}"#)
    } else {
        response = wait(for: parsed, context: context)
    }
    skb_mhd_set_status(request, UInt32(response.status))
    for header in response.headers { skb_mhd_add_header(request, header.name, header.value) }
    switch response.body {
    case .bytes(let data):
        data.withUnsafeBytes { buffer in
            skb_mhd_set_body(request, buffer.baseAddress?.assumingMemoryBound(to: CChar.self), buffer.count)
        }
    case .stream(let stream):
        let key = ObjectIdentifier(stream)
        context.streams.withLock { $0[key] = stream }
        stream.onClose { [weak context] in _ = context?.streams.withLock { $0.removeValue(forKey: key) } }
        skb_mhd_set_stream(request, readStream, Unmanaged.passRetained(stream).toOpaque(), releaseStream)
    }
}

/// Runs the handler on this (libmicrohttpd's) thread as its task executor, at most the handler
/// time limit; past it the request is answered 503 and the handler cancelled.
private func wait(for request: ServerRequest, context: HTTPServer.Context) -> ServerResponse {
    let answer = Mutex<ServerResponse?>(nil)
    let handler = context.handler
    let executor = ConnectionExecutor()
    let task = Task(executorPreference: executor) {
        let response = await handler(request)
        answer.withLock { $0 = response }
    }
    let finished = executor.drain(until: .now() + context.limits.handlerTimeout) { answer.withLock { $0 != nil } }
    if !finished {
        task.cancel()
        return ServerResponse(status: 503, contentType: "application/json", text: #"{"error":"the request took too long"}"#)
    }
    return answer.withLock { $0 } ?? ServerResponse(status: 500)
}

private final class ValueBox {
    var values: [String: String] = [:]
    var lowercased = false
}

private func values(_ request: OpaquePointer, _ kind: Int32, lowercased: Bool) -> [String: String] {
    let box = ValueBox()
    box.lowercased = lowercased
    withExtendedLifetime(box) {
        skb_mhd_values(request, kind, { pointer, key, value in
            guard let pointer, let key else { return }
            let box = Unmanaged<ValueBox>.fromOpaque(pointer).takeUnretainedValue()
            let name = String(cString: key)
            box.values[box.lowercased ? name.lowercased() : name] = value.map { String(cString: $0) } ?? ""
        }, Unmanaged.passUnretained(box).toOpaque())
    }
    return box.values
}

private func body(_ request: OpaquePointer) -> Data {
    var length = 0
    guard let bytes = skb_mhd_body(request, &length), length > 0 else { return Data() }
    return Data(bytes: bytes, count: length)
}

private func readStream(_ pointer: UnsafeMutableRawPointer?, _ buffer: UnsafeMutablePointer<CChar>?, _ max: Int) -> Int {
    guard let pointer, let buffer else { return -1 }
    let stream = Unmanaged<ResponseStream>.fromOpaque(pointer).takeUnretainedValue()
    guard let chunk = stream.read(max: max) else { return -1 }
    chunk.withUnsafeBytes { bytes in
        UnsafeMutableRawPointer(buffer).copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
    }
    return chunk.count
}

private func releaseStream(_ pointer: UnsafeMutableRawPointer?) {
    guard let pointer else { return }
    let stream = Unmanaged<ResponseStream>.fromOpaque(pointer).takeRetainedValue()
    stream.close()
}
