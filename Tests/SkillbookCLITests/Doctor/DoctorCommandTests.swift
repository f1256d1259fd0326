import Foundation
import SkillbookCLI
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
        let model = try LocalHTTPServer(routes: ["/v1/models": .text("{\"data\":[{\"id\":\"tiny\"}]}", contentType: "application/json")])
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
        #expect((byName["model"]?["detail"] as? String) == "\(model.url("/v1")) answers (GET /models: 200)")
        #expect(model.requests.map(\.path) == ["/v1/models"])
        #expect((byName["time-zone"]?["detail"] as? String)?.hasPrefix("Europe/Berlin (UTC+0") == true)
        #expect(byName["completion"]?["status"] as? String == "warning")
        #expect(byName["completion"]?["fix"] is String)
    }

    @Test func problemsFailWithAFixEachAndExit1() async throws {
        let directory = TemporaryDirectory()
        let closed = try LocalHTTPServer()
        let url = closed.url("/v1")
        closed.stop()
        directory.write("Playbooks/hello.yaml", Self.playbook)
        directory.write("Playbooks/broken.yaml", "name: broken\nsteps:\n  - { id: a, skill: nope.nope }\n")
        directory.write("skillbook.yaml", "allow_paths: [missing]\nmodel:\n  url: \(url)\n")
        let run = await skillbook(["doctor", "--json"], in: directory)
        #expect(run.code == 1, "\(run.out)\(run.err)")
        let byName = try checks(run)
        #expect(byName["playbooks"]?["status"] as? String == "failed")
        #expect(byName["playbooks"]?["detail"] as? String == "1 of 2 playbooks have errors: \(directory.url.path)/Playbooks/broken.yaml")
        #expect(byName["model"]?["status"] as? String == "failed")
        #expect((byName["model"]?["detail"] as? String)?.hasPrefix("fetching \(url)/models failed: ") == true)
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
