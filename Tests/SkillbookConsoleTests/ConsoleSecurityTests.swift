import Foundation
import SkillbookConsole
import SkillbookCore
import Testing

/// The access rules, against the real server: a token becomes a cookie once, Host and Origin name
/// this server, changes carry the CSRF token, limits answer 413, and secrets never go out.
@Suite struct ConsoleSecurityTests {
    @Test func withoutALoginEverythingButTheAssetsIs401() async throws {
        let console = try await ConsoleFixture.start()
        defer { Task { await console.stop() } }
        for path in ["/api/v1/runs", "/api/v1/playbooks", "/api/v1/skills", "/api/v1/events", "/api/v1/session"] {
            let response = try await console.send("GET", path)
            #expect(response.status == 401, "\(path)")
            #expect(response.header("content-type")?.hasPrefix("application/json") == true)
        }
        let page = try await console.send("GET", "/runs")
        #expect(page.status == 401)
        #expect(String(decoding: page.body, as: UTF8.self).contains("open the URL"))
        // A forged cookie is no session.
        #expect(try await console.send("GET", "/api/v1/runs", headers: ["Cookie": "\(console.cookieName)=forged"]).status == 401)
        #expect(try await console.send("GET", "/assets/app.js").status == 200)
    }

    @Test func theTokenBecomesAnHttpOnlyStrictCookieOnce() async throws {
        let console = try await ConsoleFixture.start()
        defer { Task { await console.stop() } }
        #expect(try await console.send("GET", "/login?token=wrong").status == 401)
        let response = try await console.send("GET", "/login?token=\(console.token)")
        #expect(response.status == 303)
        #expect(response.header("location") == "/runs")
        let cookie = try #require(response.header("set-cookie"))
        // Named with the port: a console or another local server on another port never receives it.
        #expect(cookie.hasPrefix("skillbook_session_\(console.port)="))
        #expect(cookie.contains("Max-Age=43200"))
        #expect(!cookie.contains("Secure"))
        #expect(cookie.contains("HttpOnly"))
        #expect(cookie.contains("SameSite=Strict"))
        #expect(cookie.contains("Path=/"))
        // The printed token works once.
        #expect(try await console.send("GET", "/login?token=\(console.token)").status == 401)
    }

