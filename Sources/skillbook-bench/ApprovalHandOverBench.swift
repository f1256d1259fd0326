import Foundation
import SkillbookCore
import SkillbookHost
import SkillbookPostgres
import SkillbookSQL
import SkillbookSQLite
import SkillbookTesting

/// The part of `approvals` where another process goes on with the approved run, with real
/// `skillbook daemon` and `skillbook worker` processes (the release binary next to the bench, or
/// `SKILLBOOK_BIN`):
///
/// - `approval_to_call_daemon_p50`: SQLite, a daemon running: from `approve` (the host, as
///   `skillbook approve` calls it) on a run the daemon started and left waiting to the approved
///   call's start as the daemon journals it (the decision written, the daemon woken, the run taken
///   over, its resume planned). The median of 15 (one fire a second).
/// - `approval_to_call_worker_p50`: PostgreSQL (a throw-away cluster), one worker: from `approve`
///   on a run the worker left waiting to the approved call's start (the run queued again, NOTIFY,
///   the claim, the resume). The median of 20.
/// - `waiting_runs_holding_a_lock_or_lease`: while each of those runs waits, its resource locks and
///   lease are checked (none is allowed: the bench fails otherwise): always 0.
struct ApprovalHandOverBench {
    let state: URL

    static let gate = """
        name: gate
        schedule: { every: 1s }
        steps:
          - { id: make, skill: notes.create, with: { title: "to delete" } }
          - { id: remove, skill: notes.delete, with: { ids: ["${{ steps.make.output.id }}"] } }

        """

    func run() async throws -> [Figure] {
        let (daemon, daemonChecked) = try await throughDaemon()
        let (worker, workerChecked) = try await throughWorker()
        return [
            Figure(name: "approval_to_call_daemon_p50", value: daemon * 1000, unit: "ms"),
            Figure(name: "approval_to_call_worker_p50", value: worker * 1000, unit: "ms"),
            Figure(name: "waiting_runs_holding_a_lock_or_lease", value: 0, unit: "runs (\(daemonChecked + workerChecked) checked)"),
        ]
    }

    /// Seconds from `approve` to the call's recorded start, per sample; `started` reads the call's
    /// start (seconds since 1970) once it is there.
    private static func median(_ samples: [Double]) -> Double {
        let sorted = samples.sorted()
        return sorted[sorted.count / 2]
    }

    private func until<T>(_ what: String, within seconds: Double = 30, _ value: () throws -> T?) async throws -> T {
        let giveUp = Date().addingTimeInterval(seconds)
        while true {
            if let found = try value() { return found }
            guard Date() < giveUp else { throw BenchError("approvals: \(what) did not happen within \(Int(seconds)) s") }
            try await Task.sleep(for: .milliseconds(1))
        }
    }

