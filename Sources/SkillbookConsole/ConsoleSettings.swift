import Foundation

/// How `skillbook serve` listens and who may come in.
public struct ConsoleSettings: Sendable {
    /// An IPv4 or IPv6 literal; loopback unless the user said otherwise.
    public var address: String
    /// 0: any free port (tests).
    public var port: Int
    /// The login token. A generated one works once (the URL printed at start); one read from a
    /// token file keeps working, for a console reached from another machine.
    public var token: String
    public var tokenIsReusable: Bool
    public var limits: ServerLimits
    /// How often the journal is read for runs of other processes (seconds).
    public var pollInterval: Double
    /// The same process fires the workspace's schedules (`serve --schedules`): the Schedules page says so.
    public var firesSchedules = false
    /// The URL browsers use, such as `https://skillbook.example.org` behind a TLS reverse proxy: its
    /// host[:port] is an allowed Host, its origin an allowed Origin, and the login URL is printed with it.
    public var publicURL: PublicURL?
    /// A session unused this long (seconds) ends; also the cookie's Max-Age. Default 12 hours.
    public var sessionIdle: Double = 12 * 3600
    /// At most this many sessions are kept; a login past it ends the least recently used one.
    public var maxSessions = 256
    /// After `loginFailures` failed logins within `loginWindow` seconds, every login answers 429
    /// until that window ends (for the whole server).
    public var loginFailures = 5
    public var loginWindow: Double = 60

    public init(
        address: String = "127.0.0.1", port: Int = 8600, token: String = ConsoleSettings.newToken(), tokenIsReusable: Bool = false,
        limits: ServerLimits = ServerLimits(), pollInterval: Double = 1
    ) {
        self.address = address
        self.port = port
        self.token = token
        self.tokenIsReusable = tokenIsReusable
        self.limits = limits
        self.pollInterval = pollInterval
    }

    /// 32 random bytes as hex.
    public static func newToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
    }

    /// Whether `address` is a loopback address (127.0.0.0/8 or ::1).
    public static func isLoopback(_ address: String) -> Bool {
        address.hasPrefix("127.") || address == "::1" || address == "0:0:0:0:0:0:0:1"
    }

    /// The smallest length of a reusable (token-file) token.
    public static let minimumTokenLength = 32

    /// `127.0.0.1:8600`, `[::1]:8600`, `localhost:8600` → (address, port); `nil` when it is no such thing.
    public static func parseListen(_ text: String) -> (address: String, port: Int)? {
        var host: Substring
        var portText: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            host = text[text.index(after: text.startIndex)..<close]
            let rest = text[text.index(after: close)...]
            guard rest.hasPrefix(":") else { return nil }
            portText = rest.dropFirst()
        } else {
            guard let colon = text.lastIndex(of: ":") else { return nil }
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
        }
        guard let port = Int(portText), (0...65535).contains(port), !host.isEmpty else { return nil }
        if host == "localhost" { host = "127.0.0.1" }
        return (String(host), port)
    }
}

/// The URL browsers reach the console at (`--public-url`): http or https, a host, maybe a port, no path.
public struct PublicURL: Sendable, Equatable {
    /// `https://skillbook.example.org` or `http://myhost:8600`: what a browser sends as Origin.
    public let origin: String
    /// `skillbook.example.org` or `myhost:8600`: what a browser sends as Host (no default port).
    public let host: String
    public let isHTTPS: Bool

    /// `nil` unless `text` is `http(s)://HOST[:PORT][/]` with nothing else.
    public init?(_ text: String) {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            scheme == "http" || scheme == "https", var name = components.host?.lowercased(), !name.isEmpty,
            components.user == nil, components.password == nil, components.query == nil, components.fragment == nil,
            components.path.isEmpty || components.path == "/"
        else { return nil }
        if name.contains(":") && !name.hasPrefix("[") { name = "[\(name)]" }
        let defaultPort = scheme == "https" ? 443 : 80
        if let port = components.port, port != defaultPort {
            guard (1...65535).contains(port) else { return nil }
            host = "\(name):\(port)"
        } else {
            host = name
        }
        origin = "\(scheme)://\(host)"
        isHTTPS = scheme == "https"
    }
}