    @Test func aWrongHostOrOriginIs403() async throws {
        let console = try await ConsoleFixture.start()
        defer { Task { await console.stop() } }
        let session = try await console.logIn()
        // DNS rebinding: a name that resolves here but is not this server's.
        let rebound = try await console.send("GET", "/api/v1/runs", headers: ["Host": "evil.example:\(console.port)"], session: session)
        #expect(rebound.status == 403)
        #expect(try await console.send("GET", "/api/v1/runs", headers: ["Host": "localhost:\(console.port)"], session: session).status == 200)
        let foreign = try await console.send(
            "POST", "/api/v1/validate", headers: ["Origin": "http://evil.example"], body: Data(#"{"source":"name: x"}"#.utf8), session: session)
        #expect(foreign.status == 403)
        let crossSite = try await console.send("GET", "/api/v1/runs", headers: ["Sec-Fetch-Site": "cross-site"], session: session)
        #expect(crossSite.status == 403)
        let same = try await console.send(
            "POST", "/api/v1/validate", headers: ["Origin": console.base], body: Data(#"{"source":"name: x"}"#.utf8), session: session)
        #expect(same.status == 200)
    }

    /// Behind a TLS reverse proxy: the public URL's Host and Origin are accepted, nothing else is.
    @Test func thePublicURLsHostAndOriginAreAllowedAndNothingElse() async throws {
        let console = try await ConsoleFixture.start { $0.publicURL = PublicURL("https://Skillbook.example.org/") }
        defer { Task { await console.stop() } }
        #expect(console.loginURL == "https://skillbook.example.org/login?token=\(console.token)")
        let proxied = ["Host": "skillbook.example.org", "Origin": "https://skillbook.example.org"]
        let login = try await console.send("GET", "/login?token=\(console.token)", headers: proxied)
        #expect(login.status == 303)
        #expect(login.header("set-cookie")?.hasSuffix("; Secure") == true)
        let value = try #require(login.header("set-cookie")?.split(separator: ";").first?.split(separator: "=").last)
        var session = ConsoleFixture.Session(cookie: String(value), csrf: "")
        session.csrf = try #require(try console.json(try await console.send("GET", "/api/v1/session", headers: proxied, session: session))["csrf"]?.stringValue)
        let body = Data(#"{"source":"name: x"}"#.utf8)
        #expect(try await console.send("POST", "/api/v1/validate", headers: proxied, body: body, session: session).status == 200)
        for (host, origin) in [
            ("skillbook.example.org", "http://skillbook.example.org"), ("skillbook.example.org", "https://evil.example"),
            ("skillbook.example.org", "https://skillbook.example.org:8443"), ("evil.example", "https://skillbook.example.org"),
            ("skillbook.example.org:\(console.port)", "https://skillbook.example.org"),
        ] {
            let response = try await console.send("POST", "/api/v1/validate", headers: ["Host": host, "Origin": origin], body: body, session: session)
            #expect(response.status == 403, "\(host) \(origin)")
        }
        // Loopback still works, for the machine itself.
        #expect(try await console.send("POST", "/api/v1/validate", headers: ["Origin": console.base], body: body, session: session).status == 200)
        #expect(PublicURL("https://skillbook.example.org:443")?.origin == "https://skillbook.example.org")
        #expect(PublicURL("http://myhost:8600")?.host == "myhost:8600")
        for bad in ["ftp://x", "https://x/console", "https://x?a=b", "skillbook.example.org", "https://user@x"] { #expect(PublicURL(bad) == nil, "\(bad)") }
    }

    /// After 5 failed logins in the window, every login (the right token too) is 429 until it ends.
    @Test func logoutEndsTheSessionAndNeedsTheCSRFToken() async throws {
        let console = try await ConsoleFixture.start()
        defer { Task { await console.stop() } }
        let session = try await console.logIn()
        #expect(try await console.send("POST", "/api/v1/logout", headers: ["X-CSRF-Token": "nope"], session: session).status == 403)
        #expect(try await console.send("GET", "/api/v1/logout", session: session).status == 405)
        #expect(try await console.send("GET", "/api/v1/runs", session: session).status == 200)
        let out = try await console.send("POST", "/api/v1/logout", session: session)
        #expect(out.status == 200)
        #expect(try console.json(out)["logged_out"] == true)
        #expect(out.header("set-cookie") == "\(console.cookieName)=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict")
        #expect(try await console.send("GET", "/api/v1/runs", session: session).status == 401)
        #expect(try await console.send("POST", "/api/v1/logout", session: session).status == 401)
    }

    @Test func aChangeWithoutTheCSRFTokenIs403AndGETCannotChangeAnything() async throws {
        let console = try await ConsoleFixture.start()
        defer { Task { await console.stop() } }
        let session = try await console.logIn()
        let body = Data(#"{"inputs":{}}"#.utf8)
        let missing = try await console.send(
            "POST", "/api/v1/playbooks/hello/run", headers: ["X-CSRF-Token": ""], body: body, session: session)
        #expect(missing.status == 403)
        let wrong = try await console.send(
            "POST", "/api/v1/playbooks/hello/run", headers: ["X-CSRF-Token": "0000"], body: body, session: session)
        #expect(wrong.status == 403)
        #expect(try await console.send("GET", "/api/v1/playbooks/hello/run", session: session).status == 405)
        let runs = try console.json(try await console.send("GET", "/api/v1/runs", session: session))
        #expect(runs["runs"] == [])
    }

    /// Rollback, resume, cancel and dry-run are changes (or could run skills): each needs the CSRF
    /// token, and none of them answers a GET that would act.
    @Test func everyRunActionNeedsTheCSRFToken() async throws {
        let console = try await ConsoleFixture.start()
        defer { Task { await console.stop() } }
        let session = try await console.logIn()
        let id = try await console.startRun("note", session: session)
        #expect(try await console.finishedRun(id, session: session)["status"] == "succeeded")
        let body = Data(#"{"approve":true}"#.utf8)
        for path in ["runs/\(id)/rollback", "runs/\(id)/resume", "runs/\(id)/cancel", "playbooks/note/dry-run"] {
            let response = try await console.send("POST", "/api/v1/\(path)", headers: ["X-CSRF-Token": ""], body: body, session: session)
            #expect(response.status == 403, "\(path)")
        }
        for path in ["runs/\(id)/resume", "runs/\(id)/cancel", "playbooks/note/dry-run"] {
            #expect(try await console.send("GET", "/api/v1/\(path)", session: session).status == 405, "\(path)")
        }
        #expect(try console.json(try await console.send("GET", "/api/v1/runs/\(id)", session: session))["status"] == "succeeded")
        #expect(try await console.send("GET", "/api/v1/runs/\(id)/rollback").status == 401)
    }

    @Test func badJSONIs400WithAClearMessage() async throws {
        let console = try await ConsoleFixture.start()
        defer { Task { await console.stop() } }
        let session = try await console.logIn()
        let response = try await console.send("POST", "/api/v1/validate", body: Data(#"{"source": "#.utf8), session: session)
        #expect(response.status == 400)
        let message = try #require(try console.json(response)["error"]?.stringValue)
        #expect(message.hasPrefix("the body is not valid JSON"), "\(message)")
        let notObject = try await console.send("POST", "/api/v1/validate", body: Data("[1]".utf8), session: session)
        #expect(try console.json(notObject)["error"] == "the body must be a JSON object")
        let form = try await console.send(
            "POST", "/api/v1/validate", headers: ["Content-Type": "application/x-www-form-urlencoded"], body: Data("a=b".utf8), session: session)
        #expect(form.status == 415)
    }

    @Test func aBodyOrHeadersOverTheLimitsAre413() async throws {
        let console = try await ConsoleFixture.start()
        defer { Task { await console.stop() } }
        let session = try await console.logIn()
        let big = Data(#"{"source":""#.utf8) + Data(repeating: UInt8(ascii: "a"), count: 100 << 10) + Data(#""}"#.utf8)
        let response = try await console.send("POST", "/api/v1/validate", body: big, session: session)
        #expect(response.status == 413)
        let headers = try await console.send("GET", "/api/v1/runs", headers: ["X-Padding": String(repeating: "b", count: 20 << 10)], session: session)
        #expect([413, 431].contains(headers.status), "\(headers.status)")
    }

    /// `Limits.consoleBodyBytes` with the default limits: a body of exactly 1 MiB is read, one
    /// byte more is answered 413 with the server's message, unread.
    @Test func theDefaultBodyLimitAtAndPastIt() async throws {
        #expect(Limits.consoleBodyBytes == 1 << 20)
        #expect(ServerLimits().maxBodyBytes == Limits.consoleBodyBytes && ServerLimits().maxHeaderBytes == Limits.consoleHeaderBytes)
        let console = try await ConsoleFixture.start(limits: ServerLimits())
        defer { Task { await console.stop() } }
        let session = try await console.logIn()
        func body(_ size: Int) -> Data {
            let frame = Data(#"{"source":""#.utf8) + Data(#""}"#.utf8)
            return Data(#"{"source":""#.utf8) + Data(repeating: UInt8(ascii: "a"), count: size - frame.count) + Data(#""}"#.utf8)
        }
        #expect(body(Limits.consoleBodyBytes).count == 1 << 20)
        let atLimit = try await console.send("POST", "/api/v1/validate", body: body(Limits.consoleBodyBytes), session: session)
        #expect(atLimit.status != 413)
        #expect(try console.json(atLimit)["error"]?.stringValue?.contains("larger than") != true)
        let past = try await console.send("POST", "/api/v1/validate", body: body(Limits.consoleBodyBytes + 1), session: session)
        #expect(past.status == 413)
        #expect(String(decoding: past.body, as: UTF8.self) == #"{"error":"the request body is larger than the server accepts"}"#)
    }

    @Test func assetPathsCannotEscapeAndEveryResponseHasTheStrictHeaders() async throws {
        let console = try await ConsoleFixture.start()
        defer { Task { await console.stop() } }
        for path in ["/assets/%2e%2e/%2e%2e/Package.swift", "/assets/..%2Fstate%2Fskillbook.sqlite", "/assets/nope.js", "/assets/"] {
            #expect(try await console.send("GET", path).status == 404, "\(path)")
        }
        let asset = try await console.send("GET", "/assets/style.css")
        #expect(asset.header("content-type") == "text/css; charset=utf-8")
        let csp = try #require(asset.header("content-security-policy"))
        #expect(csp.contains("script-src 'self'"))
        #expect(!csp.contains("unsafe-inline"))
        #expect(csp.contains("frame-ancestors 'none'"))
        #expect(asset.header("x-frame-options") == "DENY")
        #expect(asset.header("x-content-type-options") == "nosniff")
        let refused = try await console.send("GET", "/api/v1/runs")
        #expect(refused.header("x-frame-options") == "DENY")
        // The page has no inline script: only the module from /assets.
        let session = try await console.logIn()
        let page = String(decoding: try await console.send("GET", "/runs", session: session).body, as: UTF8.self)
        #expect(page.contains(#"<script type="module" src="/assets/app.js"></script>"#))
        #expect(page.components(separatedBy: "<script").count == 2)
    }

    @Test func aSecretInputIsAbsentFromEveryPayload() async throws {
        let console = try await ConsoleFixture.start()
        defer { Task { await console.stop() } }
        let session = try await console.logIn()
        let secret = "s3cr3t-Value-4711"
        let all = try EventStreamReader(url: console.base + "/api/v1/events", cookie: session.cookie)
        try await all.waitFor(": subscribed")
        let id = try await console.startRun("secretive", inputs: ["token": .string(secret)], session: session)
        let run = try await console.finishedRun(id, session: session)
        #expect(run["status"] == "succeeded")
        try await all.waitFor("run.finished")
        all.stop()
        let one = try EventStreamReader(url: console.base + "/api/v1/events?run=\(id)", cookie: session.cookie)
        try await one.waitFor(": subscribed")
        one.stop()

        var payloads = [all.text, one.text]
        for path in ["/api/v1/runs", "/api/v1/runs/\(id)", "/api/v1/runs/strips", "/api/v1/playbooks/secretive", "/api/v1/playbooks"] {
            payloads.append(String(decoding: try await console.send("GET", path, session: session).body, as: UTF8.self))
        }
        for payload in payloads { #expect(!payload.contains(secret)) }
        #expect(payloads[3].contains("\"token\""))
    }
}
