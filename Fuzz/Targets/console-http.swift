// fuzz-modules: Core SQL SQLite Postgres System Skills Runtime Agent Schedule MCP Host Console
import Dispatch
import Foundation
import SkillbookCore
import SkillbookHost
import Synchronization

@testable import SkillbookConsole

/// The console's request handling in this process: the access checks (Host, Origin, session,
/// CSRF) and the routing into the JSON API over a real host (a workspace with two playbooks, a
/// SQLite journal), as `ConsoleRouter.respond` gets requests from libmicrohttpd. The input is an
/// HTTP request as text (`METHOD /path?query`, `Name: value` header lines, a blank line, the
/// body); a leading `+` adds this server's Host header, a logged-in session's cookie and its CSRF
/// token. Oracles: a status in 100…599 with the security headers; no 2xx without the session
/// (except the assets), no 2xx for a change without the session's CSRF token; every API answer
/// (but a stream) is JSON, an error one with an `error` text. `/api/v1/events` (a stream that
/// never ends) is left out, and failed logins are never throttled.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConsoleHTTP(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    var text = FuzzInput.text(data, count)
    let loggedIn = text.hasPrefix("+")
    if loggedIn { text.removeFirst() }
    guard var request = FuzzConsole.request(text) else { return 0 }
    if request.path.contains("events") { return 0 }
    let world = FuzzConsole.world
    if loggedIn {
        let session = world.session()
        request.headers["host"] = request.headers["host"] ?? "127.0.0.1:\(FuzzConsole.port)"
        request.cookies[world.access.cookieName] = session.cookie
        request.headers["x-csrf-token"] = request.headers["x-csrf-token"] ?? session.csrf
    }
    let hasSession = request.cookies[world.access.cookieName].map(world.isSession) ?? false
    let csrfIsRight = hasSession && request.headers["x-csrf-token"] == world.session().csrf
    let sent = request
    let response = FuzzConsole.wait { await world.router.respond(sent) }
    let summary = "\(request.method) \(request.path) → \(response.status)"
    check((100...599).contains(response.status), "status \(summary)")
    for (name, _) in ConsoleRouter.securityHeaders { check(response.header(name) != nil, "no \(name): \(summary)") }
    if (200..<300).contains(response.status) {
        let parts = request.path.split(separator: "/")
        check(hasSession || parts.first == "assets", "\(summary) without a session")
        check(["GET", "HEAD"].contains(request.method) || csrfIsRight, "\(summary) without the CSRF token")
    }
    if request.path.hasPrefix("/api/"), case .bytes(let body) = response.body, response.header("content-type")?.hasPrefix("application/json") == true {
        guard let value = try? JSONText.decode(String(decoding: body, as: UTF8.self)) else { fail("\(summary): not JSON") }
        if response.status >= 400 { check(value["error"]?.stringValue != nil, "\(summary): an error without 'error'") }
    }
    return 0
}

enum FuzzConsole {
    static let port = 8600

    /// Runs async work to its end from libFuzzer's thread (the main thread), keeping the main
    /// run loop turning for what runs on the main actor (the chats). The answer wakes the loop
    /// (an empty block on the main queue) instead of the loop polling every millisecond.
    static func wait<T: Sendable>(_ work: @escaping @Sendable () async -> T) -> T {
        let result = Answer<T>()
        Task {
            result.give(await work())
            DispatchQueue.main.async {}
        }
        while true {
            if let value = result.value { return value }
            _ = RunLoop.main.run(mode: .default, before: Date(timeIntervalSinceNow: 0.05))
        }
    }

    final class Answer<T: Sendable>: Sendable {
        private let storage = Mutex<T?>(nil)
        func give(_ value: T) { storage.withLock { $0 = value } }
        var value: T? { storage.withLock { $0 } }
    }

