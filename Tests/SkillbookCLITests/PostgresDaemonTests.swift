import Foundation
import SkillbookCore
import SkillbookHost
import SkillbookTesting
import Testing

/// Several `skillbook daemon`s on one PostgreSQL state: each instant fires once (the unique fire
/// key), as a queued run that a worker runs; a daemon killed mid-way is covered by the other.
@Suite(.serialized) struct PostgresDaemonTests {
    @Test func twoDaemonsFireEachInstantOnceAndOneSurvivesTheOthersDeath() async throws {
        let directory = TemporaryDirectory()
        directory.write(
            "Playbooks/pulse.yaml",
            """
            name: pulse
            schedule: { every: 1s }
            steps:
              - { id: save, skill: notes.create, with: { title: pulse } }

            """)
        let url = try await PostgresCluster.freshDatabase()
        let workspace = ["--playbooks", directory.playbooks.path, "--state", url]
        let daemons = try ["a", "b"].map { name in
            try SkillbookChild(
                ["daemon", "--grace", "5s"] + workspace, in: directory.url,
                environment: ["SKILLBOOK_HOME": directory.url.appendingPathComponent("local-\(name)").path])
        }
        let worker = try SkillbookChild(
            ["worker", "--state", url, "--name", "w", "--poll", "0.2s", "--concurrency", "2"], in: directory.url)
        try #require(await eventually(within: 20) { daemons.allSatisfy { $0.stderr.text.contains("daemon started") } })
        try await Task.sleep(for: .seconds(2.5))
        kill(daemons[0].pid, SIGKILL)
        try await Task.sleep(for: .seconds(2.5))
        kill(daemons[1].pid, SIGTERM)
        _ = try await daemons[1].waitForExit(upTo: 20)

        let host = PlaybookHost(HostConfiguration.workspace(in: directory.url, environment: [:], state: url))
        let journal = try host.openJournal()
        #expect(await eventually(within: 30) { (try? await runningOrQueued(journal)) == 0 }, "\(worker.transcript)")
        kill(worker.pid, SIGTERM)
        _ = try await worker.waitForExit(upTo: 20)

        let runs = try await journal.runs(playbook: "pulse", status: nil, limit: 100)
        let instants = runs.compactMap(\.scheduledAt).sorted()
        #expect(instants.count == runs.count)
        #expect(runs.count >= 3, "\(daemons[1].transcript)")
        #expect(Set(instants).count == instants.count, "no instant fired twice")
        let gaps = zip(instants, instants.dropFirst()).map { $1.timeIntervalSince($0) }
        #expect(gaps.allSatisfy { abs($0 - 1) < 0.001 }, "no instant missed, though one daemon died: \(gaps)")
        #expect(runs.allSatisfy { $0.trigger == "schedule" && $0.status == .succeeded && $0.worker == "w" })
        let queued = daemons.map { $0.stderr.text.components(separatedBy: "fire queued pulse").count - 1 }
        #expect(queued.reduce(0, +) == runs.count, "\(queued)")
    }
}
