import Foundation
import Synchronization

/// Who may use the console and how: the login token is exchanged for a session cookie (HttpOnly,
/// SameSite=Strict), every change needs the session's CSRF token, and the Host and Origin headers
/// must name this server (no DNS rebinding, no other site's page driving it).
final class ConsoleAccess: Sendable {
    static let cookieName = "skillbook_session"
    static let csrfHeader = "x-csrf-token"

    private struct State {
        var tokenUsed = false
        /// Session id → its CSRF token.
        var sessions: [String: String] = [:]
    }

    private let token: String
    private let tokenIsReusable: Bool
    private let state = Mutex(State())
    /// `host:port` values the Host header may carry.
    let allowedHosts: Set<String>

    init(settings: ConsoleSettings, port: Int) {
        token = settings.token
        tokenIsReusable = settings.tokenIsReusable
        var hosts: Set<String> = []
        let address = settings.address
        if ConsoleSettings.isLoopback(address) || address == "0.0.0.0" || address == "::" {
            hosts.formUnion(["127.0.0.1:\(port)", "localhost:\(port)", "[::1]:\(port)"])
        }
        hosts.insert(address.contains(":") ? "[\(address)]:\(port)" : "\(address):\(port)")
        allowedHosts = hosts
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
        guard origin.hasPrefix("http://") else { return false }
        return allowedHosts.contains(String(origin.dropFirst("http://".count)))
    }

    /// A new session for a correct login token (a generated token works once); `nil` otherwise.
    func logIn(with offered: String) -> String? {
        guard constantTimeEqual(offered, token) else { return nil }
        return state.withLock { state -> String? in
            if state.tokenUsed && !tokenIsReusable { return nil }
            state.tokenUsed = true
            let session = ConsoleSettings.newToken()
            state.sessions[session] = ConsoleSettings.newToken()
            return session
        }
    }

    /// The CSRF token of the request's session; `nil` when it has no valid session cookie.
    func csrf(of request: ServerRequest) -> String? {
        guard let session = request.cookies[Self.cookieName] else { return nil }
        return state.withLock { $0.sessions[session] }
    }

    /// Whether a state-changing request carries its session's CSRF token.
    func csrfIsValid(_ request: ServerRequest) -> Bool {
        guard let expected = csrf(of: request), let offered = request[header: Self.csrfHeader] else { return false }
        return constantTimeEqual(offered, expected)
    }

    static func cookie(_ session: String) -> String {
        "\(cookieName)=\(session); Path=/; HttpOnly; SameSite=Strict"
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
