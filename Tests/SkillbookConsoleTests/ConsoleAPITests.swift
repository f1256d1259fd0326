import Foundation
import SkillbookConsole
import SkillbookCore
import SkillbookHost
import Testing

/// The JSON API against the real server on 127.0.0.1, through libcurl.
@Suite struct ConsoleAPITests {
    @Test func playbooksListTellsValidFromBrokenAndOneShowsItsInputsSchema() async throws {
        let console = try await ConsoleFixture.start()
        defer { Task { await console.stop() } }
        let session = try await console.logIn()

        let list = try console.json(try await console.send("GET", "/api/v1/playbooks", session: session))
        let playbooks = try #require(list["playbooks"]?.arrayValue).compactMap(\.objectValue)
        #expect(playbooks.map { $0["name"]?.stringValue } == ["broken", "failing", "hello", "many", "note", "secretive", "shouty", "slow", "stuck"])
        let broken = try #require(playbooks.first { $0["name"] == "broken" })
        #expect(broken["valid"] == false)
        #expect(broken["errors"] == 1)
        #expect(playbooks.first { $0["name"] == "hello" }?["valid"] == true)

        let hello = try console.json(try await console.send("GET", "/api/v1/playbooks/hello", session: session))
        #expect(hello["description"] == "Says hello to someone.")
        let inputs = try #require(hello["inputs"]?.objectValue)
        #expect(inputs["x-order"] == ["name", "times"])
        #expect(inputs["properties"]?.objectValue?["times"]?.objectValue?["maximum"] == 5)
        #expect(hello["steps"]?.arrayValue?.first?.objectValue?["skill"] == "debug.echo")

        let bad = try console.json(try await console.send("GET", "/api/v1/playbooks/broken", session: session))
        let diagnostic = try #require(bad["diagnostics"]?.arrayValue?.first?.objectValue)
        #expect(diagnostic["line"] == 4)
        #expect(diagnostic["message"]?.stringValue?.contains("nosuch.skill") == true)

        #expect(try await console.send("GET", "/api/v1/playbooks/nope", session: session).status == 404)
        #expect(try await console.send("GET", "/api/v1/playbooks/..%2Fstate", session: session).status == 404)
    }

    @Test func validateReportsEveryDiagnosticWithItsLine() async throws {
        let console = try await ConsoleFixture.start()
        defer { Task { await console.stop() } }
        let session = try await console.logIn()
        let source = "name: x\nsteps:\n  - id: a\n    skill: debug.echo\n    with: { valu: 1 }\n"
        let response = try await console.post("/api/v1/validate", ["source": .string(source), "name": "x"], session: session)
        #expect(response.status == 200)
        let body = try console.json(response)
        #expect(body["valid"] == false)
        let diagnostics = try #require(body["diagnostics"]?.arrayValue).compactMap(\.objectValue)
        #expect(diagnostics.contains { $0["line"] == 5 && $0["file"] == "Playbooks/x.yaml" })

        let good = try console.json(
            try await console.post("/api/v1/validate", ["source": .string(ConsoleFixture.playbooks["hello"]!)], session: session))
        #expect(good["valid"] == true)
        #expect(good["diagnostics"] == [])
    }

    @Test func aRunStartedFromTheConsoleIsJournaledWithTriggerConsoleAndListed() async throws {
        let console = try await ConsoleFixture.start()
        defer { Task { await console.stop() } }
        let session = try await console.logIn()

        let first = try await console.startRun("hello", inputs: ["name": "Ada"], session: session)
        let run = try await console.finishedRun(first, session: session)
        #expect(run["status"] == "succeeded")
        #expect(run["trigger"] == "console")
        #expect(run["inputs"] == ["name": "Ada", "times": 1])
        #expect(run["outputs"] == ["greeting": "Hello Ada"])
        let call = try #require(run["calls"]?.arrayValue?.first?.objectValue)
        #expect(call["skill"] == "debug.echo")
        #expect(call["parameters"] == ["value": "Hello Ada"])
        #expect(run["steps"]?.arrayValue?.first?.objectValue?["status"] == "succeeded")

        let second = try await console.startRun("hello", session: session)
        _ = try await console.finishedRun(second, session: session)
        let other = try await console.startRun("slow", inputs: ["seconds": 0], session: session)
        _ = try await console.finishedRun(other, session: session)

        // Filters and pages, newest first.
        let hellos = try console.json(try await console.send("GET", "/api/v1/runs?playbook=hello&status=succeeded", session: session))
        #expect(hellos["runs"]?.arrayValue?.compactMap { $0.objectValue?["id"]?.stringValue } == [second, first])
        let page = try console.json(try await console.send("GET", "/api/v1/runs?limit=2", session: session))
        #expect(page["runs"]?.arrayValue?.count == 2)
        let cursor = try #require(page["next_cursor"]?.stringValue)
        let rest = try console.json(try await console.send("GET", "/api/v1/runs?limit=2&cursor=\(cursor)", session: session))
        #expect(rest["runs"]?.arrayValue?.compactMap { $0.objectValue?["id"]?.stringValue } == [first])
        #expect(rest["next_cursor"] == .null)
        #expect(try await console.send("GET", "/api/v1/runs?status=nonsense", session: session).status == 400)
        // A cursor this server never gave, as large as an Int goes, is refused (it once overflowed).
        #expect(try await console.send("GET", "/api/v1/runs?cursor=9223372036854775807", session: session).status == 400)
        #expect(try await console.send("GET", "/api/v1/runs?cursor=100001", session: session).status == 400)

        let strips = try console.json(try await console.send("GET", "/api/v1/runs/strips", session: session))
        #expect(strips["strips"]?.objectValue?["hello"]?.arrayValue?.count == 2)
        #expect(strips["strips"]?.objectValue?["broken"] == [])

        // By prefix, as the CLI accepts; an unknown id is 404.
        #expect(try await console.send("GET", "/api/v1/runs/\(first.prefix(8))", session: session).status == 200)
        #expect(try await console.send("GET", "/api/v1/runs/ffffffff", session: session).status == 404)
    }

