public import Foundation

/// Sends HTTP requests: the network port of the web skills (`SkillEnvironment.http`) and of the model
/// client. The real one is `SystemHTTPClient` in SkillbookSystem (libcurl loaded on first use on Linux, URLSession on Apple's systems).
///
/// A conformer must:
/// - return a response for every HTTP status (a 404 or 500 is a response, not an error);
/// - follow redirects (301, 302, 303, 307, 308 with a `Location`) itself, at most
///   `request.maxRedirects` of them (with 0, a redirect is returned as the response), and report
///   the final address in `HTTPResponse.url`; a 303, and
///   a 301/302 after a POST, continue as a GET without a body; a redirect to another origin drops
///   the `Authorization` and `Cookie` headers; a redirect to anything but http or https fails;
/// - read at most `request.maxBodyBytes` of the body and then stop reading, setting `truncated`
///   when the body was longer;
/// - give up after `request.timeout` seconds for the whole exchange, redirects included, with
///   `HTTPClientError.Kind.timedOut`;
/// - stop promptly when the calling task is cancelled, throwing `CancellationError`.
public protocol HTTPClient: Sendable {
    func send(_ request: HTTPRequest) async throws -> HTTPResponse
}

public struct HTTPHeader: Sendable, Hashable {
    public var name: String
    public var value: String

    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}

public struct HTTPRequest: Sendable {
    public static let defaultMaxBodyBytes = 5 << 20

    public var url: URL
    /// `GET`, `POST`, … in upper case.
    public var method: String
    public var headers: [HTTPHeader]
    public var body: Data?
    /// Seconds for the whole exchange, redirects included.
    public var timeout: Double
    public var maxBodyBytes: Int
    public var maxRedirects: Int

    public init(
        url: URL, method: String = "GET", headers: [HTTPHeader] = [], body: Data? = nil, timeout: Double = 30,
        maxBodyBytes: Int = defaultMaxBodyBytes, maxRedirects: Int = 5
    ) {
        self.url = url
        self.method = method
        self.headers = headers
        self.body = body
        self.timeout = timeout
        self.maxBodyBytes = maxBodyBytes
        self.maxRedirects = maxRedirects
    }

    /// The first value of a header, matched without regard to case.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}

public struct HTTPResponse: Sendable {
    public var status: Int
    /// Header fields with lower-case names, sorted by name; repeated fields joined with `, `.
    public var headers: [HTTPHeader]
    /// At most the request's `maxBodyBytes`.
    public var body: Data
    /// The body was longer than what was read.
    public var truncated: Bool
    /// The address of the final response, after redirects.
    public var url: URL

    public init(status: Int, headers: [HTTPHeader], body: Data, truncated: Bool, url: URL) {
        self.status = status
        self.headers = headers
        self.body = body
        self.truncated = truncated
        self.url = url
    }

    /// A header's value, matched without regard to case.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// `status` with its reason phrase: `404 Not Found`.
    public var statusLine: String {
        let reason = HTTPStatus.reason(status)
        return reason.isEmpty ? String(status) : "\(status) \(reason)"
    }

    public var isSuccess: Bool { (200..<300).contains(status) }
}

/// Why an exchange failed without a response: `fetching http://… timed out after 2s`.
public struct HTTPClientError: Error, Sendable, CustomStringConvertible, Equatable {
    public enum Kind: Sendable, Equatable {
        case timedOut
        case tooManyRedirects
        case unsupportedRedirect
        /// Could not connect, resolve the host, complete TLS, …
        case transport
    }

    public var kind: Kind
    /// The request, as messages start: `fetching http://…`, `POST http://…`.
    public var subject: String
    /// What happened to it: `timed out after 2s`, `failed: cannot connect to …`.
    public var reason: String

    public init(_ kind: Kind, subject: String, reason: String) {
        self.kind = kind
        self.subject = subject
        self.reason = reason
    }

    public var message: String { subject.isEmpty ? reason : "\(subject) \(reason)" }
    public var description: String { message }
}

/// Reason phrases of the common HTTP statuses.
public enum HTTPStatus {
    public static func reason(_ status: Int) -> String {
        switch status {
        case 100: "Continue"
        case 101: "Switching Protocols"
        case 200: "OK"
        case 201: "Created"
        case 202: "Accepted"
        case 203: "Non-Authoritative Information"
        case 204: "No Content"
        case 205: "Reset Content"
        case 206: "Partial Content"
        case 300: "Multiple Choices"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 303: "See Other"
        case 304: "Not Modified"
        case 307: "Temporary Redirect"
        case 308: "Permanent Redirect"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 402: "Payment Required"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 406: "Not Acceptable"
        case 407: "Proxy Authentication Required"
        case 408: "Request Timeout"
        case 409: "Conflict"
        case 410: "Gone"
        case 411: "Length Required"
        case 412: "Precondition Failed"
        case 413: "Content Too Large"
        case 414: "URI Too Long"
        case 415: "Unsupported Media Type"
        case 416: "Range Not Satisfiable"
        case 418: "I'm a teapot"
        case 422: "Unprocessable Content"
        case 425: "Too Early"
        case 426: "Upgrade Required"
        case 428: "Precondition Required"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 451: "Unavailable For Legal Reasons"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        case 505: "HTTP Version Not Supported"
        default: ""
        }
    }
}
