public import Foundation
public import SkillbookCore

/// One request as libmicrohttpd parsed it: its path (decoded, without the query), query
/// arguments, headers (names in lower case), cookies and body.
public struct ServerRequest: Sendable {
    public var method: String
    public var path: String
    public var query: [String: String]
    /// Names in lower case; a repeated header keeps its last value.
    public var headers: [String: String]
    public var cookies: [String: String]
    public var body: Data

    public init(
        method: String, path: String, query: [String: String] = [:], headers: [String: String] = [:], cookies: [String: String] = [:],
        body: Data = Data()
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.cookies = cookies
        self.body = body
    }

    public subscript(header name: String) -> String? { headers[name.lowercased()] }
}

/// What the handler answers: a status, headers in order, and a body of bytes or a stream.
public struct ServerResponse: Sendable {
    public enum Body: Sendable {
        case bytes(Data)
        /// Sent as it is written, until the stream finishes or the client goes (server-sent events).
        case stream(ResponseStream)
    }

    public var status: Int
    public var headers: [(name: String, value: String)]
    public var body: Body

    public init(status: Int, headers: [(name: String, value: String)] = [], body: Body = .bytes(Data())) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    public init(status: Int, contentType: String, text: String) {
        self.init(status: status, headers: [("Content-Type", contentType)], body: .bytes(Data(text.utf8)))
    }

    /// The value of the first header of that name (any case).
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }
}

/// Limits the server applies before a handler sees a request.
public struct ServerLimits: Sendable {
    /// A longer body is answered 413 unread.
    public var maxBodyBytes: Int
    /// The request line and headers of one connection must fit (libmicrohttpd refuses more).
    public var maxHeaderBytes: Int
    /// Seconds a connection may stay idle before it is closed.
    public var idleTimeout: Int
    /// Seconds a handler may take before the request is answered 503.
    public var handlerTimeout: Double
    public var maxConnections: Int

    public init(maxBodyBytes: Int = Limits.consoleBodyBytes, maxHeaderBytes: Int = Limits.consoleHeaderBytes, idleTimeout: Int = 30, handlerTimeout: Double = 30, maxConnections: Int = 128) {
        self.maxBodyBytes = maxBodyBytes
        self.maxHeaderBytes = maxHeaderBytes
        self.idleTimeout = idleTimeout
        self.handlerTimeout = handlerTimeout
        self.maxConnections = maxConnections
    }
}
