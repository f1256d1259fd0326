import Foundation
import SkillbookConsole
import SkillbookCore
import SkillbookHost
import SkillbookTesting
import Testing

/// `POST /api/v1/agent/explain` and `/api/v1/agent/ask` against the real server: the flow `skillbook
/// ask` uses, with a real chat-completions server on 127.0.0.1 planning the requests no playbook or
/// skill covers; the CLI's confirmation rule (`"approve": true` for anything that changes
/// something); the journal checked after each; secrets masked; the access rules of every POST.
@Suite struct ConsoleAgentTests {
    private func journal(_ console: ConsoleFixture) throws -> any RunJournal {
        try PlaybookHost(console.server.host.configuration).openJournal()
    }

    @Test func explainDecidesWithoutRunningAndAskRunsOnlyOnceApproved() async throws {
        try await withLocalHTTPServer { model in
            model.route("/v1/chat/completions", ChatCompletionBodies.content(ConsoleChatTests.plan))
            let console = try await ConsoleFixture.start(model: ModelSettings(url: URL(string: model.url("/v1"))!, model: "qwen"))
            defer { Task { await console.stop() } }
            try "buy milk\n".write(to: console.directory.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)
            let session = try await console.logIn()

            let explained = try await console.post("/api/v1/agent/explain", ["request": .string(ConsoleChatTests.request)], session: session)
            #expect(explained.status == 200)
            let explanation = try console.json(explained)
            #expect(explanation["outcome"] == "decided")
            let decision = try #require(explanation["decision"]?.objectValue)
            #expect(decision["layer"] == "plan")
            #expect(decision["target"] == .null)
            let steps = try #require(decision["plan"]?.arrayValue).compactMap(\.objectValue)
            #expect(steps.map { $0["skill"] } == ["files.read", "notes.create"], "\(decision)")
            #expect(explanation["actions"] == [["step": "save", "target": "notes.create"]])
            #expect(model.requests.count == 1)
            #expect(try await journal(console).runs(playbook: nil, status: nil, limit: 5).isEmpty)

            // Asking without the approval: the plan creates a note, so nothing runs.
            let refused = try await console.post("/api/v1/agent/ask", ["request": .string(ConsoleChatTests.request)], session: session)
            #expect(refused.status == 409)
            let refusal = try console.json(refused)
            #expect(refusal["outcome"] == "needs_confirmation")
            #expect(refusal["message"]?.stringValue?.contains("\"approve\": true") == true, "\(refusal)")
            #expect(try await journal(console).runs(playbook: nil, status: nil, limit: 5).isEmpty)

            // Approved: a console run, journaled, its note made.
            let asked = try await console.post(
                "/api/v1/agent/ask", ["request": .string(ConsoleChatTests.request), "approve": true], session: session)
            #expect(asked.status == 202, "\(String(decoding: asked.body, as: UTF8.self))")
            let started = try console.json(asked)
            #expect(started["outcome"] == "started")
            let id = try #require(started["run"]?.stringValue)
            #expect(started["url"] == .string("/runs/\(id)"))
            let journal = try journal(console)
            #expect(await eventually(within: 10) { (try? await journal.run(id))?.status == .succeeded })
            let run = try #require(try await journal.run(id))
            #expect(run.trigger == "console")
            let timeline = try #require(try await journal.timeline(id))
            #expect(timeline.calls.map(\.skill) == ["files.read", "notes.create"])
            #expect(model.requests.count == 3)
        }
    }

