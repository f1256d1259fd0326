import Foundation
import SkillbookCLI
import SkillbookCore
import SkillbookHost
import SkillbookSQLite
import SkillbookTesting
import Testing

/// `skillbook doctor`: each check against a real workspace, state, model server and lock.
@Suite struct DoctorCommandTests {
    private static let playbook = "name: hello\ndescription: Says hello.\nsteps:\n  - { id: a, skill: notes.list }\n"

    private func checks(_ run: CLIRun) throws -> [String: JSONObject] {
        let report = try #require(try parseJSON(run.out) as? JSONObject, "\(run.out)\(run.err)")
        let list = try #require(report["checks"] as? [JSONObject])
        return Dictionary(list.map { ($0["name"] as? String ?? "", $0) }, uniquingKeysWith: { first, _ in first })
    }

    @Test func aHealthyWorkspaceWithAModelPassesEveryCheck() async throws {
        let directory = TemporaryDirectory()
        let model = try LocalHTTPServer()
        model.route("/v1/chat/completions", Self.answeringUnderTheSchema)
        directory.write("Playbooks/hello.yaml", Self.playbook)
        directory.write("shared/.keep", "")
        directory.write("skillbook.yaml", "timezone: Europe/Berlin\nallow_paths: [shared]\nmodel:\n  url: \(model.url("/v1"))\n")
        let run = await skillbook(["doctor", "--json"], in: directory, environment: ["HOME": directory.url.path])
        #expect(run.code == 0, "\(run.out)\(run.err)")
        let report = try #require(try parseJSON(run.out) as? JSONObject)
        #expect(report["ok"] as? Bool == true)
        let list = try #require(report["checks"] as? [JSONObject])
        #expect(
            list.map { $0["name"] as? String } == [
                "workspace", "skills", "playbooks", "schedules", "state", "journal", "daemon", "model", "libcurl", "libpq",
                "libmicrohttpd", "allowed-paths", "time-zone", "completion",
            ])
        let byName = try checks(run)
        for name in byName.keys where name != "completion" { #expect(byName[name]?["status"] as? String == "ok", "\(name): \(byName[name]!)") }
        #expect(byName["playbooks"]?["detail"] as? String == "1 playbook in \(directory.url.path)/Playbooks, all valid")
        #expect((byName["state"]?["detail"] as? String)?.hasSuffix("writable, schema version \(StateDatabase.schemaVersion) (current)") == true)
        #expect((byName["model"]?["detail"] as? String) == "\(model.url("/v1")) answers the schema request")
        // One request, the planner's kind: a chat completion constrained by a JSON Schema.
        #expect(model.requests.map(\.path) == ["/v1/chat/completions"])
        let body = try #require(try? JSONText.decode(model.requests[0].text))
        #expect(body["response_format"]?["type"] == "json_schema")
        #expect(body["response_format"]?["json_schema"]?["schema"]?["required"] == ["ok"])
        #expect((byName["time-zone"]?["detail"] as? String)?.hasPrefix("Europe/Berlin (UTC+0") == true)
        #expect(byName["completion"]?["status"] as? String == "warning")
        #expect(byName["completion"]?["fix"] is String)
    }

    /// A model server that answers what it is asked under the schema it is given: `{"ok": true}`
    /// when the request carries a `json_schema` response format, prose otherwise.
    static let answeringUnderTheSchema: LocalHTTPServer.Handler = { request in
        let body = try? JSONText.decode(request.text)
        guard body?["response_format"]?["type"] == "json_schema" else { return ChatCompletionBodies.content("Yes, I am here!") }
        return ChatCompletionBodies.content("{\"ok\": true}")
    }

