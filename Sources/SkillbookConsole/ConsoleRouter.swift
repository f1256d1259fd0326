import Foundation
import SkillbookCore
import Synchronization

/// A value set once, after the fact (the access rules need the port the server got).
final class Late<T: Sendable>: Sendable {
    private let storage = Mutex<T?>(nil)
    func setValue(_ value: T) { storage.withLock { $0 = value } }
    var value: T? { storage.withLock { $0 } }
}

/// Sends each request where it belongs, after the checks every request passes: the Host header
/// names this server, the Origin (when sent) is this server's, a session cookie for everything but
/// the login and the assets, the CSRF token for every change (the logout too). Every response carries a strict
/// Content-Security-Policy (no inline script or style), X-Frame-Options DENY and nosniff.
final class ConsoleRouter: Sendable {
    let api: ConsoleAPI
    let access = Late<ConsoleAccess>()

    init(api: ConsoleAPI) {
        self.api = api
    }

    static let securityHeaders: [(name: String, value: String)] = [
        (
            "Content-Security-Policy",
            "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
                + "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
        ),
        ("X-Frame-Options", "DENY"),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "no-referrer"),
        ("Cross-Origin-Opener-Policy", "same-origin"),
        ("Cross-Origin-Resource-Policy", "same-origin"),
    ]

    func respond(_ request: ServerRequest) async -> ServerResponse {
        var response = await route(request)
        response.headers += Self.securityHeaders
        return response
    }

    private func route(_ request: ServerRequest) async -> ServerResponse {
        guard let access = access.value else { return json(503, ConsoleJSON.error("the console is starting")) }
        let isAPI = request.path.hasPrefix("/api/")
        guard access.hostIsAllowed(request) else {
            return refusal(403, "the Host header does not name this server (open the URL 'skillbook serve' printed)", api: isAPI)
        }
        guard access.originIsAllowed(request) else { return refusal(403, "requests from other sites are refused", api: isAPI) }
        let parts = request.path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        if parts.contains("..") || parts.contains(".") { return refusal(404, "no such page", api: isAPI) }

        if parts == ["login"] {
            guard request.method == "GET" else { return json(405, ConsoleJSON.error("use GET")) }
            switch access.logIn(with: request.query["token"] ?? "") {
            case .session(let session):
                return ServerResponse(
                    status: 303, headers: [("Location", "/runs"), ("Set-Cookie", access.cookie(session)), ("Cache-Control", "no-store")])
            case .refused:
                return refusal(
                    401, "this login link is not valid or was used already: open the URL 'skillbook serve' printed, or restart it",
                    api: false)
            case .throttled(let seconds):
                var response = refusal(
                    429, "too many failed logins: this server accepts none for the next \(seconds) s; then open the URL 'skillbook serve' printed",
                    api: false)
                response.headers.append(("Retry-After", String(seconds)))
                return response
            }
        }
        if parts.first == "assets" {
            guard request.method == "GET" || request.method == "HEAD" else { return json(405, ConsoleJSON.error("use GET")) }
            guard parts.count == 2, let asset = ConsoleAssets.files[parts[1]] else { return refusal(404, "no such file", api: true) }
            return ServerResponse(
                status: 200, headers: [("Content-Type", asset.type), ("Cache-Control", "no-cache")], body: .bytes(Data(asset.text.utf8)))
        }
        guard let csrf = access.csrf(of: request) else {
            return refusal(401, "not logged in: open the URL 'skillbook serve' printed (it holds a one-time token)", api: isAPI)
        }
        if isAPI {
            guard parts.count >= 2, parts[1] == "v1" else { return json(404, ConsoleJSON.error("no such endpoint: \(request.path)")) }
            if request.method != "GET" && request.method != "HEAD" && !access.csrfIsValid(request) {
                return json(403, ConsoleJSON.error("a change needs the session's CSRF token in the X-CSRF-Token header"))
            }
            if parts.count == 3, parts[2] == "logout" {
                guard request.method == "POST" else { return json(405, ConsoleJSON.error("\(request.method) is not allowed on \(request.path)")) }
                access.logOut(request)
                var response = json(200, ["logged_out": true])
                response.headers.append(("Set-Cookie", access.clearedCookie))
                return response
            }
            return await api.handle(request, route: Array(parts.dropFirst(2)), csrf: csrf)
        }
        guard request.method == "GET" else { return refusal(405, "use GET", api: false) }
        let pages = [[], ["runs"], ["runs", "*"], ["playbooks"], ["playbooks", "*"], ["schedules"], ["skills"], ["confirmations"], ["chat"]]
        guard pages.contains(where: { ConsoleAPI.match(parts, $0) != nil }) else { return refusal(404, "no such page", api: false) }
        return ServerResponse(
            status: 200, headers: [("Content-Type", "text/html; charset=utf-8"), ("Cache-Control", "no-store")],
            body: .bytes(Data(ConsolePages.index.utf8)))
    }

    /// A refusal as JSON for the API, as a small page (text only, no script) for a browser.
    private func refusal(_ status: Int, _ message: String, api: Bool) -> ServerResponse {
        if api { return json(status, ConsoleJSON.error(message)) }
        let page = ConsolePages.message(title: status == 401 ? "Log in to Skillbook" : "Skillbook", message: message)
        return ServerResponse(status: status, headers: [("Content-Type", "text/html; charset=utf-8"), ("Cache-Control", "no-store")], body: .bytes(Data(page.utf8)))
    }
}
