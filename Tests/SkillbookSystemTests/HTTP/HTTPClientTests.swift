import Foundation
import SkillbookCore
import SkillbookSystem
import SkillbookTesting
import Testing

@Suite struct HTTPClientTests {
    let client = SystemHTTPClient()

    func request(_ url: String, method: String = "GET", timeout: Double = 60) -> HTTPRequest {
        HTTPRequest(url: URL(string: url)!, method: method, timeout: timeout)
    }

    @Test func getsStatusHeadersAndBody() async throws {
        try await withLocalHTTPServer { server in
            server.route("/hello", LocalHTTPServer.Response.text("hi there").adding(header: "X-Thing", "1"))
            let response = try await client.send(request(server.url("/hello")))
            #expect(response.status == 200)
            #expect(String(decoding: response.body, as: UTF8.self) == "hi there")
            #expect(response.header("X-THING") == "1")
            #expect(response.headers.contains(HTTPHeader("content-type", "text/plain; charset=utf-8")))
            #expect(!response.truncated)
            #expect(response.url.absoluteString == server.url("/hello"))
            #expect(response.statusLine == "200 OK")
        }
    }

    @Test func errorStatusesAreResponses() async throws {
        try await withLocalHTTPServer { server in
            server.route("/gone", .status(410, "bye"))
            let response = try await client.send(request(server.url("/gone")))
            #expect(response.status == 410)
            #expect(response.statusLine == "410 Gone")
            #expect(!response.isSuccess)
        }
    }

    @Test func sendsMethodHeadersAndBody() async throws {
        try await withLocalHTTPServer { server in
            server.route("/echo", .text("ok"))
            for method in ["POST", "PUT", "PATCH", "DELETE"] {
                var request = request(server.url("/echo?x=1"), method: method)
                request.headers = [HTTPHeader("X-Custom", "a b"), HTTPHeader("Content-Type", "application/json")]
                request.body = Data(#"{"n":1}"#.utf8)
                _ = try await client.send(request)
                let received = try #require(server.requests.last)
                #expect(received.method == method)
                #expect(received.target == "/echo?x=1")
                #expect(received.header("x-custom") == "a b")
                #expect(received.text == #"{"n":1}"#)
            }
            let large = String(repeating: "x", count: 200_000)  // curl asks `Expect: 100-continue` for these
            var post = request(server.url("/echo"), method: "POST")
            post.body = Data(large.utf8)
            _ = try await client.send(post)
            #expect(server.requests.last?.text == large)
        }
    }

    @Test func headHasNoBody() async throws {
        try await withLocalHTTPServer { server in
            server.route("/page", .html("<p>hello</p>"))
            let response = try await client.send(request(server.url("/page"), method: "HEAD"))
            #expect(response.status == 200)
            #expect(response.body.isEmpty)
            #expect(server.requests.last?.method == "HEAD")
        }
    }

    @Test func followsRedirectsAndReportsTheFinalAddress() async throws {
        try await withLocalHTTPServer { server in
            server.route("/a", .redirect(to: "/b", status: 301))
            server.route("/b", .redirect(to: server.url("/c"), status: 302))
            server.route("/c", .redirect(to: "d?q=1", status: 307))
            server.route("/d", .text("arrived"))
            let response = try await client.send(request(server.url("/a")))
            #expect(response.status == 200)
            #expect(String(decoding: response.body, as: UTF8.self) == "arrived")
            #expect(response.url.absoluteString == server.url("/d?q=1"))
            #expect(server.requests.map(\.target) == ["/a", "/b", "/c", "/d?q=1"])
        }
    }

    @Test func fiveRedirectsAreFollowedNotSix() async throws {
        try await withLocalHTTPServer { server in
            for hop in 0..<6 { server.route("/r\(hop)", .redirect(to: "/r\(hop + 1)")) }
            server.route("/r6", .text("end"))
            let five = try await client.send(request(server.url("/r1")))
            #expect(five.url.absoluteString == server.url("/r6"))
            do {
                _ = try await client.send(request(server.url("/r0")))
                Issue.record("six redirects were followed")
            } catch let error as HTTPClientError {
                #expect(error.kind == .tooManyRedirects)
                #expect(
                    error.message
                        == "fetching \(server.url("/r0")) was redirected more than 5 times (the last time to /r6)")
            }
        }
    }

    @Test func withNoRedirectsAllowedARedirectIsTheResponse() async throws {
        try await withLocalHTTPServer { server in
            server.route("/moved", .redirect(to: "/elsewhere", status: 301))
            var request = request(server.url("/moved"))
            request.maxRedirects = 0
            let response = try await client.send(request)
            #expect(response.status == 301)
            #expect(response.header("location") == "/elsewhere")
            #expect(server.requests.map(\.path) == ["/moved"])
        }
    }

    @Test func seeOtherAndPostRedirectsContinueAsGet() async throws {
        try await withLocalHTTPServer { server in
            server.route("/form", .redirect(to: "/done", status: 303))
            server.route("/moved", .redirect(to: "/done", status: 301))
            server.route("/keep", .redirect(to: "/done", status: 307))
            server.route("/done", .text("ok"))
            for (path, method, body) in [("/form", "GET", ""), ("/moved", "GET", ""), ("/keep", "POST", "data")] {
                var post = request(server.url(path), method: "POST")
                post.body = Data("data".utf8)
                post.headers = [HTTPHeader("Content-Type", "text/plain")]
                _ = try await client.send(post)
                let last = try #require(server.requests.last)
                #expect(last.path == "/done")
                #expect(last.method == method, "\(path)")
                #expect(last.text == body, "\(path)")
            }
        }
    }