    private func throughDaemon() async throws -> (Double, Int) {
        let folder = state.appendingPathComponent("approvals-daemon-\(UUID().uuidString)")
        _ = try BenchWorkspace.write(Self.gate, named: "gate", in: folder)
        let stateFolder = folder.appendingPathComponent("state")
        let log = folder.appendingPathComponent("daemon.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: try ColdStartBench.skillbookBinary())
        daemon.arguments = ["daemon", "--state", stateFolder.path, "--playbooks", folder.appendingPathComponent("Playbooks").path]
        daemon.currentDirectoryURL = folder
        daemon.standardInput = FileHandle.nullDevice
        daemon.standardOutput = FileHandle.nullDevice
        daemon.standardError = try FileHandle(forWritingTo: log)
        try daemon.run()
        defer {
            kill(daemon.processIdentifier, SIGTERM)
            daemon.waitUntilExit()
        }
        let host = PlaybookHost(
            HostConfiguration(
                playbooksDirectory: folder.appendingPathComponent("Playbooks"), stateDirectory: stateFolder,
                timeZone: TimeZone(identifier: "UTC"), currentDirectory: folder))
        let database = try SQLiteJournal(stateDirectory: stateFolder).database
        var approved: Set<String> = []
        var samples: [Double] = []
        var checked = 0
        while samples.count < 16 {
            let runID: String = try await until("a waiting run of the daemon (log: \(log.path))") {
                try database.query("SELECT id FROM runs WHERE status = 'waiting' ORDER BY started").compactMap { $0.string("id") }
                    .first { !approved.contains($0) }
            }
            approved.insert(runID)
            let locks = try database.query("SELECT count(*) AS n FROM resource_locks WHERE run = ?1", [.text(runID)]).first?.int("n") ?? -1
            let holder = try database.query("SELECT status FROM runs WHERE id = ?1", [.text(runID)]).first?.string("status")
            guard locks == 0, holder == "waiting" else { throw BenchError("approvals: a waiting run holds \(locks) lock(s), status \(holder ?? "?")") }
            checked += 1
            let start = Date().timeIntervalSince1970
            let outcome = try await host.approve(run: runID)
            guard case .handedOver = outcome.continuation else {
                throw BenchError("approvals: the daemon did not take the run: \(outcome.continuation) (log: \(log.path))")
            }
            let started: Double = try await until("the approved call in the daemon (log: \(log.path))") {
                try database.query("SELECT started FROM calls WHERE run = ?1 AND step = 'remove'", [.text(runID)]).first?.double("started")
            }
            samples.append(started - start)
            _ = try await until("the approved run's end (log: \(log.path))") {
                try database.query("SELECT status FROM runs WHERE id = ?1", [.text(runID)]).first?.string("status") == "succeeded" ? true : nil
            }
        }
        samples.removeFirst()  // the daemon's first resume loads the skills
        return (Self.median(samples), checked)
    }

    private func throughWorker() async throws -> (Double, Int) {
        let string = try PostgresCluster.shared.makeDatabase()
        guard let url = PostgresURL(string) else { throw BenchError("approvals: no PostgreSQL URL") }
        let folder = state.appendingPathComponent("approvals-worker-\(UUID().uuidString)")
        let file = try BenchWorkspace.write(Self.gate.replacingOccurrences(of: "schedule: { every: 1s }\n", with: ""), named: "gate", in: folder)
        let worker = try WorkerProcess(skillbook: try ColdStartBench.skillbookBinary(), state: string, name: "approvals", workspace: folder)
        defer { kill(worker.pid, SIGKILL) }
        let host = PlaybookHost(HostConfiguration.workspace(in: folder, environment: [:], state: string))
        let database = try PostgresDatabase(url)
        var samples: [Double] = []
        var checked = 0
        for _ in 0..<21 {
            let runID = try await host.enqueue(RunRequest(playbook: file.path))
            _ = try await until("the worker's run to wait (log: \(worker.log.path))") {
                try database.query("SELECT status FROM runs WHERE id = $1", [.text(runID)]).first?.string("status") == "waiting" ? true : nil
            }
            let locks = try database.query("SELECT resource, run, step, pid FROM resource_locks WHERE run = $1", [.text(runID)]).map {
                "\($0.string("resource") ?? "?") of \($0.string("run") ?? "?") step \($0.string("step") ?? "?") pid \($0.int("pid") ?? 0)"
            }
            let lease = try database.query("SELECT lease_expires FROM runs WHERE id = $1", [.text(runID)]).first?.double("lease_expires")
            guard locks.isEmpty, lease == nil else {
                throw BenchError("approvals: waiting run \(runID) (worker pid \(worker.pid)): locks \(locks), lease \(lease.map { "\($0)" } ?? "none")")
            }
            checked += 1
            let start = Date().timeIntervalSince1970
            let outcome = try await host.approve(run: runID)
            guard case .queued = outcome.continuation else { throw BenchError("approvals: the run was not queued: \(outcome.continuation)") }
            let started: Double = try await until("the approved call in the worker (log: \(worker.log.path))") {
                try database.query("SELECT started FROM calls WHERE run = $1 AND step = 'remove'", [.text(runID)]).first?.double("started")
            }
            samples.append(started - start)
            // Ended (its locks let go) before the next run is checked.
            _ = try await until("the approved run's end (log: \(worker.log.path))") {
                try database.query("SELECT status FROM runs WHERE id = $1", [.text(runID)]).first?.string("status") == "succeeded" ? true : nil
            }
        }
        samples.removeFirst()
        return (Self.median(samples), checked)
    }
}
