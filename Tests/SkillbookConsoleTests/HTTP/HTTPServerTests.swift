import Foundation
import SkillbookConsole
import SkillbookCore
import SkillbookSkills
import Testing
import SkillbookSystem
import SkillbookTesting

/// The libmicrohttpd wrapper on its own: requests reach the handler parsed, limits answer before
/// it, a slow handler is cut off, and `stop()` ends open streams.
@Suite struct HTTPServerTests {
    let client = CurlHTTPClient()

    @Test func theHandlerGetsTheParsedRequestAndItsAnswerGoesBack() async throws {
        let server = try HTTPServer(address: "127.0.0.1", port: 0) { request in
            let text = "\(request.method) \(request.path) q=\(request.query["q"] ?? "-") h=\(request[header: "X-Thing"] ?? "-") "
                + "c=\(request.cookies["flavour"] ?? "-") b=\(String(decoding: request.body, as: UTF8.self))"
            return ServerResponse(status: 201, headers: [("Content-Type", "text/plain"), ("X-Reply", "yes")], body: .bytes(Data(text.utf8)))
        }
        defer { server.stop() }
        #expect(server.port > 0)
        let response = try await client.send(
            HTTPRequest(
                url: URL(string: "http://127.0.0.1:\(server.port)/a%20b/c?q=1%2B1")!, method: "POST",
                headers: [HTTPHeader("X-Thing", "x"), HTTPHeader("Cookie", "flavour=mint; other=1")], body: Data("hello".utf8)))
        #expect(response.status == 201)
        #expect(response.header("x-reply") == "yes")
        #expect(String(decoding: response.body, as: UTF8.self) == "POST /a b/c q=1+1 h=x c=mint b=hello")
    }

    @Test func aBodyOverTheLimitIs413AndASlowHandlerIs503() async throws {
        let server = try HTTPServer(address: "127.0.0.1", port: 0, limits: ServerLimits(maxBodyBytes: 10, handlerTimeout: 1)) { request in
            if request.path == "/slow" { try? await Task.sleep(nanoseconds: 5_000_000_000) }
            return ServerResponse(status: 200, contentType: "text/plain", text: "ok")
        }
        defer { server.stop() }
        let url = "http://127.0.0.1:\(server.port)"
        let big = try await client.send(HTTPRequest(url: URL(string: url + "/")!, method: "POST", body: Data(count: 11)))
        #expect(big.status == 413)
        let fits = try await client.send(HTTPRequest(url: URL(string: url + "/")!, method: "POST", body: Data(count: 10)))
        #expect(fits.status == 200)
        let started = Date()
        let slow = try await client.send(HTTPRequest(url: URL(string: url + "/slow")!))
        #expect(slow.status == 503)
        #expect(Date().timeIntervalSince(started) < 3)
    }

    @Test func aChunkedBodyOverTheLimitIs413AndFarOverItTheConnectionCloses() async throws {
        let server = try HTTPServer(address: "127.0.0.1", port: 0, limits: ServerLimits(maxBodyBytes: 1000)) { _ in
            ServerResponse(status: 200, contentType: "text/plain", text: "ok")
        }
        defer { server.stop() }
        // Waiting for curl polls: it must not hold a thread of the cooperative pool, which the
        // server's handlers need.
        func post(_ count: Int) async throws -> (code: Int32, out: String) {
            let result = try await runProgram(
                URL(fileURLWithPath: "/usr/bin/curl"),
                [
                    "-s", "-o", "/dev/null", "-w", "%{http_code}", "--max-time", "10", "-H", "Transfer-Encoding: chunked", "-H", "Expect:",
                    "--data-binary", String(repeating: "a", count: count), "http://127.0.0.1:\(server.port)/",
                ])
            return (result.code, result.out)
        }
        #expect(try await post(1000).out == "200")
        #expect(try await post(2000).out == "413")
        // Over four times the limit: read no further, the connection is closed (curl: empty reply).
        let far = try await post(10_000)
        #expect(far.out == "000")
        #expect(far.code == 52)
    }

    @Test func aStreamSendsWhatIsWrittenAndStopEndsIt() async throws {
        let stream = ResponseStream()
        let server = try HTTPServer(address: "127.0.0.1", port: 0) { _ in
            ServerResponse(status: 200, headers: [("Content-Type", "text/event-stream")], body: .stream(stream))
        }
        let reader = try EventStreamReader(url: "http://127.0.0.1:\(server.port)/", cookie: "-")
        stream.write("data: one\n\n")
        try await reader.waitFor("data: one")
        stream.write("data: two\n\n")
        try await reader.waitFor("data: two")
        let started = Date()
        server.stop()
        #expect(Date().timeIntervalSince(started) < 5)
        #expect(stream.isClosed)
        reader.stop()
    }

    @Test func aPortInUseIsAClearError() throws {
        let first = try HTTPServer(address: "127.0.0.1", port: 0) { _ in ServerResponse(status: 204) }
        defer { first.stop() }
        #expect(throws: HTTPServerError.self) {
            _ = try HTTPServer(address: "127.0.0.1", port: first.port) { _ in ServerResponse(status: 204) }
        }
        #expect(throws: HTTPServerError.self) {
            _ = try HTTPServer(address: "not-an-address", port: 0) { _ in ServerResponse(status: 204) }
        }
    }
}