    @Test func credentialsDoNotFollowARedirectToAnotherOrigin() async throws {
        try await withLocalHTTPServer { first in
            try await withLocalHTTPServer { second in
                second.route("/land", .text("ok"))
                first.route("/same", .redirect(to: "/land"))
                first.route("/land", .text("ok"))
                first.route("/away", .redirect(to: second.url("/land")))
                for path in ["/same", "/away"] {
                    var request = request(first.url(path))
                    request.headers = [HTTPHeader("Authorization", "Bearer abc"), HTTPHeader("X-Keep", "1")]
                    _ = try await client.send(request)
                }
                #expect(first.requests.last?.header("authorization") == "Bearer abc")
                let away = try #require(second.requests.last)
                #expect(away.header("authorization") == nil)
                #expect(away.header("x-keep") == "1")
            }
        }
    }

    @Test func redirectsToOtherSchemesFail() async throws {
        try await withLocalHTTPServer { server in
            server.route("/evil", .redirect(to: "file:///etc/passwd"))
            do {
                _ = try await client.send(request(server.url("/evil")))
                Issue.record("followed a redirect to file:")
            } catch let error as HTTPClientError {
                #expect(error.kind == .unsupportedRedirect)
                #expect(
                    error.message
                        == "fetching \(server.url("/evil")) was redirected to 'file:///etc/passwd', which is not an http or https address"
                )
            }
        }
    }

    @Test func timesOutForTheWholeExchange() async throws {
        try await withLocalHTTPServer { server in
            // Answers that would take two minutes; the bound below is loose so that a starved
            // machine does not fail it: anything well under the delay shows the timeout worked.
            server.route("/slow", LocalHTTPServer.Response.text("late").delayed(by: 120))
            var slowBody = LocalHTTPServer.Response.text("late")
            slowBody.bodyDelay = 120
            server.route("/slow-body", slowBody)
            for path in ["/slow", "/slow-body"] {
                let start = Date()
                do {
                    _ = try await client.send(request(server.url(path), timeout: 0.5))
                    Issue.record("no timeout")
                } catch let error as HTTPClientError {
                    #expect(error.kind == .timedOut)
                    #expect(error.message == "fetching \(server.url(path)) timed out after 0.5s")
                }
                let elapsed = Date().timeIntervalSince(start)
                #expect(elapsed >= 0.45 && elapsed < 60, "\(elapsed)")
            }
        }
    }

    @Test func readsAtMostTheCap() async throws {
        try await withLocalHTTPServer { server in
            let huge = 20 << 20
            server.route("/huge", LocalHTTPServer.Response(body: .repeating(Array("0123456789".utf8), count: huge)))
            var chunked = LocalHTTPServer.Response(body: .repeating(Array("abc".utf8), count: huge))
            chunked.chunked = true
            server.route("/chunked", chunked)
            server.route("/exact", LocalHTTPServer.Response(body: .repeating(Array("z".utf8), count: 1000)))
            for path in ["/huge", "/chunked"] {
                var request = request(server.url(path))
                request.maxBodyBytes = 1 << 20
                let start = Date()
                let response = try await client.send(request)
                #expect(response.body.count == 1 << 20)
                #expect(response.truncated)
                #expect(Date().timeIntervalSince(start) < 30)
            }
            var exact = request(server.url("/exact"))
            exact.maxBodyBytes = 1000
            let response = try await client.send(exact)
            #expect(response.body.count == 1000)
            #expect(!response.truncated)
        }
    }

    @Test func chunkedBodiesArrive() async throws {
        try await withLocalHTTPServer { server in
            var chunked = LocalHTTPServer.Response(body: .repeating(Array("abc".utf8), count: 300_000))
            chunked.chunked = true
            server.route("/chunked", chunked)
            let response = try await client.send(request(server.url("/chunked")))
            #expect(response.body.count == 300_000)
            #expect(response.body.prefix(6) == Data("abcabc".utf8))
        }
    }

    @Test func cancellationStopsPromptly() async throws {
        try await withLocalHTTPServer { server in
            // The answer would take two minutes; a cancelled request ends long before. The bound is
            // loose so that a starved machine does not fail it: anything under the delay shows the
            // request did not wait for the answer.
            server.route("/slow", LocalHTTPServer.Response.text("late").delayed(by: 120))
            let client = client
            let url = server.url("/slow")
            let start = Date()
            let task = Task { try await client.send(HTTPRequest(url: URL(string: url)!, timeout: 120)) }
            try await Task.sleep(for: .milliseconds(300))
            task.cancel()
            let result = await task.result
            #expect(throws: CancellationError.self) { try result.get() }
            #expect(Date().timeIntervalSince(start) < 60)
        }
    }

    @Test func connectionFailuresNameTheAddress() async throws {
        let port = try closedPort()
        do {
            _ = try await client.send(request("http://127.0.0.1:\(port)/x", timeout: 5))
            Issue.record("connected to a closed port")
        } catch let error as HTTPClientError {
            #expect(error.kind == .transport)
            #expect(error.message.hasPrefix("fetching http://127.0.0.1:\(port)/x failed: "), "\(error.message)")
        }
    }
}