    @Test func aPlaybookRouteMasksItsSecretInputAndSaysWhatIsMissing() async throws {
        let console = try await ConsoleFixture.start()
        defer { Task { await console.stop() } }
        let session = try await console.logIn()

        // Nobody is asked for the missing input: the answer says which it is.
        let missing = try await console.post("/api/v1/agent/explain", ["request": "use my token"], session: session)
        #expect(missing.status == 200)
        let gap = try console.json(missing)
        #expect(gap["outcome"] == "missing_inputs")
        #expect(gap["missing"] == ["token"])
        #expect(gap["decision"]?.objectValue?["target"] == "secretive")
        let unanswered = try await console.post("/api/v1/agent/ask", ["request": "use my token", "approve": true], session: session)
        #expect(unanswered.status == 422)
        #expect(try console.json(unanswered)["outcome"] == "missing_inputs")

        // Given as text, as `ask -i token=…`: masked in every answer, and in the journal.
        let body: Value = ["request": "use my token", "inputs": ["token": "hunter2-secret"], "approve": true]
        let explained = try await console.post("/api/v1/agent/explain", body, session: session)
        #expect(try console.json(explained)["decision"]?.objectValue?["inputs"] == ["token": "***"])
        #expect(!String(decoding: explained.body, as: UTF8.self).contains("hunter2-secret"))
        let asked = try await console.post("/api/v1/agent/ask", body, session: session)
        #expect(asked.status == 202)
        #expect(!String(decoding: asked.body, as: UTF8.self).contains("hunter2-secret"))
        let id = try #require(try console.json(asked)["run"]?.stringValue)
        let journal = try journal(console)
        #expect(await eventually(within: 10) { (try? await journal.run(id))?.status == .succeeded })
        #expect(try await journal.run(id)?.inputs["token"] == "***")
        let page = try await console.send("GET", "/api/v1/runs/\(id)", session: session)
        #expect(!String(decoding: page.body, as: UTF8.self).contains("hunter2-secret"))

        // An input the playbook does not have.
        let unknown = try await console.post("/api/v1/agent/explain", ["request": "use my token", "inputs": ["tokn": "x"]], session: session)
        #expect(unknown.status == 400)
        #expect(try console.json(unknown)["message"]?.stringValue?.contains("did you mean 'token'?") == true)
    }

    @Test func badRequestsAndTheAccessRules() async throws {
        let console = try await ConsoleFixture.start()
        defer { Task { await console.stop() } }
        let session = try await console.logIn()
        for path in ["/api/v1/agent/explain", "/api/v1/agent/ask"] {
            let noRequest = try await console.post(path, ["inputs": [:]], session: session)
            #expect(noRequest.status == 400)
            #expect(try console.json(noRequest)["error"] == "the body needs \"request\": what you want, as text")
            let number = try await console.post(path, ["request": "use my token", "inputs": ["token": 7]], session: session)
            #expect(number.status == 400)
            let badJSON = try await console.send("POST", path, body: Data("{request".utf8), session: session)
            #expect(badJSON.status == 400)
            #expect(try console.json(badJSON)["error"]?.stringValue?.hasPrefix("the body is not valid JSON") == true)
            let badTime = try await console.post(path, ["request": "list my notes", "now": "tomorrow"], session: session)
            #expect(badTime.status == 400)
            let empty = try await console.post(path, ["request": "  "], session: session)
            #expect(empty.status == 400)
            #expect(try console.json(empty)["outcome"] == "empty_request")
            // The access rules of every POST: a session, its CSRF token, and POST only.
            #expect(try await console.send("POST", path, body: Data("{}".utf8)).status == 401)
            #expect(try await console.send("POST", path, headers: ["X-CSRF-Token": "0000"], body: Data("{}".utf8), session: session).status == 403)
            #expect(try await console.send("GET", path, session: session).status == 405)
        }
        // A request nothing here covers, with no model: the nearest targets, nothing run.
        let nothing = try await console.post("/api/v1/agent/ask", ["request": "book me a flight to Lisbon", "approve": true], session: session)
        #expect(nothing.status == 422)
        let unmatched = try console.json(nothing)
        #expect(["nothing_matched", "out_of_scope"].contains(unmatched["outcome"]?.stringValue ?? ""), "\(unmatched)")
        #expect(try await journal(console).runs(playbook: nil, status: nil, limit: 5).isEmpty)
    }
}
