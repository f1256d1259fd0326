import Foundation
import SkillbookCore
import SkillbookPostgres
import SkillbookSQL
import SkillbookTesting
import Testing

/// Where else a run's secrets could show: an MCP client's results, the console's payloads, the
/// PostgreSQL cluster's files, a model's prompt.
extension SecretLeakTests {
    /// A request that holds the workspace's secret `api` (and its upper-case form), planned by a
    /// real chat-completions server on 127.0.0.1: the bodies it got hold neither, nor does what
    /// `ask --explain` prints.
    @Test func aSecretTypedIntoARequestIsNotSentToTheModel() async throws {
        let directory = workspace()
        directory.write("notes.txt", "buy milk\n")
        let plan = #"{"steps":[{"id":"read","skill":"files.read","with":{"path":"notes.txt"}},{"id":"save","skill":"notes.create","with":{"title":"***","body":"${{ steps.read.output.content }}"}}]}"#
        try await withLocalHTTPServer { server in
            server.route("/v1/chat/completions") { _ in ChatCompletionBodies.content(plan) }
            let environment = Self.environment.merging(["SKILLBOOK_MODEL_URL": server.url("/v1"), "SKILLBOOK_MODEL": "qwen", "HOME": directory.path]) { $1 }
            let request = "read notes.txt and save it as a note titled \(Self.provided) or \(Self.provided.uppercased())"
            let run = await skillbook(["ask", request, "--explain", "--json"], in: directory, environment: environment)
            #expect(run.code == 0, "\(run.err)")
            let bodies = server.requests.filter { $0.path == "/v1/chat/completions" }.map { String(decoding: $0.body, as: UTF8.self) }
            #expect(!bodies.isEmpty, "the model was asked")
            #expect(bodies.allSatisfy { $0.contains("titled *** or ***") }, "\(bodies)")
            // `--explain --json` echoes what it understood (the inputs it captured, the plan): masked too.
            let found =
                bodies.flatMap { Self.leaks(in: $0, "a chat-completions request") } + Self.leaks(in: run.out, "ask --explain stdout")
                + Self.leaks(in: run.err, "ask --explain stderr")
            #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
        }
    }

    /// The secret inputs as an MCP client or the console sends them.
    static var secretArguments: ValueObject {
        ["token": .string(token), "key": .string(key), "born": .string(born)]
    }

    /// Both playbooks called as tools of `skillbook mcp` (progress asked for): every line the
    /// server wrote, answers and notifications, searched.
    func leaksThroughMCP(_ directory: TemporaryDirectory, state: [String]) async throws -> [String] {
        let server = try MCPStdioChild(["--tools", "playbooks", "--yes"] + state, in: directory.url, environment: Self.environment)
        let initialized = try await server.request(
            "initialize", ["protocolVersion": "2025-11-25", "capabilities": [:], "clientInfo": ["name": "leak", "version": "1"]])
        #expect(initialized["result"]?["protocolVersion"] == "2025-11-25", "\(initialized)")
        try server.notify("notifications/initialized")
        let listed = try await server.request("tools/list", [:])
        #expect(listed["result"]?["tools"]?.arrayValue?.isEmpty == false, "\(listed)")
        let succeeded = try await server.request(
            "tools/call", ["name": "leak", "arguments": .object(Self.secretArguments), "_meta": ["progressToken": "p1"]])
        #expect(succeeded["result"]?["isError"] == false, "\(succeeded)")
        #expect(succeeded["result"]?["structuredContent"]?["outputs"]?["up"] == "***", "\(succeeded)")
        var failing = Self.secretArguments
        failing["fail"] = true
        let failed = try await server.request("tools/call", ["name": "leak-undo", "arguments": .object(failing)])
        #expect(failed["result"]?["isError"] == true, "\(failed)")
        #expect(JSONText.encode(failed).contains("refused ***"), "the error, masked: \(failed)")
        var invalid = Self.secretArguments
        invalid["born"] = .string(Self.token)
        let refused = try await server.request("tools/call", ["name": "leak", "arguments": .object(invalid)])
        #expect(refused["result"]?["isError"] == true, "a secret that is not a date: \(refused)")
        try await server.close()
        #expect(server.stdout.text.contains("notifications/progress"), "progress was reported")
        return Self.leaks(in: server.stdout.text, "the MCP server's stdout") + Self.leaks(in: server.stderr.text, "the MCP server's stderr")
    }