    @Test func aModelThatIsReachableButDoesNotKeepToTheSchemaIsAProblem() async throws {
        let directory = TemporaryDirectory()
        directory.write("Playbooks/hello.yaml", Self.playbook)
        let model = try LocalHTTPServer()
        directory.write("skillbook.yaml", "model:\n  url: \(model.url("/v1"))\n  name: tiny\n")

        // Prose where JSON of the schema was asked for (a server that ignores response_format).
        model.route("/v1/chat/completions", ChatCompletionBodies.content("Yes, I am here!"))
        var model1 = try #require(try checks(await skillbook(["doctor", "--json"], in: directory))["model"])
        #expect(model1["status"] as? String == "failed")
        #expect(model1["detail"] as? String == "\(model.url("/v1")) (model tiny) answers, but not in the schema it was given: 'Yes, I am here!'")
        #expect((model1["fix"] as? String)?.contains("response_format json_schema") == true)

        // A server that refuses structured output.
        model.route(
            "/v1/chat/completions",
            .text("{\"error\":{\"message\":\"response_format json_schema is not supported\"}}", status: 400, contentType: "application/json"))
        model1 = try #require(try checks(await skillbook(["doctor", "--json"], in: directory))["model"])
        #expect(model1["status"] as? String == "failed")
        #expect((model1["detail"] as? String)?.hasPrefix("\(model.url("/v1")) is reachable but refused the schema request: ") == true, "\(model1)")
        #expect((model1["detail"] as? String)?.contains("not supported") == true, "\(model1)")

        // A key the server does not take.
        model.route("/v1/chat/completions", .status(401, "{\"error\":{\"message\":\"bad key\"}}"))
        model1 = try #require(try checks(await skillbook(["doctor", "--json"], in: directory))["model"])
        #expect((model1["fix"] as? String)?.hasPrefix("set SKILLBOOK_API_KEY") == true, "\(model1)")

        // And once it keeps to the schema, all is well.
        model.route("/v1/chat/completions", Self.answeringUnderTheSchema)
        let run = await skillbook(["doctor", "--json"], in: directory)
        #expect(try checks(run)["model"]?["detail"] as? String == "\(model.url("/v1")) (model tiny) answers the schema request")
        #expect(run.code == 0, "\(run.out)")
        model.stop()
    }

    /// A workspace whose `Skills/demo.yaml` declares the demo MCP server (`skillbook-mcp-testserver`).
    static func mcpWorkspace() -> TemporaryDirectory {
        let directory = TemporaryDirectory()
        directory.write("Playbooks/hello.yaml", Self.playbook)
        directory.write("Skills/demo.yaml", "mcp:\n  command: [\(testServer)]\n  prefix: demo\n")
        return directory
    }

