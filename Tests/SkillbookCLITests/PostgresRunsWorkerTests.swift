import Foundation
import SkillbookCore
import SkillbookHost
import SkillbookSQL
import SkillbookPostgres
import SkillbookSQLite
import SkillbookTesting
import Testing

/// `runs` and `runs show` name the worker of each run on a PostgreSQL state: the one that holds
/// it while it runs (with its process), the one that ended it after.
@Suite struct PostgresRunsWorkerTests {
    static let playbook = """
        name: shift-note
        steps:
          - { id: hello, skill: debug.echo, with: { value: 1 } }

        """

    @Test func runsAndRunsShowNameTheWorkerOfEachRun() async throws {
        let directory = TemporaryDirectory()
        let file = directory.write("Playbooks/shift-note.yaml", Self.playbook)
        let url = try await PostgresCluster.freshDatabase()
        let host = PlaybookHost(HostConfiguration.workspace(in: directory.url, environment: [:], state: url))
        let queued = try await host.enqueue(RunRequest(playbook: file.path, trigger: "cli"))
        let other = try await host.enqueue(RunRequest(playbook: file.path, trigger: "cli"))
        let database = try PostgresDatabase(#require(PostgresURL(url)))
        let worker = PostgresJournal(database: database, heartbeatInterval: 60, leaseDuration: 60, worker: "night-shift")
        let claimed = try #require(try worker.claimNext())
        #expect(claimed.run.id == queued)
        let me = getpid()

        let table = try await runSkillbook(["runs", "--state", url], in: directory.url)
        #expect(table.code == 0, "\(table.err)")
        let lines = table.out.split(separator: "\n")
        #expect(lines.first?.hasSuffix("WORKER") == true, "\(table.out)")
        #expect(lines.contains { $0.hasPrefix(queued.prefix(8)) && $0.contains(" running ") && $0.hasSuffix(" night-shift") }, "\(table.out)")
        #expect(lines.contains { $0.hasPrefix(other.prefix(8)) && $0.contains(" queued ") && $0.hasSuffix(" -") }, "\(table.out)")

        let running = try await runSkillbook(["runs", "show", queued, "--state", url], in: directory.url)
        #expect(running.code == 0, "\(running.err)")
        let host0 = ProcessInfo.processInfo.hostName
        #expect(running.out.contains("\n  worker    night-shift (process \(me) on \(host0))\n"), "\(running.out)")
        #expect(running.out.contains("▶ worker started by process \(me) on \(host0)"), "\(running.out)")

        try worker.runFinished(
            RunResult(runID: queued, playbook: "shift-note", status: .succeeded, steps: [], started: Date(), finished: Date()))
        let json = try await runSkillbook(["runs", "show", queued, "--json", "--state", url], in: directory.url)
        let record = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any], "\(json.out)\(json.err)")
        #expect(record["worker"] as? String == "night-shift")
        #expect(record["status"] as? String == "succeeded")
        let process = try #require(record["process"] as? [String: Any])
        #expect(process["pid"] as? Int == Int(me))
        let list = try await runSkillbook(["runs", "--json", "--state", url], in: directory.url)
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(list.out.utf8)) as? [[String: Any]], "\(list.out)")
        #expect(rows.first { $0["id"] as? String == queued }?["worker"] as? String == "night-shift")
        #expect(rows.first { $0["id"] as? String == other }?["worker"] == nil)
    }
}