    /// A big run's record lists each step's first items and counts the rest (read a page at a time).
    @Test func aBigRunListsTheFirstItemsOfEachStepAndCountsTheRest() async throws {
        let console = try await ConsoleFixture.start()
        defer { Task { await console.stop() } }
        let session = try await console.logIn()
        let id = try await console.startRun("many", inputs: ["items": .array((0..<1050).map { .int($0) })], session: session)
        let run = try await console.finishedRun(id, session: session)
        #expect(run["status"] == "succeeded")
        let calls = try #require(run["calls"]?.arrayValue).compactMap(\.objectValue)
        #expect(calls.count == 20)
        #expect(calls.map { $0["key"]?.stringValue } == (1...20).map { "each[item \($0)]" })
        #expect(run["calls_total"] == 1050)
        let left = try #require(run["calls_left_out"]?.arrayValue?.first?.objectValue)
        #expect(left == ["step": "each", "count": 1030, "succeeded": 1030, "failed": 0, "uncertain": 0, "first": "each[item 21]", "last": "each[item 1050]"])
        // A small run lists every call and leaves nothing out.
        let small = try await console.finishedRun(try await console.startRun("many", session: session), session: session)
        #expect(small["calls"]?.arrayValue?.count == 3)
        #expect(small["calls_total"] == 3)
        #expect(small["calls_left_out"] == [])
    }

    @Test func invalidInputsAreRefusedWithTheirDiagnostics() async throws {
        let console = try await ConsoleFixture.start()
        defer { Task { await console.stop() } }
        let session = try await console.logIn()
        let response = try await console.post("/api/v1/playbooks/hello/run", ["inputs": ["times": 9]], session: session)
        #expect(response.status == 400)
        let body = try console.json(response)
        #expect(body["error"] == "the inputs are not valid")
        #expect(body["diagnostics"]?.arrayValue?.isEmpty == false)
        #expect(try await console.post("/api/v1/playbooks/broken/run", [:], session: session).status == 400)
        #expect(try await console.post("/api/v1/playbooks/nope/run", [:], session: session).status == 404)
    }

    @Test func skillsAreCardsWithSchemas() async throws {
        let console = try await ConsoleFixture.start()
        defer { Task { await console.stop() } }
        let session = try await console.logIn()
        let body = try console.json(try await console.send("GET", "/api/v1/skills", session: session))
        let skills = try #require(body["skills"]?.arrayValue).compactMap(\.objectValue)
        let echo = try #require(skills.first { $0["id"] == "debug.echo" })
        #expect(echo["kind"] == "query")
        #expect(echo["available"] == true)
        #expect(echo["parameters"]?.objectValue?["required"] == ["value"])
        #expect(skills.count > 10)
    }

    @Test func eventsStreamTheRunsOfThisProcessLive() async throws {
        let console = try await ConsoleFixture.start()
        defer { Task { await console.stop() } }
        let session = try await console.logIn()
        let stream = try EventStreamReader(url: console.base + "/api/v1/events", cookie: session.cookie)
        try await stream.waitFor(": subscribed")
        let id = try await console.startRun("hello", inputs: ["name": "Bob"], session: session)
        try await stream.waitFor("\"type\":\"run.finished\"")
        let text = stream.text
        #expect(text.contains("\"type\":\"run.started\""))
        #expect(text.contains("\"run\":\"\(id)\""))
        #expect(text.contains("\"output\":{\"value\":\"Hello Bob\"}"))
        stream.stop()
    }

    @Test func runsOfOtherProcessesArriveFromTheJournal() async throws {
        let console = try await ConsoleFixture.start()
        defer { Task { await console.stop() } }
        let session = try await console.logIn()
        let stream = try EventStreamReader(url: console.base + "/api/v1/events", cookie: session.cookie)
        try await stream.waitFor(": subscribed")
        // The poller's first look at the journal is its baseline; a run after it is news.
        try await Task.sleep(nanoseconds: 500_000_000)
        // A run the console did not start (as the CLI or a daemon would), on the same state.
        let result = try await console.server.host.run(RunRequest(playbook: "hello", inputs: ["name": "Cy"], trigger: "cli"))
        try await stream.waitFor("\"type\":\"run.updated\"")
        #expect(stream.text.contains("\"run\":\"\(result.runID)\""))
        #expect(stream.text.contains("\"trigger\":\"cli\""))
        stream.stop()
    }

    @Test func aLateSubscriberOfARunGoingOnGetsItsEventsSoFar() async throws {
        let console = try await ConsoleFixture.start()
        defer { Task { await console.stop() } }
        let session = try await console.logIn()
        let id = try await console.startRun("slow", inputs: ["seconds": 1], session: session)
        try await Task.sleep(nanoseconds: 300_000_000)
        let stream = try EventStreamReader(url: console.base + "/api/v1/events?run=\(id)", cookie: session.cookie)
        try await stream.waitFor("\"type\":\"step.started\"")
        #expect(stream.text.contains("\"type\":\"run.started\""))
        try await stream.waitFor("\"type\":\"run.finished\"")
        // Only that run's events.
        let other = try await console.startRun("hello", session: session)
        _ = try await console.finishedRun(other, session: session)
        try await Task.sleep(nanoseconds: 500_000_000)
        #expect(!stream.text.contains(other))
        stream.stop()
    }
}