    /// The demo MCP server executable (built with the tests).
    static var testServer: String {
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().path,
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent(".build/debug").path,
        ].map { "\($0)/skillbook-mcp-testserver" }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) } ?? candidates[1]
    }

    @Test func eachMCPServerStartsAndItsCachedToolListIsCurrent() async throws {
        let directory = Self.mcpWorkspace()
        let first = await skillbook(["doctor", "--json"], in: directory)
        let check = try #require(try checks(first)["mcp:demo"], "\(first.out)\(first.err)")
        #expect(check["status"] as? String == "ok", "\(check)")
        let detail = try #require(check["detail"] as? String)
        #expect(detail.hasPrefix("starts (skillbook-mcp-testserver 1.0), "), "\(detail)")
        #expect(detail.hasSuffix(" tools, as in its cached tool list"), "\(detail)")
        #expect(first.code == 0, "\(first.out)")

        // The cache says something the server no longer does: one tool gone from it, another's
        // description changed (as after the server was upgraded without its command changing).
        let folder = directory.state.appendingPathComponent("mcp")
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: folder.path).first { $0.hasSuffix(".json") })
        let file = folder.appendingPathComponent(name)
        var cache = try #require(try JSONText.decode(String(contentsOf: file, encoding: .utf8)).objectValue)
        var tools = try #require(cache["tools"]?.arrayValue)
        #expect(tools.count >= 2)
        let gone = try #require(tools.removeFirst()["name"]?.stringValue)
        var changed = try #require(tools[0].objectValue)
        let changedName = try #require(changed["name"]?.stringValue)
        changed["description"] = "what it did last year"
        tools[0] = .object(changed)
        cache["tools"] = .array(tools)
        try JSONText.encode(.object(cache)).write(to: file, atomically: true, encoding: .utf8)

        let stale = await skillbook(["doctor", "--json"], in: directory)
        #expect(stale.code == 1)
        let staleCheck = try #require(try checks(stale)["mcp:demo"])
        #expect(staleCheck["status"] as? String == "failed")
        #expect((staleCheck["detail"] as? String)?.hasSuffix("the cached tool list is stale (new: \(gone); changed: \(changedName))") == true, "\(staleCheck)")
        #expect((staleCheck["fix"] as? String)?.hasPrefix("skillbook skills --refresh") == true)
        let text = await skillbook(["doctor"], in: directory)
        #expect(text.out.contains("failed   mcp:demo"), "\(text.out)")

        // The fix it names fixes it.
        #expect(await skillbook(["skills", "--refresh"], in: directory).code == 0)
        let fixed = await skillbook(["doctor", "--json"], in: directory)
        #expect(try checks(fixed)["mcp:demo"]?["status"] as? String == "ok")
        #expect(fixed.code == 0, "\(fixed.out)")
    }

    @Test func anMCPServerThatDoesNotStartIsAProblemNamingItsManifest() async throws {
        let directory = TemporaryDirectory()
        directory.write("Playbooks/hello.yaml", Self.playbook)
        directory.write("Skills/gone.yaml", "mcp:\n  command: [\(directory.url.path)/no-such-server]\n  prefix: gone\n")
        let run = await skillbook(["doctor", "--json"], in: directory)
        #expect(run.code == 1)
        let check = try #require(try checks(run)["mcp:gone"], "\(run.out)")
        #expect(check["status"] as? String == "failed")
        #expect((check["detail"] as? String)?.hasPrefix("does not start or list its tools: ") == true, "\(check)")
        #expect(check["fix"] as? String == "correct the mcp: command at \(directory.url.path)/Skills/gone.yaml:1:1, or run it by hand to see why: \(directory.url.path)/no-such-server")
    }

    @Test func problemsFailWithAFixEachAndExit1() async throws {
        let directory = TemporaryDirectory()
        // Port 1: nothing listens there, and no test server can take it (they bind ephemeral ports;
        // a port freed a moment ago was taken by another test's model server in a parallel run).
        let url = "http://127.0.0.1:1/v1"
        directory.write("Playbooks/hello.yaml", Self.playbook)
        directory.write("Playbooks/broken.yaml", "name: broken\nsteps:\n  - { id: a, skill: nope.nope }\n")
        directory.write("skillbook.yaml", "allow_paths: [missing]\nmodel:\n  url: \(url)\n")
        let run = await skillbook(["doctor", "--json"], in: directory)
        #expect(run.code == 1, "\(run.out)\(run.err)")
        let byName = try checks(run)
        #expect(byName["playbooks"]?["status"] as? String == "failed")
        #expect(byName["playbooks"]?["detail"] as? String == "1 of 2 playbooks have errors: \(directory.url.path)/Playbooks/broken.yaml")
        #expect(byName["model"]?["status"] as? String == "failed")
        #expect((byName["model"]?["detail"] as? String)?.hasPrefix("cannot reach the model server: ") == true, "\(byName["model"]!)")
        #expect(byName["allowed-paths"]?["status"] as? String == "failed")
        #expect(byName["allowed-paths"]?["detail"] as? String == "not a folder: \(directory.url.path)/missing")
        for name in ["playbooks", "model", "allowed-paths"] { #expect(byName[name]?["fix"] is String, "\(name)") }
        #expect(byName["state"]?["status"] as? String == "ok")

        let text = await skillbook(["doctor"], in: directory)
        #expect(text.code == 1)
        let lines = text.out.split(separator: "\n").map(String.init)
        #expect(lines.contains("failed   allowed-paths  not a folder: \(directory.url.path)/missing"), "\(text.out)")
        #expect(lines.contains { $0.hasPrefix("                        fix: create it, or remove it from allow_paths") }, "\(text.out)")
        #expect(lines.last == "3 problems found (1 warning)", "\(text.out)")
    }

    @Test func aMistakeInSkillbookYAMLIsNamedAtItsPlace() async throws {
        let directory = TemporaryDirectory()
        directory.write("skillbook.yaml", "timezone: Mars/Olympus\n")
        let run = await skillbook(["doctor", "--json"], in: directory)
        #expect(run.code == 1)
        let byName = try checks(run)
        #expect(byName.count == 1)
        let detail = try #require(byName["workspace"]?["detail"] as? String)
        #expect(detail.hasPrefix("\(directory.url.path)/skillbook.yaml:1:11: error: unknown time zone 'Mars/Olympus'"), "\(detail)")
    }

    @Test func noWorkspaceSaysHowToMakeOne() async throws {
        let directory = TemporaryDirectory()
        let run = await skillbook(["doctor"], in: directory)
        #expect(run.code == 1)
        #expect(run.out.hasPrefix("failed   workspace  no workspace in \(directory.url.standardizedFileURL.path) or above"), "\(run.out)")
        #expect(run.out.contains("fix: run 'skillbook new NAME'"))
    }

    @Test func aStateThatCannotBeWrittenFails() async throws {
        let directory = TemporaryDirectory()
        directory.write("Playbooks/hello.yaml", Self.playbook)
        directory.write("state", "a file where the state folder should be")
        let run = await skillbook(["doctor", "--json"], in: directory)
        #expect(run.code == 1)
        let byName = try checks(run)
        #expect(byName["state"]?["status"] as? String == "failed")
        #expect((byName["state"]?["fix"] as? String)?.hasPrefix("pass --state DIR|URL") == true)
    }

    /// A state database that is no database: both checks say so in the store's words (the journal
    /// check had shown `store(…)`, the host error's case).
    @Test func aStateDatabaseThatIsNoDatabaseIsSaidPlainly() async throws {
        let directory = TemporaryDirectory()
        directory.write("Playbooks/hello.yaml", Self.playbook)
        directory.write("state/skillbook.sqlite", String(repeating: "not a database ", count: 500))
        let run = await skillbook(["doctor", "--json"], in: directory)
        #expect(run.code == 1)
        let byName = try checks(run)
        let message = "state database \(directory.state.path)/skillbook.sqlite is not a valid SQLite database (file is not a database); "
            + "move it aside or use another state directory"
        #expect(byName["state"]?["detail"] as? String == message, "\(run.out)")
        #expect(byName["journal"]?["detail"] as? String == message, "\(run.out)")
    }

    @Test func aRunningDaemonIsNamedByItsPid() async throws {
        let directory = TemporaryDirectory()
        directory.write("Playbooks/hello.yaml", Self.playbook)
        do {
            let lock = try DaemonLock(stateDirectory: directory.state)
            let run = await skillbook(["doctor", "--json"], in: directory)
            #expect(try checks(run)["daemon"]?["detail"] as? String == "a daemon (pid \(getpid())) holds \(directory.state.path)/daemon.pid")
            withExtendedLifetime(lock) {}
        }
        let after = await skillbook(["doctor", "--json"], in: directory)
        #expect((try checks(after)["daemon"]?["detail"] as? String)?.hasPrefix("no daemon holds \(directory.state.path)/daemon.pid") == true)
    }

    @Test func theJournalCountsRunsAndNamesTheOldest() async throws {
        let directory = TemporaryDirectory()
        directory.write("Playbooks/hello.yaml", Self.playbook)
        #expect(await skillbook(["run", "hello"], in: directory).code == 0)
        #expect(await skillbook(["run", "hello"], in: directory).code == 0)
        let detail = try #require(try checks(await skillbook(["doctor", "--json"], in: directory))["journal"]?["detail"] as? String)
        #expect(detail.hasPrefix("2 runs, "), "\(detail)")
        #expect(detail.contains(" MB in \(directory.state.path)/skillbook.sqlite, oldest 20"), "\(detail)")
    }

    @Test func aPostgreSQLStateIsCheckedThroughItsConnection() async throws {
        let directory = TemporaryDirectory()
        directory.write("Playbooks/hello.yaml", Self.playbook)
        let url = try await PostgresCluster.freshDatabase()
        let captured = CapturedOutput()
        let code = await SkillbookCLI.run(
            ["doctor", "--json", "--state", url], console: captured.console, environment: ["HOME": directory.url.path],
            currentDirectory: directory.url)
        let byName = try checks(CLIRun(code: code, out: captured.out, err: captured.err))
        #expect(byName["state"]?["status"] as? String == "ok", "\(captured.out)")
        #expect((byName["state"]?["detail"] as? String)?.hasPrefix("PostgreSQL: writable, schema version ") == true)
        #expect(byName["libpq"]?["status"] as? String == "ok")
    }
}
