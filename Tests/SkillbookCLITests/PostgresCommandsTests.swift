import Foundation
import SkillbookTesting
import Testing

/// `run`, `runs`, `runs show`, `resume` and `rollback` against a PostgreSQL state
/// (`--state postgresql://…`), as real `skillbook` processes: the crash-recovery test of
/// `CrashRecoveryTests` on the shared database.
@Suite struct PostgresCommandsTests {
    @Test(arguments: CrashRecoveryTests.Recovery.allCases)
    func aKilledRunOnPostgresIsInterruptedThenRecovers(by recovery: CrashRecoveryTests.Recovery) async throws {
        let directory = TemporaryDirectory()
        let file = directory.write("crash-recovery.yaml", CrashRecoveryTests.playbook)
        directory.write("list-notes.yaml", CrashRecoveryTests.listNotes)
        let url = try await PostgresCluster.freshDatabase()
        let state = ["--state", url]

        let child = try SkillbookChild(["run", file.path, "--json"] + state, in: directory.url)
        let killed = try await child.kill(SIGKILL, after: 0) { CrashRecoveryTests.KillPoint.duringBatch.reached($0) }
        try #require(killed, "never reached the batch pause\n\(child.transcript)")
        let runID = try #require(child.events.first?["run"] as? String)

        let table = try await runSkillbook(["runs"] + state, in: directory.url)
        #expect(table.code == 0, "\(table.err)")
        #expect(table.out.contains("\(runID.prefix(8))  crash-recovery  interrupted  "), "\(table.out)")
        let show = try await runSkillbook(["runs", "show", runID, "--json"] + state, in: directory.url)
        let record = try #require(try JSONSerialization.jsonObject(with: Data(show.out.utf8)) as? [String: Any], "\(show.out)\(show.err)")
        let calls = try #require(record["calls"] as? [[String: Any]])
        #expect(calls.compactMap { $0["step"] as? String } == ["first", "nap", "second", "many", "many"])

        switch recovery {
        case .rollback:
            let undo = try await runSkillbook(["rollback", String(runID.prefix(8))] + state, in: directory.url)
            #expect(undo.code == 0, "\(undo.err)")
            #expect(try await titles(directory, url).isEmpty)
        case .resume:
            let resume = try await runSkillbook(["resume", runID, "--json"] + state, in: directory.url)
            #expect(resume.code == 0, "\(resume.err)")
            #expect(try await titles(directory, url).sorted().filter { !$0.hasPrefix("last") } == ["first", "m1", "m2", "m3", "m4", "m5", "m6", "second"])
            #expect(try await titles(directory, url).count == 9, "every note exactly once")
            let after = try await runSkillbook(["runs", "show", runID, "--json"] + state, in: directory.url)
            let resumed = try #require(try JSONSerialization.jsonObject(with: Data(after.out.utf8)) as? [String: Any])
            let sessions = try #require(resumed["sessions"] as? [[String: Any]])
            #expect(sessions.compactMap { $0["outcome"] as? String } == ["interrupted", "succeeded"])
        }
    }

    /// Issue 27 item 9: a connection string in a message keeps its `//` (it is not a file path).
    @Test func anEmptyJournalNamesTheConnectionStringUnmangled() async throws {
        let directory = TemporaryDirectory()
        let url = try await PostgresCluster.freshDatabase()
        let withPassword = url.replacingOccurrences(of: "postgresql://skillbook@", with: "postgresql://skillbook:s3cr3t@")
        let runs = try await runSkillbook(["runs", "--state", withPassword], in: directory.url)
        #expect(runs.code == 0, "\(runs.err)")
        let shown = url.replacingOccurrences(of: "postgresql://skillbook@", with: "postgresql://skillbook:***@")
        #expect(runs.err == "no runs recorded in \(shown)\n", "\(runs.err)")
    }

    @Test func aConnectionStringThatIsWrongIsReportedWithoutItsPassword() async throws {
        let directory = TemporaryDirectory()
        directory.write("list-notes.yaml", CrashRecoveryTests.listNotes)
        let result = try await runSkillbook(
            ["runs", "--state", "postgresql://me:s3cr3t@127.0.0.1:1/nowhere"], in: directory.url)
        #expect(result.code != 0)
        #expect(!result.err.contains("s3cr3t"), "\(result.err)")
        #expect(result.err.contains("cannot connect to state database postgresql://me:***@127.0.0.1:1/nowhere"), "\(result.err)")
        let env = try await runSkillbook(["runs"], in: directory.url, environment: ["SKILLBOOK_STATE": "postgresql://me:s3cr3t@127.0.0.1:1/x"])
        #expect(env.err.contains("postgresql://me:***@127.0.0.1:1/x"), "\(env.err)")
    }

    func titles(_ directory: TemporaryDirectory, _ url: String) async throws -> [String] {
        let result = try await runSkillbook(
            ["run", directory.url.appendingPathComponent("list-notes.yaml").path, "--state", url], in: directory.url)
        #expect(result.code == 0, "\(result.err)")
        let outputs = try #require(try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any], "\(result.out)")
        return try #require(outputs["titles"] as? [String])
    }
}
