import Foundation
import SkillbookCore
import SkillbookHost
import SkillbookPostgres
import SkillbookStore
import SkillbookTesting

/// `skillbook-bench postgres`: the queue on a local PostgreSQL (a throw-away cluster, as in the
/// tests, with durability off), workers in this process.
///
/// - `postgres_throughput`: runs/s of 1,000 queued no-op 3-step runs (`debug.echo`) drained by
///   4 workers of concurrency 2.
/// - `postgres_enqueue_start_p50`/`_p99`: ms from a run's queueing (server clock) to its start
///   (its claim), 200 runs queued 20 ms apart while the workers wait on NOTIFY.
/// - `postgres_failover`: s from a worker's death (its heartbeats stop) to another worker's
///   takeover of its run, with the default lease (15 s) and polling (2 s).
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
        let file = folder.appendingPathComponent("Playbooks/noop3.yaml")
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Self.playbook.write(to: file, atomically: true, encoding: .utf8)
        let database = try PostgresDatabase(url)
        let enqueuer = PostgresJournal(database: database)
        var serial = 0
        func enqueue() throws {
            serial += 1
            try enqueuer.enqueue(
                RunRecord(
                    runID: "bench-\(serial)", playbook: "noop3", source: Self.playbook, sourceHash: SourceHash.of(Self.playbook),
                    inputs: [:], trigger: "cli", started: Date(), dryRun: false),
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

        func percentile(_ p: Double) -> Double {
            latencies.isEmpty ? .nan : latencies[min(latencies.count - 1, Int((Double(latencies.count) * p).rounded(.down)))]
        }
        return [
            Figure(name: "postgres_throughput", value: throughput, unit: "runs/s"),
            Figure(name: "postgres_enqueue_start_p50", value: percentile(0.5), unit: "ms"),
            Figure(name: "postgres_enqueue_start_p99", value: percentile(0.99), unit: "ms"),
            Figure(name: "postgres_failover", value: takeover ?? .nan, unit: "s"),
        ]
    }
}
