import Foundation
import SkillbookCore
import SkillbookPostgres
import SkillbookSQL
import SkillbookSQLite
import SkillbookTesting

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `skillbook-bench postgres --soak N [--kill-every SECONDS]`: N queued runs of a 3-step playbook
/// that creates one note (`debug.echo`, `notes.create`, `debug.sleep` 10 ms) drained by 3 real
/// `skillbook worker` processes (concurrency 2, heartbeat 0.5 s, lease 2 s, poll 0.5 s) on a
/// throw-away local PostgreSQL, one of them killed with SIGKILL every few seconds (default 3) and
/// replaced by a new one. Not part of `make test`, nor of a plain `skillbook-bench` run.
///
/// Counts, once no run is queued or running any more (or the deadline passed):
/// - `postgres_soak_succeeded`, `postgres_soak_waiting` (killed inside `notes.create`: nothing says
///   whether the note was made, so the run waits for a person, as the resume rules say),
///   `postgres_soak_failed`;
/// - `postgres_soak_lost`: runs still queued or running, or missing;
/// - `postgres_soak_run_twice`: runs ended by more than one session, or whose `notes.create`
///   completed more than once;
/// - `postgres_soak_notes_twice`: note titles made more than once (a side effect done twice);
/// - `postgres_soak_kills`, `postgres_soak_seconds`, `postgres_soak_throughput`.
struct PostgresSoakBench {
    let state: URL
    let runs: Int
    let killEvery: Double

    static let playbook = """
        name: soak-note
        inputs:
          n: { type: integer }
        steps:
          - { id: hello, skill: debug.echo, with: { value: "${{ inputs.n }}" } }
          - { id: note, skill: notes.create, with: { title: "note ${{ inputs.n }}" } }
          - { id: nap, skill: debug.sleep, with: { seconds: 0.01 } }

        """

    static let workerArguments = ["--concurrency", "2", "--heartbeat", "0.5s", "--lease", "2s", "--poll", "0.5s", "--grace", "5s"]

    func run() async throws -> [Figure] {
        let skillbook = try ColdStartBench.skillbookBinary()
        let url = try PostgresCluster.shared.makeDatabase()
        guard let location = PostgresURL(url) else { return [] }
        let folder = state.appendingPathComponent("postgres-soak")
        let file = try BenchWorkspace.write(Self.playbook, named: "soak-note", in: folder)
        let database = try PostgresDatabase(location)
        let enqueuer = PostgresJournal(database: database)
        for n in 1...runs {
            let inputs: ValueObject = ["n": .int(n)]
            try enqueuer.enqueue(
                RunRecord(
                    runID: "soak-\(n)", playbook: "soak-note", source: Self.playbook, sourceHash: SourceHash.of(Self.playbook),
                    inputs: inputs, trigger: .cli, started: Date(), dryRun: false),
                file: file.path)
        }
        func open() throws -> Int {
            try database.query("SELECT count(*) AS n FROM runs WHERE status IN ('queued', 'running')").first?.int("n") ?? 0
        }

        var serial = 0
        func spawn() throws -> WorkerProcess {
            serial += 1
            return try WorkerProcess(skillbook: skillbook, state: url, name: "soak-\(serial)", workspace: folder, arguments: Self.workerArguments)
        }
        var workers = try (0..<3).map { _ in try spawn() }
        let clock = ContinuousClock()
        let started = clock.now
        let deadline = Date().addingTimeInterval(Double(runs) / 10 + 300)
        var kills = 0
        var nextKill = Date().addingTimeInterval(killEvery)
        while try open() > 0, Date() < deadline {
            try await Task.sleep(for: .milliseconds(100))
            guard Date() >= nextKill else { continue }
            nextKill = Date().addingTimeInterval(killEvery)
            let victim = workers.remove(at: Int.random(in: 0..<workers.count))
            try await victim.stop(SIGKILL)
            kills += 1
            workers.append(try spawn())
        }
        let seconds = (clock.now - started).seconds
        for worker in workers { try await worker.stop(SIGTERM) }

        let statuses = try database.query("SELECT status, count(*) AS n FROM runs GROUP BY status")
        var count: [String: Int] = [:]
        for row in statuses { count[row.string("status") ?? "?", default: 0] += row.int("n") ?? 0 }
        let stored = count.values.reduce(0, +)
        let lost = (count["queued"] ?? 0) + (count["running"] ?? 0) + max(0, runs - stored)
        let endedTwice = try database.query(
            """
            SELECT count(*) AS n FROM (
                SELECT run FROM sessions WHERE outcome NOT IN ('interrupted', 'abandoned') GROUP BY run HAVING count(*) > 1) AS twice
            """
        ).first?.int("n") ?? 0
        let notedTwice = try database.query(
            """
            SELECT count(DISTINCT run) AS n FROM (
                SELECT run FROM calls WHERE skill = 'notes.create' AND finished IS NOT NULL AND error IS NULL
                GROUP BY run, step HAVING count(*) > 1) AS twice
            """
        ).first?.int("n") ?? 0
        let notesTwice = try database.query(
            "SELECT count(*) AS n FROM (SELECT title FROM notes GROUP BY title HAVING count(*) > 1) AS twice"
        ).first?.int("n") ?? 0
        return [
            Figure(name: "postgres_soak_runs", value: Double(runs), unit: "runs"),
            Figure(name: "postgres_soak_succeeded", value: Double(count["succeeded"] ?? 0), unit: "runs"),
            Figure(name: "postgres_soak_waiting", value: Double(count["interrupted"] ?? 0), unit: "runs"),
            Figure(name: "postgres_soak_failed", value: Double(count["failed"] ?? 0), unit: "runs"),
            Figure(name: "postgres_soak_lost", value: Double(lost), unit: "runs"),
            Figure(name: "postgres_soak_run_twice", value: Double(endedTwice + notedTwice), unit: "runs"),
            Figure(name: "postgres_soak_notes_twice", value: Double(notesTwice), unit: "notes"),
            Figure(name: "postgres_soak_kills", value: Double(kills), unit: "kills"),
            Figure(name: "postgres_soak_seconds", value: seconds, unit: "s"),
            Figure(name: "postgres_soak_throughput", value: Double(runs) / seconds, unit: "runs/s"),
        ]
    }
}
