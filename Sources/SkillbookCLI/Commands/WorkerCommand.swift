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
        ],
        discussion: """
            Needs a state shared by machines: --state postgresql://USER@HOST:PORT/DATABASE (or SKILLBOOK_STATE).
            Claims queued runs (FOR UPDATE SKIP LOCKED), woken by NOTIFY with a polling fallback, and renews
            each run's lease while it runs. A run whose worker died (its lease expired) is taken over and goes
            on by the resume rules: completed calls are reused; an uncertain call of a skill that is neither
            idempotent nor read-only leaves the run 'interrupted' for 'skillbook resume' or 'rollback'. A worker
            whose lease was taken over (it was paused or cut off) cannot write that run any more and stops it.
            On SIGTERM or SIGINT it claims nothing more, lets running runs finish for the grace period, then
            cancels them (they roll back), and exits 0. One log line per event on stderr.
            """,
        examples: ["skillbook worker --state postgresql://skillbook@db:5432/skillbook", "skillbook worker --concurrency 4 --name web-1"])

    static func execute(_ arguments: ParsedArguments, _ invocation: Invocation) async throws -> Int32 {
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

        var host = try invocation.host(arguments)
        guard let state = arguments[.state] ?? invocation.environment["SKILLBOOK_STATE"], host.configuration.persistence != nil else {
            invocation.console.err("error: skillbook worker needs a state shared by machines: pass --state postgresql://USER@HOST:PORT/DATABASE")
            return 2
        }
        var configuration = host.configuration
        configuration.persistence = .postgres(state, clock: configuration.clock, leases: options.leases, worker: options.name)
        host = PlaybookHost(configuration)
        let console = invocation.console
        let log: @Sendable (String) -> Void = { console.err("skillbook: \($0)") }
        let worker = try QueueWorker(host: host, options: options, log: log)
        let serve: @Sendable () async -> Void = { await worker.run() }
        if invocation.handlesSignals {
            await ShutdownSignal.cancellingOnSignal(
                announce: { number in log("worker signal=\(number == SIGTERM ? "SIGTERM" : "SIGINT"): no more claims") },
                onRepeat: { _ in log("worker second signal: exiting now"); exit(130) }, serve)
        } else {
            await serve()
        }
        return 0
    }

    private static func seconds(_ text: String?, _ name: String) throws -> Double? {
        guard let text else { return nil }
        guard let seconds = DurationText.seconds(text), seconds > 0 || name == "--grace" else {
            throw UsageError(message: "\(name) expects a duration such as 30s or 2m, got '\(text)'", command: spec.name)
        }
        return seconds
    }
}
