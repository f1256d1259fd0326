import Foundation
import SkillbookCore
import SkillbookSkills
import SkillbookTesting
import Testing

@Suite struct WebRequestSkillTests {
    @Test func sendsEachMethodWithItsBody() async throws {
        try await withWeb { web, server in
            server.route("/items", .text("done", status: 201))
            for method in ["POST", "PUT", "PATCH", "DELETE"] {
                let output = try await web.run(
                    "web.request",
                    ["url": .string(server.url("/items")), "method": .string(method), "body": "plain words"])
                #expect(output["status"] == 201)
                #expect(output["text"] == "done")
                let request = try #require(server.requests.last)
                #expect(request.method == method)
                #expect(request.text == "plain words")
                #expect(request.header("content-type") == "text/plain; charset=utf-8")
            }
            _ = try await web.run("web.request", ["url": .string(server.url("/items"))])
            #expect(server.requests.last?.method == "POST")
        }
    }

    @Test func jsonBodiesAreSentAsJSON() async throws {
        try await withWeb { web, server in
            server.route("/api", .text("{}", contentType: "application/json"))
            _ = try await web.run("web.request", ["url": .string(server.url("/api")), "body": #" {"a": [1, 2]} "#])
            #expect(server.requests.last?.header("content-type") == "application/json")
            _ = try await web.run(
                "web.request",
                ["url": .string(server.url("/api")), "body": "{}", "headers": ["Content-Type": "application/vnd.x+json"]])
            #expect(server.requests.last?.header("content-type") == "application/vnd.x+json")
            _ = try await web.run("web.request", ["url": .string(server.url("/api")), "body": "{not json"])
            #expect(server.requests.last?.header("content-type") == "text/plain; charset=utf-8")
        }
    }

    @Test func objectAndArrayBodiesAreSentAsJSON() async throws {
        try await withWeb { web, server in
            server.route("/api", .text("{}", contentType: "application/json"))
            _ = try await web.run(
                "web.request", ["url": .string(server.url("/api")), "body": ["title": "Milk", "tags": ["shop", 2]]])
            #expect(server.requests.last?.header("content-type") == "application/json")
            #expect(server.requests.last?.text == #"{"title":"Milk","tags":["shop",2]}"#)
            _ = try await web.run("web.request", ["url": .string(server.url("/api")), "method": "PUT", "body": [1, 2]])
            #expect(server.requests.last?.text == "[1,2]")
            #expect(server.requests.last?.header("content-type") == "application/json")
            let before = server.requests.count
            await expectFailure("web.request 'body' must be a string, an object or an array, got integer") {
                _ = try await web.run("web.request", ["url": .string(server.url("/api")), "body": 42])
            }
            #expect(server.requests.count == before, "nothing was sent")
        }
    }

    @Test func errorStatusesFail() async throws {
        try await withWeb { web, server in
            server.route("/broken", .status(500))
            await expectFailure("POST \(server.url("/broken")) returned 500 Internal Server Error") {
                _ = try await web.run("web.request", ["url": .string(server.url("/broken")), "body": "x"])
            }
            let output = try await web.run(
                "web.request", ["url": .string(server.url("/broken")), "fail_on_error": false])
            #expect(output["status"] == 500)
        }
    }

    @Test func timesOutNamingTheMethod() async throws {
        try await withWeb { web, server in
            server.route("/slow", LocalHTTPServer.Response.text("late").delayed(by: 30))
            await expectFailure("PUT \(server.url("/slow")) timed out after 0.5s") {
                _ = try await web.run(
                    "web.request", ["url": .string(server.url("/slow")), "method": "PUT", "timeout": 0.5])
            }
        }
    }

    @Test func readingIsNotARequest() async throws {
        try await withWeb { web, server in
            let skill = try web.skill("web.request")
            await expectFailure("web.request sends POST, PUT, PATCH or DELETE; use web.fetch to GET") {
                _ = try await skill.run(["url": .string(server.url("/")), "method": "GET"], context: web.context)
            }
            await expectFailure("refusing 'file:///tmp/x': only http and https addresses can be fetched (file: is not allowed)") {
                _ = try await web.run("web.request", ["url": "file:///tmp/x", "body": "x"])
            }
        }
    }

    @Test func readingIsAQueryAndSendingAsks() async throws {
        try await withWeb { web, _ in
            let fetch = try web.skill("web.fetch").descriptor
            #expect(fetch.kind == .query && !fetch.confirm && fetch.idempotent && !fetch.reversible)
            let request = try web.skill("web.request").descriptor
            #expect(request.kind == .action && request.confirm && !request.idempotent && !request.reversible)
        }
    }
}
