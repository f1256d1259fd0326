import Foundation
import SkillbookCore
import SkillbookHost

extension Option where Value == String {
    static var concurrency: Self { Self("--concurrency", value: "N", help: "Runs at once (default 1).") }
    static var workerName: Self { Self("--name", value: "NAME", help: "The name 'runs' shows for this worker (default HOST-PID).") }
    static var heartbeat: Self { Self("--heartbeat", value: "DURATION", help: "How often each run's lease is renewed (default 5s).") }
    static var lease: Self {
        Self("--lease", value: "DURATION", help: "How long a lease lasts without renewal before another worker may take the run (default 15s).")
    }
    static var poll: Self { Self("--poll", value: "DURATION", help: "How often to look at the queue when no notification comes (default 2s).") }
}

/// `skillbook worker [--concurrency N] [--name NAME] [--grace 30s]`: runs queued runs of a
/// PostgreSQL state until SIGTERM or SIGINT.
enum WorkerCommand: Command {
    static let spec = CommandSpec(
        name: "worker", summary: "Run queued runs ('run --queue', schedules on a shared state) until stopped.",
        arguments: "",
        options: [
            Option.concurrency.spec, Option.workerName.spec, Option.grace.spec, Option.heartbeat.spec, Option.lease.spec,
            Option.poll.spec,
        ] + OperationOptions.all,
        discussion: """
            Needs a state shared by machines: --state postgresql://USER@HOST:PORT/DATABASE (or SKILLBOOK_STATE).
            Claims queued runs (FOR UPDATE SKIP LOCKED), woken by NOTIFY with a polling fallback, and renews
            each run's lease while it runs. A run whose worker died (its lease expired) is taken over and goes
            on by the resume rules: completed calls are reused; an uncertain call of a skill that is neither
            idempotent nor read-only leaves the run 'interrupted' for 'skillbook resume' or 'rollback'. A worker
            whose lease was taken over (it was paused or cut off) cannot write that run any more and stops it.
            On SIGTERM or SIGINT it claims nothing more, lets running runs finish for the grace period, then
            cancels them (they roll back), and exits 0. One log line per event on stderr (--log-format json: one
            JSON object per line). --metrics serves runs, steps, claims and the queue's depth for Prometheus.
            """,
        examples: ["skillbook worker --state postgresql://skillbook@db:5432/skillbook", "skillbook worker --concurrency 4 --name web-1"])

    static func execute(_ arguments: ParsedArguments, _ invocation: Invocation) async throws -> ExitCode {
        var options = WorkerOptions(leases: LeaseSettings.from(invocation.environment))
        if let text = arguments[.concurrency] {
            guard let count = Int(text), count >= 1 else {
                throw UsageError(message: "--concurrency expects a whole number of at least 1, got '\(text)'", command: spec.name)
            }
            options.concurrency = count
        }
        if let name = arguments[.workerName], !name.isEmpty { options.name = name }
        options.grace = try seconds(arguments[.grace], "--grace") ?? options.grace
        options.leases.heartbeatInterval = try seconds(arguments[.heartbeat], "--heartbeat") ?? options.leases.heartbeatInterval
        options.leases.leaseDuration = try seconds(arguments[.lease], "--lease") ?? options.leases.leaseDuration
        options.pollInterval = try seconds(arguments[.poll], "--poll") ?? options.pollInterval

        let operations = try OperationOptions(arguments, invocation, command: spec.name)
        var host = try invocation.host(arguments)
        guard let state = arguments[.state] ?? invocation.environment["SKILLBOOK_STATE"], host.configuration.persistence != nil else {
            throw CommandFailure(
                "skillbook worker needs a state shared by machines: pass --state postgresql://USER@HOST:PORT/DATABASE", exitCode: .usage)
        }
        var configuration = host.configuration
        configuration.persistence = .postgres(state, clock: configuration.clock, leases: options.leases, worker: options.name)
        configuration.metrics = operations.metrics
        host = PlaybookHost(configuration, mcpServers: host.mcpServers)
        let log = operations.logger
        let worker = try QueueWorker(host: host, options: options, log: log)
        return try await invocation.runServices([worker] + operations.metricsServices(host: host), grace: options.grace) { event in
            switch event {
            case .gracefulShutdown(let number): log("worker signal=\(Invocation.signalName(number)): no more claims")
            case .cancelled: log("worker second signal: cancelling running runs")
            case .graceOver, .serviceEnded: break
            }
        }
    }

    private static func seconds(_ text: String?, _ name: String) throws -> Double? {
        guard let text else { return nil }
        guard let seconds = DurationText.seconds(text), seconds > 0 || name == "--grace" else {
            throw UsageError(message: "\(name) expects a duration such as 30s or 2m, got '\(text)'", command: spec.name)
        }
        return seconds
    }
}
