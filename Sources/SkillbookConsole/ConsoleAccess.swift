import Foundation
import Synchronization

/// Who may use the console and how: the login token is exchanged for a session cookie (HttpOnly,
/// SameSite=Strict, named with the port so no other local server receives it), every change needs
/// the session's CSRF token, and the Host and Origin headers must name this server (no DNS
/// rebinding, no other site's page driving it). Failed logins are throttled; idle sessions end.
final class ConsoleAccess: Sendable {
    static let csrfHeader = "x-csrf-token"

    private struct Session {
        var csrf: String
        var lastUsed: ContinuousClock.Instant
    }

    private struct State {
        var tokenUsed = false
        var sessions: [String: Session] = [:]
        /// The current window of failed logins: when its first failure was, and how many.
        var failureWindowStart: ContinuousClock.Instant?
        var failures = 0
    }

    /// What a login attempt came to.
    enum Login {
        case session(String)
        case refused
        /// Too many failures: try again after this many seconds.
        case throttled(Int)
    }

    private let token: String
    private let tokenIsReusable: Bool
    private let idle: Duration
    private let maxSessions: Int
    private let failureLimit: Int
    private let window: Duration
    private let state = Mutex(State())
    /// `skillbook_session_PORT`: browsers scope cookies by host, not port.
    let cookieName: String
    /// Seconds, for the cookie's Max-Age.
    let maxAge: Int
    let secureCookie: Bool
    /// `host:port` values the Host header may carry.
    let allowedHosts: Set<String>
    /// Origins a request may come from.
    let allowedOrigins: Set<String>

    init(settings: ConsoleSettings, port: Int) {
        token = settings.token
        tokenIsReusable = settings.tokenIsReusable
        idle = .milliseconds(Int64(settings.sessionIdle * 1000))
        maxAge = max(1, Int(settings.sessionIdle.rounded(.up)))
        maxSessions = max(1, settings.maxSessions)
        failureLimit = max(1, settings.loginFailures)
        window = .milliseconds(Int64(settings.loginWindow * 1000))
        cookieName = "skillbook_session_\(port)"
        secureCookie = settings.publicURL?.isHTTPS == true
        var hosts: Set<String> = []
        let address = settings.address
        if ConsoleSettings.isLoopback(address) || address == "0.0.0.0" || address == "::" {
            hosts.formUnion(["127.0.0.1:\(port)", "localhost:\(port)", "[::1]:\(port)"])
        }
        hosts.insert("\(HTTPServer.hostText(address)):\(port)")
        var origins = Set(hosts.map { "http://\($0)" })
        if let publicURL = settings.publicURL {
            hosts.insert(publicURL.host)
            origins.insert(publicURL.origin)
        }
        allowedHosts = hosts
        allowedOrigins = origins
    }

    /// Whether the Host header names this server.
    func hostIsAllowed(_ request: ServerRequest) -> Bool {
        guard let host = request[header: "host"]?.lowercased() else { return false }
        return allowedHosts.contains(host)
    }

    /// Whether the Origin header, when there is one, is this server's, and the browser does not
    /// say the request comes from another site.
    func originIsAllowed(_ request: ServerRequest) -> Bool {
        if let site = request[header: "sec-fetch-site"], site == "cross-site" { return false }
        guard let origin = request[header: "origin"]?.lowercased() else { return true }
        return allowedOrigins.contains(origin)
    }

    /// A new session for a correct login token (a generated token works once); refused otherwise,
    /// and throttled after too many failures.
    func logIn(with offered: String) -> Login {
        let now = ContinuousClock.now
        let matches = constantTimeEqual(offered, token)
        return state.withLock { state -> Login in
            if let start = state.failureWindowStart, now - start >= window {
                state.failureWindowStart = nil
                state.failures = 0
            }
            if let start = state.failureWindowStart, state.failures >= failureLimit {
                let left = (start + window - now) / .seconds(1)
                return .throttled(max(1, Int(left.rounded(.up))))
            }
            guard matches, !(state.tokenUsed && !tokenIsReusable) else {
                if state.failureWindowStart == nil { state.failureWindowStart = now }
                state.failures += 1
                return .refused
            }
            state.tokenUsed = true
            state.sessions = state.sessions.filter { now - $0.value.lastUsed < idle }
            while state.sessions.count >= maxSessions,
                let oldest = state.sessions.min(by: { $0.value.lastUsed < $1.value.lastUsed })?.key
            {
                state.sessions[oldest] = nil
            }
            let session = ConsoleSettings.newToken()
            state.sessions[session] = Session(csrf: ConsoleSettings.newToken(), lastUsed: now)
            return .session(session)
        }
    }

    /// Ends the request's session.
    func logOut(_ request: ServerRequest) {
        guard let session = request.cookies[cookieName] else { return }
        _ = state.withLock { $0.sessions.removeValue(forKey: session) }
    }

    /// The CSRF token of the request's session (which counts as a use of it); `nil` when it has no
    /// valid session cookie, or its session was idle too long.
    func csrf(of request: ServerRequest) -> String? {
        guard let session = request.cookies[cookieName] else { return nil }
        let now = ContinuousClock.now
        return state.withLock { state -> String? in
            guard let found = state.sessions[session] else { return nil }
            guard now - found.lastUsed < idle else {
                state.sessions[session] = nil
                return nil
            }
            state.sessions[session]?.lastUsed = now
            return found.csrf
        }
    }

    /// Whether a state-changing request carries its session's CSRF token.
    func csrfIsValid(_ request: ServerRequest) -> Bool {
        guard let expected = csrf(of: request), let offered = request[header: Self.csrfHeader] else { return false }
        return constantTimeEqual(offered, expected)
    }

    func cookie(_ session: String) -> String {
        "\(cookieName)=\(session); Path=/; Max-Age=\(maxAge); HttpOnly; SameSite=Strict" + (secureCookie ? "; Secure" : "")
    }

    /// The header that makes the browser drop the cookie.
    var clearedCookie: String {
        "\(cookieName)=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict" + (secureCookie ? "; Secure" : "")
    }

    private func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8)
        let y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var difference: UInt8 = 0
        for index in x.indices { difference |= x[index] ^ y[index] }
        return difference == 0
    }
}
