import Foundation
import SkillbookCore
import SkillbookHost
import SkillbookPostgres
import SkillbookSQLite
import SkillbookTesting
import SkillbookSQL

/// `skillbook-bench postgres`: the queue on a local PostgreSQL (a throw-away cluster, as in the
/// tests, with durability off), workers in this process.
///
/// - `postgres_throughput`: runs/s of 1,000 queued no-op 3-step runs (`debug.echo`) drained by
///   4 workers of concurrency 2.
/// - `postgres_enqueue_start_p50`/`_p99`: ms from a run's queueing (server clock) to its start
///   (its claim), 200 runs queued 20 ms apart while the workers wait on NOTIFY.
/// - `postgres_failover`: s from a worker's death (its heartbeats stop) to another worker's
///   takeover of its run, with the default lease (15 s) and polling (2 s).
/// - `postgres_failover_kill9`/`_finished`: the same with real `skillbook worker` processes (the
///   release binary next to the bench, or `SKILLBOOK_BIN`), the first killed with SIGKILL in the
///   middle of a run: s to the takeover, and to the run's end elsewhere.
///
/// `skillbook-bench postgres --soak N` runs the soak instead (see `PostgresSoakBench`).
struct PostgresBench {
    let state: URL

    static let playbook = """
        name: noop3
        steps:
          - { id: a, skill: debug.echo, with: { value: 1 } }
          - { id: b, skill: debug.echo, with: { value: 2 } }
          - { id: c, skill: debug.echo, with: { value: 3 } }

        """

    func run() async throws -> [Figure] {
        let string = try PostgresCluster.shared.makeDatabase()
        guard let url = PostgresURL(string) else { return [] }
        let folder = state.appendingPathComponent("postgres-bench")
        let file = try BenchWorkspace.write(Self.playbook, named: "noop3", in: folder)
        let database = try PostgresDatabase(url)
        let enqueuer = PostgresJournal(database: database)
        var serial = 0
        func enqueue() throws {
            serial += 1
            try enqueuer.enqueue(
                RunRecord(
                    runID: "bench-\(serial)", playbook: "noop3", source: Self.playbook, sourceHash: SourceHash.of(Self.playbook),
                    inputs: [:], trigger: .cli, started: Date(), dryRun: false),
                file: file.path)
        }
        func open() throws -> Int {
            try database.query("SELECT count(*) AS n FROM runs WHERE status IN ('queued', 'running')").first?.int("n") ?? 0
        }
        func workers(_ count: Int, leases: LeaseSettings = LeaseSettings(), poll: Double = 2) throws -> [Task<Void, Never>] {
            try (0..<count).map { index in
                var configuration = HostConfiguration.workspace(
                    in: folder, environment: [:], state: folder.appendingPathComponent("state").path)
                configuration.persistence = .postgres(string, leases: leases, worker: "bench-\(index)")
                let worker = try QueueWorker(
                    host: PlaybookHost(configuration), options: WorkerOptions(concurrency: 2, name: "bench-\(index)", pollInterval: poll),
                    log: { _ in })
                return Task { await worker.run() }
            }
        }

        // Throughput.
        for _ in 0..<1000 { try enqueue() }
        let clock = ContinuousClock()
        let started = clock.now
        var running = try workers(4)
        while try open() > 0 { try await Task.sleep(for: .milliseconds(5)) }
        let throughput = 1000 / (clock.now - started).seconds

        // Enqueue → start, the workers idle on NOTIFY.
        try database.run("DELETE FROM runs")
        for _ in 0..<200 {
            try enqueue()
            try await Task.sleep(for: .milliseconds(20))
        }
        while try open() > 0 { try await Task.sleep(for: .milliseconds(5)) }
        let latencies = try database.query("SELECT (started - queued) * 1000 AS ms FROM runs").compactMap { $0.double("ms") }.sorted()
        for task in running { task.cancel() }
        for task in running { await task.value }

        // Failover: a worker claims a run and dies (no heartbeat ever again); another takes it over.
        try database.run("DELETE FROM runs")
        let dead = PostgresJournal(database: database, heartbeatInterval: 3600, leaseDuration: 15, worker: "dead")
        try enqueue()
        let claimed = try dead.claimNext()
        let death = Date()
        running = try workers(1)
        var takeover: Double?
        while takeover == nil, Date().timeIntervalSince(death) < 60 {
            try await Task.sleep(for: .milliseconds(20))
            if let id = claimed?.run.id, try enqueuer.sessions(of: id).contains(where: { $0.kind == "takeover" }) {
                takeover = Date().timeIntervalSince(death)
            }
        }
        for task in running { task.cancel() }
        for task in running { await task.value }

        // Failover after `kill -9` of a real worker process in the middle of a run.
        let killed = try await killedWorkerFailover(state: string, folder: folder, database: database, enqueuer: enqueuer)

        func percentile(_ p: Double) -> Double {
            latencies.isEmpty ? .nan : latencies[min(latencies.count - 1, Int((Double(latencies.count) * p).rounded(.down)))]
        }
        return [
            Figure(name: "postgres_throughput", value: throughput, unit: "runs/s"),
            Figure(name: "postgres_enqueue_start_p50", value: percentile(0.5), unit: "ms"),
            Figure(name: "postgres_enqueue_start_p99", value: percentile(0.99), unit: "ms"),
            Figure(name: "postgres_failover", value: takeover ?? .nan, unit: "s"),
            Figure(name: "postgres_failover_kill9", value: killed.takeover, unit: "s"),
            Figure(name: "postgres_failover_kill9_finished", value: killed.finished, unit: "s"),
        ]
    }

