import Foundation
import SkillbookCore
import SkillbookHost
import SkillbookSQL
import SkillbookPostgres
import SkillbookSQLite
import SkillbookTesting
import Testing

/// `skillbook run --queue` and `skillbook worker` on a PostgreSQL state, as real processes:
/// workers killed or paused mid-run, runs taken over and continued elsewhere.
@Suite(.serialized) struct WorkerTests {
    static let playbook = """
        name: queued-note
        inputs:
          n: { type: integer }
        steps:
          - { id: hello, skill: debug.echo, with: { value: "${{ inputs.n }}" } }
          - { id: note, skill: notes.create, with: { title: "note ${{ inputs.n }}" } }
          - { id: nap, skill: debug.sleep, with: { seconds: 0.05 } }

        """

    /// Short leases, so a takeover happens in about a second.
    static let fast = ["--heartbeat", "0.2s", "--lease", "1s", "--poll", "0.2s", "--concurrency", "2"]

    @Test func threeWorkersRunThreeHundredRunsOnceEachThoughOneIsKilled() async throws {
        let directory = TemporaryDirectory()
        let file = directory.write("Playbooks/queued-note.yaml", Self.playbook)
        let url = try await PostgresCluster.freshDatabase()
        let host = PlaybookHost(HostConfiguration.workspace(in: directory.url, environment: [:], state: url))
        var ids: [String] = []
        for n in 1...300 {
            ids.append(try await host.enqueue(RunRequest(playbook: file.path, inputTexts: [(key: "n", text: "\(n)")], trigger: "cli")))
        }
        let workers = try (1...3).map { index in
            try SkillbookChild(["worker", "--state", url, "--name", "w\(index)"] + Self.fast, in: directory.url)
        }
        // Kill the first worker once it has finished a few runs (it is then in the middle of others).
        let victim = workers[0]
        let reached = await eventually(within: 60) { victim.stderr.text.components(separatedBy: "run finished").count > 10 }
        try #require(reached, "\(victim.transcript)")
        kill(victim.pid, SIGKILL)

        let journal = try host.openJournal()
        // As stored, not as reported: a dead worker's run reads `interrupted` until a worker takes it over.
        let database = try PostgresDatabase(#require(PostgresURL(url)))
        func open() -> Int? {
            try? database.query("SELECT count(*) AS n FROM runs WHERE status IN ('running', 'queued')").first?.int("n")
        }
        let done = await eventually(within: 120) { open() == 0 }
        for worker in workers.dropFirst() { kill(worker.pid, SIGTERM) }
        for worker in workers.dropFirst() { _ = try await worker.waitForExit(upTo: 30) }
        #expect(done, "runs left: \(String(describing: open()))\n\(workers[1].transcript)")

        let runs = try await journal.runs(playbook: "queued-note", status: nil, limit: 1000)
        #expect(runs.count == 300)
        let succeeded = runs.filter { $0.status == .succeeded }
        // A run killed inside `notes.create` (not idempotent) waits for a person; everything else ended once.
        let waiting = runs.filter { $0.status == .interrupted }
        #expect(succeeded.count + waiting.count == 300, "\(Dictionary(grouping: runs, by: \.status).mapValues(\.count))")
        #expect(waiting.count <= 2)
        for run in waiting {
            let calls = try await journal.calls(of: run.id)
            #expect(calls.last?.skill == "notes.create" && calls.last?.isUncertain == true)
        }
        #expect(Set(runs.compactMap(\.worker)).isSubset(of: ["w1", "w2", "w3"]))
        #expect(runs.contains { $0.worker == "w2" } && runs.contains { $0.worker == "w3" })
        let takenOver = try await runs.asyncFilter { try await journal.sessions(of: $0.id).contains { $0.kind == "takeover" } }
        // The killed worker's runs were taken over, or (killed inside `notes.create`) wait for a person.
        #expect(!takenOver.isEmpty || !waiting.isEmpty, "the killed worker's runs were neither taken over nor left waiting")

        let notes = try await host.persistence.stores.notes().list(tag: nil, limit: 1000).map(\.title)
        let expected = Set(succeeded.compactMap { $0.inputs["n"]?.intValue }.map { "note \($0)" })
        #expect(Set(notes).isSuperset(of: expected))
        #expect(notes.count == Set(notes).count, "no note was created twice")
        #expect(notes.count <= 300)

        let table = try await runSkillbook(["runs", "--state", url, "--limit", "5"], in: directory.url)
        #expect(table.code == 0)
        #expect(table.out.hasPrefix("ID "), "\(table.out)")
        #expect(table.out.split(separator: "\n").first?.hasSuffix("WORKER") == true, "\(table.out)")
        #expect(table.out.split(separator: "\n").dropFirst().allSatisfy { $0.hasSuffix(" w1") || $0.hasSuffix(" w2") || $0.hasSuffix(" w3") }, "\(table.out)")
    }

    @Test func aPausedWorkerCannotWriteOnceItsLeaseWasTakenOver() async throws {
        let directory = TemporaryDirectory()
        let file = directory.write(
            "Playbooks/slow-note.yaml",
            """
            name: slow-note
            steps:
              - { id: nap, skill: debug.sleep, with: { seconds: 2 } }
              - { id: note, skill: notes.create, with: { title: only once } }

            """)
        let url = try await PostgresCluster.freshDatabase()
        let host = PlaybookHost(HostConfiguration.workspace(in: directory.url, environment: [:], state: url))
        let runID = try await host.enqueue(RunRequest(playbook: file.path, trigger: "cli"))
        let zombie = try SkillbookChild(["worker", "--state", url, "--name", "zombie"] + Self.fast, in: directory.url)
        try #require(await eventually(within: 30) { zombie.stderr.text.contains("claimed slow-note run=\(runID)") }, "\(zombie.transcript)")
        kill(zombie.pid, SIGSTOP)
        let rescuer = try SkillbookChild(["worker", "--state", url, "--name", "rescuer"] + Self.fast, in: directory.url)
        let journal = try host.openJournal()
        let finished = await eventually(within: 30) { (try? await journal.run(runID))??.status == .succeeded }
        kill(zombie.pid, SIGCONT)
        #expect(finished, "\(rescuer.transcript)")
        // The zombie wakes inside its sleep, then finds its lease gone: its writes are refused and it stops the run.
        let stopped = await eventually(within: 15) { zombie.stderr.text.contains("lease lost run=\(runID)") }
        #expect(stopped, "\(zombie.transcript)")
        try await Task.sleep(for: .seconds(2.5))  // past the zombie's sleep: it would create the note now
        for worker in [zombie, rescuer] { kill(worker.pid, SIGTERM) }
        for worker in [zombie, rescuer] { _ = try await worker.waitForExit(upTo: 30) }

        let notes = try await host.persistence.stores.notes().list(tag: nil, limit: 10).map(\.title)
        #expect(notes == ["only once"])
        let run = try #require(try await journal.run(runID))
        #expect(run.status == .succeeded)
        #expect(run.worker == "rescuer")
        let sessions = try await journal.sessions(of: runID)
        #expect(sessions.map(\.kind) == ["worker", "takeover"])
        #expect(sessions.map(\.outcome) == ["interrupted", "succeeded"])
        #expect(try await journal.calls(of: runID).filter { $0.skill == "notes.create" }.count == 1)
    }
}

/// How many runs are running or queued.
func runningOrQueued(_ journal: any RunJournal) async throws -> Int {
    try await journal.runs(playbook: nil, status: .running, limit: 1000).count
        + journal.runs(playbook: nil, status: .queued, limit: 1000).count
}

extension Array where Element: Sendable {
    func asyncFilter(_ keep: (Element) async throws -> Bool) async rethrows -> [Element] {
        var kept: [Element] = []
        for element in self where try await keep(element) { kept.append(element) }
        return kept
    }
}
