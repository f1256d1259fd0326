import Foundation
import SkillbookConsole
import SkillbookCore
import SkillbookHost
import SkillbookTesting
import Testing

/// The agent chat through the API: a request the model plans (a real chat-completions server on
/// 127.0.0.1), its decision and plan cards, approving it, the run journaled with trigger `console`,
/// saving it as a playbook; a playbook route asking for a secret input, masked everywhere.
@Suite struct ConsoleChatTests {
    static let request = "read notes.txt and save it as a note"
    static let plan =
        #"{"steps":[{"id":"read","skill":"files.read","with":{"path":"notes.txt"}},{"id":"save","skill":"notes.create","with":{"title":"From notes.txt","body":"${{ steps.read.output.content }}"}}]}"#

    /// The chat's state once the agent is no longer working (10 s at most).
    static func settled(_ console: ConsoleFixture, _ session: ConsoleFixture.Session) async throws -> ValueObject {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            let state = try console.json(try await console.send("GET", "/api/v1/chat", session: session))
            if state["busy"] == false { return state }
            try await Task.sleep(nanoseconds: 50_000_000)
        }
        throw FixtureError("the chat was still busy after 10 s")
    }

    @Test func aRequestIsPlannedByTheModelApprovedRunAndSavedAsAPlaybook() async throws {
        try await withLocalHTTPServer { model in
            model.route("/v1/chat/completions", ChatCompletionBodies.content(Self.plan))
            let console = try await ConsoleFixture.start(model: ModelSettings(url: URL(string: model.url("/v1"))!, model: "qwen"))
            defer { Task { await console.stop() } }
            try "buy milk\n".write(to: console.directory.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)
            let session = try await console.logIn()

            let empty = try console.json(try await console.send("GET", "/api/v1/chat", session: session))
            #expect(empty["phase"] == "idle")
            #expect(empty["messages"] == [])

            let sent = try await console.post("/api/v1/chat", ["message": .string(Self.request)], session: session)
            #expect(sent.status == 200)
            let state = try await Self.settled(console, session)
            #expect(state["phase"] == "awaiting_approval", "\(state)")
            let decision = try #require(state["decision"]?.objectValue)
            #expect(decision["layer"] == "plan")
            #expect(decision["target"] == .null)
            let plan = try #require(state["plan"]?.objectValue)
            #expect(plan["from_model"] == true)
            let steps = try #require(plan["steps"]?.arrayValue).compactMap(\.objectValue)
            #expect(steps.map { $0["id"] } == ["read", "save"])
            #expect(steps.map { $0["target"] } == ["files.read", "notes.create"])
            #expect(steps.map { $0["action"] } == [false, true])
            #expect(steps[1]["with"]?.objectValue?["title"] == "From notes.txt")
            let messages = try #require(state["messages"]?.arrayValue).compactMap(\.objectValue)
            #expect(messages.first?["role"] == "user")
            #expect(messages.first?["text"] == .string(Self.request))
            #expect(messages.last?["text"]?.stringValue?.hasSuffix("Run it?") == true)
            #expect(model.requests.count == 1)
            #expect(try await PlaybookHost(console.server.host.configuration).openJournal().runs(playbook: nil, status: nil, limit: 5).isEmpty)

            // Approve: the run starts, its events go to the run's stream, and it is journaled.
            let approved = try await console.post("/api/v1/chat/approve", [:], session: session)
            #expect(approved.status == 202)
            let ran = try await Self.settled(console, session)
            #expect(ran["phase"] == "finished", "\(ran)")
            let id = try #require(ran["run"]?.stringValue)
            let run = try await console.finishedRun(id, session: session)
            #expect(run["status"] == "succeeded")
            #expect(run["trigger"] == "console")
            #expect(run["playbook"] == "plan")
            #expect(try #require(run["steps"]?.arrayValue).count == 2)
            let answer = try #require(ran["messages"]?.arrayValue?.last?.objectValue?["text"]?.stringValue)
            #expect(answer.hasPrefix("Done: "), "\(answer)")
            #expect(ran["can_save"] == true)
            #expect(try await console.post("/api/v1/chat/approve", [:], session: session).status == 409)

            // Save as playbook: a valid file in Playbooks/, never over one that exists.
            let saved = try await console.post("/api/v1/chat/save", ["name": "milk-note"], session: session)
            #expect(saved.status == 201, "\(String(decoding: saved.body, as: UTF8.self))")
            #expect(try console.json(saved)["saved"]?.stringValue?.hasSuffix("/Playbooks/milk-note.yaml") == true)
            let file = console.directory.appendingPathComponent("Playbooks/milk-note.yaml")
            let text = try String(contentsOf: file, encoding: .utf8)
            #expect(text.contains("name: milk-note"))
            #expect(text.contains("skill: \"notes.create\""))
            #expect(text.contains("${{ steps.read.output.content }}"))
            let listed = try console.json(try await console.send("GET", "/api/v1/playbooks/milk-note", session: session))
            #expect(listed["valid"] == true)
            #expect(listed["diagnostics"] == [])
            let again = try await console.post("/api/v1/chat/save", ["name": "milk-note"], session: session)
            #expect(again.status == 409)
            #expect(try console.json(again)["error"] == "Playbooks/milk-note.yaml exists; it is not overwritten: choose another name")
            #expect(try String(contentsOf: file, encoding: .utf8) == text)
            let outside = try await console.post("/api/v1/chat/save", ["name": "../escape"], session: session)
            #expect(outside.status == 400)
            #expect(!FileManager.default.fileExists(atPath: console.directory.appendingPathComponent("escape.yaml").path))
            #expect(try FileManager.default.contentsOfDirectory(atPath: console.directory.appendingPathComponent("Playbooks").path)
                .allSatisfy { !$0.hasSuffix(".tmp") })
        }
    }

    @Test func aMissingSecretInputIsAskedForAndMaskedInEveryAnswer() async throws {
        let console = try await ConsoleFixture.start()
        defer { Task { await console.stop() } }
        let session = try await console.logIn()
        let secret = "s3cret-value-41"

        _ = try await console.post("/api/v1/chat", ["message": "use my token"], session: session)
        let asking = try await Self.settled(console, session)
        #expect(asking["phase"] == "awaiting_input", "\(asking)")
        #expect(asking["missing"] == ["token"])
        #expect(asking["decision"]?.objectValue?["layer"] == "playbook")
        #expect(asking["decision"]?.objectValue?["target"] == "secretive")

        _ = try await console.post("/api/v1/chat", ["message": .string(secret)], session: session)
        let confirming = try await Self.settled(console, session)
        #expect(confirming["phase"] == "awaiting_approval", "\(confirming)")
        let body = String(decoding: try await console.send("GET", "/api/v1/chat", session: session).body, as: UTF8.self)
        #expect(!body.contains(secret), "\(body)")
        #expect(confirming["plan"]?.objectValue?["steps"]?.arrayValue?.first?.objectValue?["with"]?.objectValue?["token"] == "***")
        // A playbook holding the secret is not written.
        let save = try await console.post("/api/v1/chat/save", ["name": "leak"], session: session)
        #expect(save.status == 409)
        #expect(!FileManager.default.fileExists(atPath: console.directory.appendingPathComponent("Playbooks/leak.yaml").path))

        // Declined: nothing runs; approved later, it runs (trigger console), the secret still masked.
        let declined = try await console.post("/api/v1/chat/decline", [:], session: session)
        #expect(declined.status == 200)
        #expect(try console.json(declined)["phase"] == "idle")
        #expect(try await PlaybookHost(console.server.host.configuration).openJournal().runs(playbook: nil, status: nil, limit: 5).isEmpty)
        #expect(try await console.post("/api/v1/chat/approve", [:], session: session).status == 202)
        let ran = try await Self.settled(console, session)
        #expect(ran["phase"] == "finished", "\(ran)")
        let id = try #require(ran["run"]?.stringValue)
        let run = try await console.finishedRun(id, session: session)
        #expect(run["trigger"] == "console")
        #expect(run["playbook"] == "secretive")
        let after = String(decoding: try await console.send("GET", "/api/v1/chat", session: session).body, as: UTF8.self)
        #expect(!after.contains(secret), "\(after)")
        let record = String(decoding: try await console.send("GET", "/api/v1/runs/\(id)", session: session).body, as: UTF8.self)
        #expect(!record.contains(secret))
    }

    @Test func chatRequestsAreCheckedAndBounded() async throws {
        let console = try await ConsoleFixture.start { $0.tokenIsReusable = true }
        defer { Task { await console.stop() } }
        let session = try await console.logIn()
        #expect(try await console.send("GET", "/api/v1/chat").status == 401)
        let noToken = try await console.send(
            "POST", "/api/v1/chat", body: Data(#"{"message":"hi"}"#.utf8), session: ConsoleFixture.Session(cookie: session.cookie, csrf: "wrong"))
        #expect(noToken.status == 403)
        let bad = try await console.send("POST", "/api/v1/chat", body: Data("{".utf8), session: session)
        #expect(bad.status == 400)
        #expect(try console.json(bad)["error"]?.stringValue?.hasPrefix("the body is not valid JSON") == true)
        #expect(try await console.post("/api/v1/chat", ["text": "hi"], session: session).status == 400)
        #expect(try await console.post("/api/v1/chat", ["message": "   "], session: session).status == 400)
        let long = try await console.post("/api/v1/chat", ["message": .string(String(repeating: "a", count: 4_001))], session: session)
        #expect(long.status == 413)
        #expect(try console.json(long)["error"] == "\"message\" has 4001 characters; at most 4000 are taken")
        #expect(try await console.post("/api/v1/chat/approve", [:], session: session).status == 409)
        #expect(try await console.post("/api/v1/chat/decline", [:], session: session).status == 409)
        #expect(try await console.post("/api/v1/chat/save", ["name": "x"], session: session).status == 409)
        #expect(try await console.send("PUT", "/api/v1/chat", headers: ["X-CSRF-Token": session.csrf], session: session).status == 405)

        // Each browser session has its own chat.
        _ = try await console.post("/api/v1/chat", ["message": "use my token"], session: session)
        let other = try await console.logIn()
        let theirs = try console.json(try await console.send("GET", "/api/v1/chat", session: other))
        #expect(theirs["messages"] == [])
        let reset = try await console.post("/api/v1/chat/reset", [:], session: session)
        #expect(reset.status == 200)
        #expect(try console.json(try await console.send("GET", "/api/v1/chat", session: session))["messages"] == [])

        // `Limits.chatMessageCharacters`: 4,000 characters are taken (4,001 were refused above).
        #expect(Limits.chatMessageCharacters == 4_000)
        let atLimit = try await console.post("/api/v1/chat", ["message": .string(String(repeating: "a", count: 4_000))], session: other)
        #expect(atLimit.status != 413)
        #expect(try console.json(atLimit)["error"]?.stringValue?.contains("characters") != true)
    }
}