    /// `skillbook serve` on the same state: the runs' pages, the playbooks, a run it starts itself
    /// (followed on the event stream) and a dry run, every answer searched.
    func leaksThroughTheConsole(_ directory: TemporaryDirectory, state: [String], runs: [String]) async throws -> [String] {
        let serve = try SkillbookChild(["serve", "--listen", "127.0.0.1:0"] + state, in: directory.url, environment: Self.environment)
        defer { serve.process.signal(SIGKILL) }
        #expect(await eventually(within: 60) { serve.stdout.text.contains("/login?token=") }, "\(serve.transcript)")
        let login = try #require(
            serve.stdout.text.split(separator: "\n").first { $0.contains("/login?token=") }.map {
                String($0.trimmingCharacters(in: .whitespaces).split(separator: " ").last ?? "")
            })
        let cut = try #require(login.range(of: "/login"), "\(login)")
        let base = String(login[..<cut.lowerBound])
        let jar = directory.url.appendingPathComponent("cookies").path
        let curl = URL(fileURLWithPath: "/usr/bin/curl")
        _ = try await runProgram(curl, ["-s", "-o", "/dev/null", "-c", jar, login])
        let session = try JSONText.decode(try await runProgram(curl, ["-s", "-b", jar, base + "/api/v1/session"]).out)
        let csrf = try #require(session["csrf"]?.stringValue, "\(session)")
        var found: [String] = []
        func get(_ path: String) async throws -> String {
            let body = try await runProgram(curl, ["-s", "-b", jar, base + path]).out
            found += Self.leaks(in: body, "GET \(path)")
            return body
        }
        func post(_ path: String, _ body: Value) async throws -> String {
            let answer = try await runProgram(
                curl,
                ["-s", "-b", jar, "-X", "POST", "-H", "Content-Type: application/json", "-H", "X-CSRF-Token: \(csrf)", "-d",
                 JSONText.encode(body), base + path]).out
            found += Self.leaks(in: answer, "POST \(path)")
            return answer
        }

        let stream = try SkillbookChild(["-s", "-N", "-b", jar, base + "/api/v1/events"], in: directory.url, executable: curl)
        defer { stream.process.signal(SIGKILL) }
        #expect(await eventually(within: 30) { stream.stdout.text.contains("subscribed") }, "\(stream.transcript)")
        let started = try JSONText.decode(try await post("/api/v1/playbooks/leak/run", ["inputs": .object(Self.secretArguments)]))
        let consoleRun = try #require(started["run"]?.stringValue, "\(started)")
        #expect(await eventually(within: 60) { stream.stdout.text.contains("\"run.finished\"") }, "\(stream.transcript)")
        kill(stream.pid, SIGTERM)
        _ = try await stream.waitForExit(upTo: 20)
        #expect(stream.stdout.text.contains("k=***"), "the events, masked")
        found += Self.leaks(in: stream.stdout.text, "the console's event stream")

        let dry = try await post("/api/v1/playbooks/leak/dry-run", ["inputs": .object(Self.secretArguments)])
        #expect(dry.contains("***"), "\(dry)")
        for path in ["/api/v1/runs", "/api/v1/runs/strips", "/api/v1/playbooks", "/api/v1/playbooks/leak", "/api/v1/approvals"] {
            _ = try await get(path)
        }
        for run in runs + [consoleRun] {
            let shown = try await get("/api/v1/runs/\(run)")
            #expect(shown.contains("k=***"), "\(run): \(shown)")
            _ = try await get("/api/v1/runs/\(run)/rollback")
        }
        kill(serve.pid, SIGTERM)
        _ = try await serve.waitForExit(upTo: 20)
        found += Self.leaks(in: serve.stdout.text, "serve's stdout") + Self.leaks(in: serve.stderr.text, "serve's stderr")
        return found
    }

    /// The test database's files and the cluster's WAL and log, byte by byte, after a checkpoint:
    /// a secret written and later overwritten would still be there.
    func leaksInTheClusterFiles(_ database: PostgresDatabase) throws -> [String] {
        _ = try database.query("CHECKPOINT")
        let oid = try #require(
            try database.query("SELECT oid::text FROM pg_database WHERE datname = current_database()").first?.values.first?.stringValue)
        let data = PostgresCluster.shared.directory.appendingPathComponent("data")
        var files = try allFiles(under: data.appendingPathComponent("base/\(oid)"))
        files += try allFiles(under: data.appendingPathComponent("pg_wal"))
        files.append(PostgresCluster.shared.directory.appendingPathComponent("server.log"))
        var found: [String] = []
        for file in files {
            guard let bytes = try? Data(contentsOf: file) else { continue }
            found += Self.leaks(in: String(decoding: bytes, as: UTF8.self), "the cluster's file \(file.lastPathComponent)")
        }
        return found
    }
}
