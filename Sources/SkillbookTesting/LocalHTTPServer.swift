import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A real HTTP/1.1 server on 127.0.0.1 (a free port chosen by the system), for tests of code that
/// talks HTTP: each path answers with a canned `Response` or a handler, every request is recorded,
/// and responses can be delayed, redirected, chunked or very large (generated, not held in memory).
///
/// One request per connection (`Connection: close`); each connection is served on its own thread,
/// so a delayed response does not hold up the others. `stop()` (or `withLocalHTTPServer`) closes
/// the listening socket and every open connection; a delayed response stops waiting.
public final class LocalHTTPServer: Sendable {
    /// A request as the server received it.
    public struct Request: Sendable {
        public var method: String
        /// The request target as sent: path and query.
        public var target: String
        /// Header fields in the order received, names as sent.
        public var headers: [(name: String, value: String)]
        public var body: [UInt8]

        /// The path without the query.
        public var path: String { String(target.prefix { $0 != "?" }) }
        /// The first value of a header, matched without regard to case.
        public func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }
        /// The body as UTF-8 text.
        public var text: String { String(decoding: body, as: UTF8.self) }
    }

    /// What the server answers.
    public struct Response: Sendable {
        public enum Body: Sendable {
            case bytes([UInt8])
            /// `after` (a page's head, say), then `pattern` repeated until `count` bytes in all were
            /// sent; generated while sending, never held whole.
            case repeating([UInt8], count: Int, after: [UInt8] = [])
        }

        public var status: Int
        public var headers: [(name: String, value: String)]
        public var body: Body
        /// Seconds to wait before sending anything (for timeouts).
        public var delay: Double
        /// Seconds to wait between the header and the body.
        public var bodyDelay: Double
        /// Send the body with `Transfer-Encoding: chunked` instead of a `Content-Length`.
        public var chunked: Bool

        public init(
            status: Int = 200, headers: [(name: String, value: String)] = [], body: Body = .bytes([]),
            delay: Double = 0, bodyDelay: Double = 0, chunked: Bool = false
        ) {
            self.status = status
            self.headers = headers
            self.body = body
            self.delay = delay
            self.bodyDelay = bodyDelay
            self.chunked = chunked
        }

        /// An HTML page; `charset: nil` leaves the charset out of the Content-Type.
        public static func html(_ text: String, status: Int = 200, charset: String? = "utf-8") -> Response {
            bytes(Array(text.utf8), status: status, contentType: "text/html" + (charset.map { "; charset=\($0)" } ?? ""))
        }

        public static func text(_ text: String, status: Int = 200, contentType: String = "text/plain; charset=utf-8")
            -> Response
        {
            bytes(Array(text.utf8), status: status, contentType: contentType)
        }

        public static func bytes(_ bytes: [UInt8], status: Int = 200, contentType: String?) -> Response {
            Response(
                status: status, headers: contentType.map { [("Content-Type", $0)] } ?? [], body: .bytes(bytes))
        }

        /// A redirect to `location` (absolute or relative, sent as given).
        public static func redirect(to location: String, status: Int = 302) -> Response {
            Response(status: status, headers: [("Location", location)], body: .bytes(Array("moved".utf8)))
        }

        public static func status(_ status: Int, _ text: String = "") -> Response {
            .text(text, status: status)
        }

        public func delayed(by seconds: Double) -> Response {
            var copy = self
            copy.delay = seconds
            return copy
        }

        public func adding(header name: String, _ value: String) -> Response {
            var copy = self
            copy.headers.append((name, value))
            return copy
        }

        var bodyCount: Int {
            switch body {
            case .bytes(let bytes): bytes.count
            case .repeating(_, let count, _): count
            }
        }
    }

    public typealias Handler = @Sendable (Request) -> Response

    private struct State {
        var routes: [String: Handler] = [:]
        var requests: [Request] = []
        var connections: Set<Int32> = []
        var stopped = false
    }

    public let port: Int
    private let listener: Int32
    private let state = Mutex(State())

    /// Starts listening on 127.0.0.1 at once.
    public init(routes: [String: Response] = [:]) throws {
        let fd = socket(AF_INET, Self.streamType, 0)
        guard fd >= 0 else { throw ServerError("socket: \(Self.lastError())") }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr = in_addr(s_addr: inet_addr("127.0.0.1"))
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 128) == 0 else {
            let message = Self.lastError()
            close(fd)
            throw ServerError("bind/listen on 127.0.0.1: \(message)")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        listener = fd
        for (path, response) in routes { route(path, response) }
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "LocalHTTPServer.accept"
        thread.start()
    }

    /// `http://127.0.0.1:PORT`.
    public var baseURL: String { "http://127.0.0.1:\(port)" }

    /// `http://127.0.0.1:PORT` followed by `path` (which starts with `/`).
    public func url(_ path: String) -> String { baseURL + path }

    /// Answers requests for `path` (matched without the query) with `response`.
    public func route(_ path: String, _ response: Response) {
        route(path) { _ in response }
    }

    public func route(_ path: String, _ handler: @escaping Handler) {
        state.withLock { $0.routes[path] = handler }
    }

    /// Every request received so far, in order.
    public var requests: [Request] { state.withLock { $0.requests } }

    /// Stops accepting, closes every open connection; idempotent.
    ///
    /// Descriptors are only shut down here; each is closed by the thread that uses it, so that a
    /// number freed by `close` and reused by another socket (another test's) is never touched.
    public func stop() {
        state.withLock { state in
            guard !state.stopped else { return }
            state.stopped = true
            shutdown(listener, Int32(SHUT_RDWR))
            // Connections leave the set before their thread closes them, so these are all open.
            for fd in state.connections { shutdown(fd, Int32(SHUT_RDWR)) }
        }
    }

    private var isStopped: Bool { state.withLock { $0.stopped } }

    private func acceptLoop() {
        defer { close(listener) }
        while true {
            let fd = accept(listener, nil, nil)
            if fd < 0 {
                if errno == EINTR && !isStopped { continue }
                return
            }
            let accepted = state.withLock { state -> Bool in
                guard !state.stopped else { return false }
                state.connections.insert(fd)
                return true
            }
            guard accepted else {
                close(fd)
                return
            }
            let thread = Thread { [self] in
                serve(fd)
                state.withLock { _ = $0.connections.remove(fd) }
                close(fd)
            }
            thread.name = "LocalHTTPServer.connection"
            thread.start()
        }
    }

    private func serve(_ fd: Int32) {
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var connection = Connection(fd: fd)
        guard let request = connection.readRequest() else { return }
        let handler = state.withLock { state -> Handler? in
            state.requests.append(request)
            return state.routes[request.path]
        }
        let response = handler?(request) ?? .status(404, "no route for \(request.path)")
        guard pause(response.delay) else { return }
        var head = "HTTP/1.1 \(response.status) \(Self.reason(response.status))\r\n"
        let declares = Set(response.headers.map { $0.name.lowercased() })
        for (name, value) in response.headers { head += "\(name): \(value)\r\n" }
        if response.chunked {
            head += "Transfer-Encoding: chunked\r\n"
        } else if !declares.contains("content-length") {
            head += "Content-Length: \(response.bodyCount)\r\n"
        }
        head += "Connection: close\r\n\r\n"
        guard connection.send(Array(head.utf8)), request.method != "HEAD", pause(response.bodyDelay) else { return }
        let piece = 64 * 1024
        var sent = 0
        var pattern: [UInt8] = []
        var bytes: [UInt8] = []
        switch response.body {
        case .bytes(let all): bytes = all
        case .repeating(let repeated, _, let head):
            bytes = head
            pattern = repeated.isEmpty ? [0x20] : repeated
        }
        var buffer = [UInt8]()
        buffer.reserveCapacity(piece + pattern.count)
        while sent < response.bodyCount {
            let size = min(piece, response.bodyCount - sent)
            let chunk: ArraySlice<UInt8>
            if pattern.isEmpty {
                chunk = bytes[sent..<(sent + size)]
            } else {
                buffer.removeAll(keepingCapacity: true)
                if sent < bytes.count { buffer.append(contentsOf: bytes[sent..<min(bytes.count, sent + size)]) }
                var offset = max(0, sent + buffer.count - bytes.count) % pattern.count
                while buffer.count < size {
                    let take = min(pattern.count - offset, size - buffer.count)
                    buffer.append(contentsOf: pattern[offset..<(offset + take)])
                    offset = 0
                }
                chunk = buffer[...]
            }
            let framed = response.chunked ? Array("\(String(size, radix: 16))\r\n".utf8) + chunk + Array("\r\n".utf8) : Array(chunk)
            guard !isStopped, connection.send(framed) else { return }
            sent += size
        }
        if response.chunked { _ = connection.send(Array("0\r\n\r\n".utf8)) }
    }

    /// Waits `seconds` in small steps; false when the server stopped meanwhile.
    private func pause(_ seconds: Double) -> Bool {
        var left = seconds
        while left > 0 {
            if isStopped { return false }
            let step = min(left, 0.01)
            usleep(UInt32(step * 1_000_000))
            left -= step
        }
        return !isStopped
    }

    static func reason(_ status: Int) -> String {
        switch status {
        case 100: "Continue"
        case 200: "OK"
        case 201: "Created"
        case 204: "No Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 303: "See Other"
        case 304: "Not Modified"
        case 307: "Temporary Redirect"
        case 308: "Permanent Redirect"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 410: "Gone"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        default: "Status"
        }
    }

    #if canImport(Glibc) || canImport(Musl)
        private static let streamType = Int32(SOCK_STREAM.rawValue)
        private static let sendFlags = Int32(MSG_NOSIGNAL)
    #else
        private static let streamType = SOCK_STREAM
        private static let sendFlags: Int32 = 0
    #endif

    static func lastError() -> String { String(cString: strerror(errno)) }

    /// One client connection: buffered reading of the request, writing without SIGPIPE.
    private struct Connection {
        let fd: Int32
        var buffer: [UInt8] = []

        init(fd: Int32) {
            self.fd = fd
            #if canImport(Darwin)
                var yes: Int32 = 1
                setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &yes, socklen_t(MemoryLayout<Int32>.size))
            #endif
        }

        /// Reads more bytes into `buffer`; false at the end or on an error.
        mutating func fill() -> Bool {
            var chunk = [UInt8](repeating: 0, count: 16 * 1024)
            while true {
                let got = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                if got < 0 && errno == EINTR { continue }
                guard got > 0 else { return false }
                buffer.append(contentsOf: chunk[0..<got])
                return true
            }
        }

        func send(_ bytes: [UInt8]) -> Bool {
            var offset = 0
            while offset < bytes.count {
                let wrote = bytes.withUnsafeBytes {
                    sendRaw(fd, $0.baseAddress! + offset, $0.count - offset)
                }
                if wrote < 0 && errno == EINTR { continue }
                guard wrote > 0 else { return false }
                offset += wrote
            }
            return true
        }

        private func sendRaw(_ fd: Int32, _ pointer: UnsafeRawPointer, _ count: Int) -> Int {
            #if canImport(Glibc) || canImport(Musl)
                Glibc.send(fd, pointer, count, LocalHTTPServer.sendFlags)
            #else
                Darwin.send(fd, pointer, count, LocalHTTPServer.sendFlags)
            #endif
        }

        /// Reads up to the end of a line (CRLF or LF), without it.
        mutating func line(limit: Int = 64 * 1024) -> String? {
            while true {
                if let newline = buffer.firstIndex(of: 0x0A) {
                    var end = newline
                    if end > 0 && buffer[end - 1] == 0x0D { end -= 1 }
                    let text = String(decoding: buffer[0..<end], as: UTF8.self)
                    buffer.removeSubrange(0...newline)
                    return text
                }
                guard buffer.count < limit, fill() else { return nil }
            }
        }

        mutating func bytes(_ count: Int) -> [UInt8]? {
            while buffer.count < count {
                guard fill() else { return nil }
            }
            defer { buffer.removeSubrange(0..<count) }
            return Array(buffer[0..<count])
        }

        mutating func readRequest() -> Request? {
            guard let requestLine = line() else { return nil }
            let parts = requestLine.split(separator: " ")
            guard parts.count >= 2 else { return nil }
            var headers: [(name: String, value: String)] = []
            while let header = line() {
                if header.isEmpty { break }
                guard let colon = header.firstIndex(of: ":") else { continue }
                headers.append(
                    (String(header[..<colon]), String(header[header.index(after: colon)...]).trimmingCharacters(in: .whitespaces)))
            }
            var request = Request(method: String(parts[0]), target: String(parts[1]), headers: headers, body: [])
            if request.header("expect")?.lowercased() == "100-continue" {
                _ = send(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8))
            }
            if request.header("transfer-encoding")?.lowercased().contains("chunked") == true {
                while let sizeLine = line(), let size = Int(sizeLine.prefix { $0 != ";" }.trimmingCharacters(in: .whitespaces), radix: 16) {
                    if size == 0 {
                        while let trailer = line(), !trailer.isEmpty {}
                        break
                    }
                    guard let chunk = bytes(size) else { return nil }
                    request.body += chunk
                    _ = line()
                }
            } else if let length = request.header("content-length").flatMap({ Int($0) }), length > 0 {
                guard let body = bytes(length) else { return nil }
                request.body = body
            }
            return request
        }
    }

    struct ServerError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}

/// Runs `body` with a fresh server, stopped afterwards.
public func withLocalHTTPServer<T>(
    routes: [String: LocalHTTPServer.Response] = [:], _ body: (LocalHTTPServer) async throws -> T
) async throws -> T {
    let server = try LocalHTTPServer(routes: routes)
    defer { server.stop() }
    return try await body(server)
}

/// A port on 127.0.0.1 where nothing listens: port 1 (tcpmux, unused; the tests' servers take
/// ports the system hands out, never below 1024). A port freed a moment ago would not do: in a
/// parallel run another test's server may take it and answer.
public func closedPort() throws -> Int { 1 }