    /// `METHOD target`, header lines, a blank line, the body, as libmicrohttpd hands them on:
    /// the path percent-decoded, query arguments split, header names lower-cased, cookies split.
    static func request(_ text: String) -> ServerRequest? {
        let (head, body) = text.range(of: "\n\n").map { (String(text[..<$0.lowerBound]), String(text[$0.upperBound...])) } ?? (text, "")
        var lines = head.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard !lines.isEmpty else { return nil }
        let first = lines.removeFirst().split(separator: " ", maxSplits: 1).map(String.init)
        guard first.count == 2, !first[0].isEmpty else { return nil }
        let target = first[1]
        let pathPart = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
        guard pathPart.hasPrefix("/") else { return nil }
        var request = ServerRequest(method: first[0], path: pathPart.removingPercentEncoding ?? pathPart, body: Data(body.utf8))
        if let question = target.firstIndex(of: "?") {
            for pair in target[target.index(after: question)...].split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map { String($0).removingPercentEncoding ?? String($0) }
                request.query[parts[0]] = parts.count > 1 ? parts[1] : ""
            }
        }
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            request.headers[name] = value
            if name == "cookie" {
                for cookie in value.split(separator: ";") {
                    let parts = cookie.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                    if parts.count == 2 { request.cookies[parts[0]] = parts[1] }
                }
            }
        }
        return request
    }

    final class World: Sendable {
        static let directory = FileManager.default.temporaryDirectory.appendingPathComponent("skillbook-fuzz-console-\(getpid())")

        let router: ConsoleRouter
        let access: ConsoleAccess
        let token: String
        private let current = Mutex<(cookie: String, csrf: String)?>(nil)

        init() {
            let directory = World.directory
            let playbooks = directory.appendingPathComponent("Playbooks")
            try! FileManager.default.createDirectory(at: playbooks, withIntermediateDirectories: true)
            // The journal grows by a few hundred MB in a ten-minute run: removed when the run
            // ends at its time limit (an interrupt or a crash leaves it, with the finding).
            atexit { try? FileManager.default.removeItem(at: World.directory) }
            try! """
                name: hello
                description: Says hello.
                inputs:
                  name: { type: string, default: world }
                  times: { type: integer, minimum: 1, maximum: 5, default: 1 }
                steps:
                  - id: greet
                    skill: debug.echo
                    with: { value: "Hello ${{ inputs.name }}" }
                outputs:
                  greeting: "${{ steps.greet.output.value }}"

                """.write(to: playbooks.appendingPathComponent("hello.yaml"), atomically: true, encoding: .utf8)
            try! """
                name: note
                description: Creates a note; a rollback deletes it.
                inputs:
                  title: { type: string, default: Groceries }
                steps:
                  - id: write
                    skill: notes.create
                    with: { title: "${{ inputs.title }}" }

                """.write(to: playbooks.appendingPathComponent("note.yaml"), atomically: true, encoding: .utf8)
            let configuration = HostConfiguration(
                playbooksDirectory: playbooks, stateDirectory: directory.appendingPathComponent("state"), timeZone: TimeZone(identifier: "UTC"),
                environment: ["PATH": "/usr/bin:/bin"], currentDirectory: directory)
            var settings = ConsoleSettings(port: FuzzConsole.port, tokenIsReusable: true)
            // The fuzzed requests' failed logins would throttle the harness's own (by design);
            // throttling is left to `ConsoleSecurityTests`.
            settings.loginFailures = 1_000_000_000
            token = settings.token
            router = ConsoleRouter(api: ConsoleAPI(host: PlaybookHost(configuration), hub: EventHub(), local: LocalRuns(), chats: ConsoleChats()))
            access = ConsoleAccess(settings: settings, port: FuzzConsole.port)
            router.access.setValue(access)
        }

        /// A logged-in session (a new one when the fuzzed requests logged the last one out).
        func session() -> (cookie: String, csrf: String) {
            if let session = current.withLock({ $0 }), isSession(session.cookie) { return session }
            guard case .session(let cookie) = access.logIn(with: token),
                let csrf = access.csrf(of: ServerRequest(method: "GET", path: "/", cookies: [access.cookieName: cookie]))
            else { fail("the harness cannot log in") }
            current.withLock { $0 = (cookie, csrf) }
            return (cookie, csrf)
        }

        func isSession(_ cookie: String) -> Bool {
            access.csrf(of: ServerRequest(method: "GET", path: "/", cookies: [access.cookieName: cookie])) != nil
        }
    }

    static let world = World()
}
