import Foundation
import SkillbookCore
import SkillbookSkills
import SkillbookTesting
import Testing

@Suite struct WebFetchSkillTests {
    @Test func getsAPage() async throws {
        try await withWeb { web, server in
            server.route("/hello", LocalHTTPServer.Response.text("Grüße").adding(header: "X-Rate", "10"))
            let output = try await web.run("web.fetch", ["url": .string(server.url("/hello"))])
            #expect(output["status"] == 200)
            #expect(output["text"] == "Grüße")
            #expect(output["truncated"] == false)
            #expect(output["url"] == .string(server.url("/hello")))
            #expect(output["headers"]?["x-rate"] == "10")
            #expect(output["headers"]?["content-type"] == "text/plain; charset=utf-8")
            let request = try #require(server.requests.last)
            #expect(request.method == "GET")
            #expect(request.header("user-agent")?.hasPrefix("skillbook/") == true)
        }
    }

    @Test func headAndHeaders() async throws {
        try await withWeb { web, server in
            server.route("/api", .text(#"{"ok":true}"#, contentType: "application/json"))
            let output = try await web.run(
                "web.fetch",
                [
                    "url": .string(server.url("/api")), "method": "HEAD",
                    "headers": ["Accept": "application/json", "X-Trace": "abc 123"],
                ])
            #expect(output["status"] == 200)
            #expect(output["text"] == "")
            let request = try #require(server.requests.last)
            #expect(request.method == "HEAD")
            #expect(request.header("accept") == "application/json")
            #expect(request.header("x-trace") == "abc 123")
        }
    }

    @Test func decodesTheDeclaredCharset() async throws {
        try await withWeb { web, server in
            server.route("/latin", .bytes(Array("caf".utf8) + [0xE9], contentType: "text/plain; charset=iso-8859-1"))
            let output = try await web.run("web.fetch", ["url": .string(server.url("/latin"))])
            #expect(output["text"] == "café")
        }
    }

    @Test func followsRedirects() async throws {
        try await withWeb { web, server in
            server.route("/old", .redirect(to: "/new", status: 301))
            server.route("/new", .text("here"))
            let output = try await web.run("web.fetch", ["url": .string(server.url("/old"))])
            #expect(output["url"] == .string(server.url("/new")))
            #expect(output["text"] == "here")
        }
    }

    @Test func errorStatusesFailUnlessAllowed() async throws {
        try await withWeb { web, server in
            server.route("/missing", .html("<h1>Not here</h1>", status: 404))
            server.route("/api", .text(#"{"error": "quota exceeded"}"#, status: 429, contentType: "application/json"))
            let url = server.url("/missing")
            await expectFailure("GET \(url) returned 404 Not Found") {
                _ = try await web.run("web.fetch", ["url": .string(url)])
            }
            await expectFailure(#"GET \#(server.url("/api")) returned 429 Too Many Requests: {"error": "quota exceeded"}"#) {
                _ = try await web.run("web.fetch", ["url": .string(server.url("/api"))])
            }
            let output = try await web.run("web.fetch", ["url": .string(url), "fail_on_error": false])
            #expect(output["status"] == 404)
            #expect(output["text"] == "<h1>Not here</h1>")
        }
    }

    @Test func timesOut() async throws {
        try await withWeb { web, server in
            server.route("/slow", LocalHTTPServer.Response.text("late").delayed(by: 30))
            let url = server.url("/slow")
            await expectFailure("fetching \(url) timed out after 0.5s") {
                _ = try await web.run("web.fetch", ["url": .string(url), "timeout": 0.5])
            }
            await expectFailure("fetching \(url) timed out after 1s") {
                _ = try await web.run("web.fetch", ["url": .string(url), "timeout": 1])
            }
        }
    }

    @Test func maxBytesCapsTheBody() async throws {
        try await withWeb { web, server in
            server.route("/big", LocalHTTPServer.Response(body: .repeating(Array("é".utf8), count: 20 << 20)))
            let output = try await web.run("web.fetch", ["url": .string(server.url("/big")), "max_bytes": 1001])
            #expect(output["truncated"] == true)
            #expect(output["text"]?.stringValue == String(repeating: "é", count: 500))  // the cut character dropped
            let whole = try await web.run("web.fetch", ["url": .string(server.url("/big"))])
            #expect(whole["text"]?.stringValue?.utf8.count == 5 << 20)
            #expect(whole["truncated"] == true)
        }
    }

    @Test func onlyHTTPAndHTTPSAreFetched() async throws {
        try await withWeb { web, _ in
            for (url, scheme) in [
                ("file:///etc/passwd", "file"), ("ftp://example.com/x", "ftp"), ("FILE:///etc/hosts", "file"),
                ("javascript:alert(1)", "javascript"), ("gopher://x", "gopher"),
            ] {
                let message = await failure { _ = try await web.run("web.fetch", ["url": .string(url)]) }
                #expect(message.hasPrefix("refusing '"), "\(message)")
                #expect(message.hasSuffix("only http and https addresses can be fetched (\(scheme): is not allowed)"))
            }
            await expectFailure("'http:nohost' has no host; give an address like https://example.com/page") {
                _ = try await web.run("web.fetch", ["url": "http:nohost"])
            }
        }
    }

    @Test func postIsNotAFetch() async throws {
        try await withWeb { web, server in
            let skill = try web.skill("web.fetch")
            let problems = SchemaValidator.validate(
                ["url": .string(server.url("/")), "method": "POST"], against: skill.descriptor.parameters)
            #expect(!problems.isEmpty)
            await expectFailure("web.fetch only reads (GET or HEAD); use web.request to POST") {
                _ = try await skill.run(["url": .string(server.url("/")), "method": "POST"], context: web.context)
            }
            #expect(server.requests.isEmpty)
        }
    }

    @Test func badHeadersAreRefusedBeforeSending() async throws {
        try await withWeb { web, server in
            await expectFailure("header 'X-Evil' must not contain line breaks") {
                _ = try await web.run(
                    "web.fetch", ["url": .string(server.url("/")), "headers": ["X-Evil": "a\r\nHost: other"]])
            }
            await expectFailure("'Bad Name' is not a valid header name (letters, digits and -_.!#$%&'*+^`|~ only)") {
                _ = try await web.run("web.fetch", ["url": .string(server.url("/")), "headers": ["Bad Name": "x"]])
            }
            await expectFailure("header 'X-List' must be a string, got array") {
                _ = try await web.run("web.fetch", ["url": .string(server.url("/")), "headers": ["X-List": ["a"]]])
            }
            #expect(server.requests.isEmpty)
        }
    }

    @Test func unreachableServersFailClearly() async throws {
        try await withWeb { web, _ in
            let port = try closedPort()
            let message = await failure {
                _ = try await web.run("web.fetch", ["url": .string("http://127.0.0.1:\(port)/"), "timeout": 5])
            }
            #expect(message.hasPrefix("fetching http://127.0.0.1:\(port)/ failed: "), "\(message)")
        }
    }
}

@Suite struct WebSecretTokenTests {
    static let token = "tok-3f9a-SECRET"

    @Test func theTokenIsSentAsABearerHeader() async throws {
        try await withWeb { web, server in
            server.route("/me", .text("hello"))
            _ = try await web.run("web.fetch", ["url": .string(server.url("/me")), "token": .string(Self.token)])
            #expect(server.requests.last?.header("authorization") == "Bearer \(Self.token)")
        }
    }

    @Test func theTokenNeverAppearsInOutputsOrErrors() async throws {
        try await withWeb { web, server in
            // A server that reflects the credential back, in its body and in a header.
            server.route("/reflect") { request in
                let auth = request.header("authorization") ?? ""
                return LocalHTTPServer.Response.text("you sent \(auth)").adding(header: "X-Echo", auth)
            }
            server.route("/denied") { request in
                .text(#"{"error":"bad token \#(request.header("authorization") ?? "")"}"#, status: 401, contentType: "application/json")
            }
            server.route("/slow", LocalHTTPServer.Response.text("late").delayed(by: 30))
            let token: Value = .string(Self.token)
            let output = try await web.run("web.fetch", ["url": .string(server.url("/reflect")), "token": token])
            #expect(!output.allText.contains(Self.token))
            #expect(output["text"] == "you sent Bearer ***")
            #expect(output["headers"]?["x-echo"] == "Bearer ***")

            let denied = await failure {
                _ = try await web.run("web.fetch", ["url": .string(server.url("/denied")), "token": token])
            }
            #expect(denied == #"GET \#(server.url("/denied")) returned 401 Unauthorized: {"error":"bad token Bearer ***"}"#)

            let slow = await failure {
                _ = try await web.run("web.fetch", ["url": .string(server.url("/slow")), "token": token, "timeout": 0.3])
            }
            #expect(!slow.contains(Self.token))

            let posted = try await web.run(
                "web.request", ["url": .string(server.url("/reflect")), "token": token, "body": "x"])
            #expect(!posted.allText.contains(Self.token))
        }
    }

    @Test func theTokenIsMarkedSecretAndCannotBeGivenTwice() async throws {
        try await withWeb { web, server in
            for id in ["web.fetch", "web.request"] {
                let descriptor = try web.skill(id).descriptor
                #expect(descriptor.parameters.property("token")?.secret == true)
            }
            await expectFailure("give either token or an Authorization header, not both") {
                _ = try await web.run(
                    "web.fetch",
                    ["url": .string(server.url("/")), "token": "t", "headers": ["authorization": "Basic x"]])
            }
        }
    }

    @Test func theTokenIsNotSentToAnotherSiteAfterARedirect() async throws {
        try await withWeb { web, server in
            try await withLocalHTTPServer { other in
                other.route("/land", .text("ok"))
                server.route("/go", .redirect(to: other.url("/land")))
                _ = try await web.run("web.fetch", ["url": .string(server.url("/go")), "token": .string(Self.token)])
                #expect(server.requests.last?.header("authorization") == "Bearer \(Self.token)")
                #expect(other.requests.last?.header("authorization") == nil)
            }
        }
    }
}