    static let slowPlaybook = """
        name: slow3
        steps:
          - { id: a, skill: debug.echo, with: { value: 1 } }
          - { id: nap, skill: debug.sleep, with: { seconds: 3 } }
          - { id: c, skill: debug.echo, with: { value: 3 } }

        """

    /// Seconds from the SIGKILL of the real `skillbook worker` running a run (0.5 s into its 3 s
    /// step) to another worker's takeover of it, and to the run's end; both workers with the
    /// default lease (15 s), heartbeat (5 s) and polling (2 s).
    private func killedWorkerFailover(
        state url: String, folder: URL, database: PostgresDatabase, enqueuer: PostgresJournal
    ) async throws -> (takeover: Double, finished: Double) {
        let skillbook = try ColdStartBench.skillbookBinary()
        let file = try BenchWorkspace.write(Self.slowPlaybook, named: "slow3", in: folder)
        try database.run("DELETE FROM runs")
        func until(_ what: String, within seconds: Double, _ condition: () throws -> Bool) async throws {
            let giveUp = Date().addingTimeInterval(seconds)
            while try !condition() {
                guard Date() < giveUp else { throw BenchError("postgres: \(what) did not happen within \(Int(seconds)) s") }
                try await Task.sleep(for: .milliseconds(10))
            }
        }
        func run() throws -> Row? { try database.query("SELECT status, worker FROM runs WHERE id = 'failover-kill9'").first }

        let doomed = try WorkerProcess(skillbook: skillbook, state: url, name: "doomed", workspace: folder)
        try enqueuer.enqueue(
            RunRecord(
                runID: "failover-kill9", playbook: "slow3", source: Self.slowPlaybook, sourceHash: SourceHash.of(Self.slowPlaybook),
                inputs: [:], trigger: .cli, started: Date(), dryRun: false),
            file: file.path)
        try await until("the claim by the first worker", within: 60) { try run()?.string("worker") == "doomed" }
        let heir = try WorkerProcess(skillbook: skillbook, state: url, name: "heir", workspace: folder)
        try await Task.sleep(for: .milliseconds(500))
        try await doomed.stop(SIGKILL)
        let death = Date()
        try await until("the takeover", within: 60) { try run()?.string("worker") == "heir" }
        let takeover = Date().timeIntervalSince(death)
        try await until("the end of the run taken over", within: 60) { try run()?.string("status") == "succeeded" }
        let finished = Date().timeIntervalSince(death)
        try await heir.stop(SIGTERM)
        return (takeover, finished)
    }
}
