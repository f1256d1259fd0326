public import Foundation
import SkillbookCore

/// What `daemon`, `worker` and `serve` count for `--metrics` (see README "Metrics"): runs started
/// and finished, their durations and steps (recorded by `PlaybookHost.execute` for every run of a
/// host whose configuration has a `metrics`), the time each journal write of those runs took,
/// fires, the worker's claims (and their time) and queue, the approvals waiting, the console's
/// HTTP requests, and the process's start time and build.
public struct SkillbookMetrics: Sendable {
    public let registry: MetricsRegistry

    /// Seconds: 10 ms to 1 h.
    static let durationBuckets: [Double] = [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300, 900, 3600]

    public static let runsStarted = MetricsRegistry.Family(
        "skillbook_runs_started_total", .counter, help: "Runs started, by playbook and trigger.", labels: ["playbook", "trigger"])
    public static let runsFinished = MetricsRegistry.Family(
        "skillbook_runs_finished_total", .counter, help: "Runs ended, by playbook, trigger and status.",
        labels: ["playbook", "trigger", "status"])
    public static let runDuration = MetricsRegistry.Family(
        "skillbook_run_duration_seconds", .histogram, help: "How long runs took, start to end, by playbook.", labels: ["playbook"],
        buckets: durationBuckets)
    public static let steps = MetricsRegistry.Family(
        "skillbook_steps_total", .counter, help: "Steps of ended runs, by skill and status.", labels: ["skill", "status"])
    public static let stepDuration = MetricsRegistry.Family(
        "skillbook_step_duration_seconds", .histogram, help: "How long steps took (all attempts), by skill.", labels: ["skill"],
        buckets: durationBuckets)
    public static let fires = MetricsRegistry.Family(
        "skillbook_fires_total", .counter,
        help: "Schedule fires, by playbook and outcome (on_time, late: a catch-up of a missed one, skipped: the previous run still ran, dropped: missed and not caught up).",
        labels: ["playbook", "outcome"])
    public static let claims = MetricsRegistry.Family(
        "skillbook_worker_claims_total", .counter, help: "Runs this worker claimed: queued ones, or taken over from a dead worker.",
        labels: ["kind"])
    public static let claimFailures = MetricsRegistry.Family(
        "skillbook_worker_claim_failures_total", .counter, help: "Claims that failed (the database was unreachable).")
    public static let running = MetricsRegistry.Family(
        "skillbook_worker_running_runs", .gauge, help: "Runs this worker runs now.")
    public static let queueDepth = MetricsRegistry.Family(
        "skillbook_queue_depth", .gauge, help: "Runs waiting in the queue for a worker (read at each scrape).")
    public static let claimDuration = MetricsRegistry.Family(
        "skillbook_worker_claim_duration_seconds", .histogram,
        help: "How long a worker's claim of the next queued run took (one transaction, with or without a run to claim).",
        buckets: latencyBuckets)
    public static let approvalsWaiting = MetricsRegistry.Family(
        "skillbook_approvals_waiting", .gauge, help: "Runs waiting for an approval (read at each scrape).")
    public static let journalWrite = MetricsRegistry.Family(
        "skillbook_journal_write_seconds", .histogram,
        help: "How long the journal took to record a run's event (run_started, call_started, call_finished, step_finished, compensation_finished, approval_requested, run_finished), until it was durable.",
        labels: ["write"], buckets: latencyBuckets)
    public static let httpRequests = MetricsRegistry.Family(
        "skillbook_http_requests_total", .counter, help: "Console HTTP requests answered, by method and status code.",
        labels: ["method", "code"])
    public static let processStart = MetricsRegistry.Family(
        "process_start_time_seconds", .gauge, help: "Start time of the process since the Unix epoch, in seconds.")
    public static let buildInfo = MetricsRegistry.Family(
        "skillbook_build_info", .gauge, help: "The build of skillbook (always 1).", labels: ["version", "command"])

    /// Seconds: 0.5 ms to 5 s (a database write or query).
    static let latencyBuckets: [Double] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5]

    /// The registry of a process running `command`, with its start time and build.
    public init(version: String, command: String, started: Date) {
        registry = MetricsRegistry()
        registry.set(Self.buildInfo, [version, command], 1)
        registry.set(Self.processStart, [], started.timeIntervalSince1970.rounded(.down))
        for family in [Self.runsStarted, Self.runsFinished, Self.runDuration, Self.steps, Self.stepDuration, Self.journalWrite] {
            registry.declare(family)
        }
    }

    func runStarted(playbook: String, trigger: String) {
        registry.add(Self.runsStarted, [playbook, trigger])
    }

    func runFinished(_ result: RunResult, trigger: String) {
        registry.add(Self.runsFinished, [result.playbook, trigger, result.status.rawValue])
        registry.observe(Self.runDuration, [result.playbook], max(0, result.finished.timeIntervalSince(result.started)))
        for step in result.steps {
            registry.add(Self.steps, [step.skill, step.status.rawValue])
            registry.observe(Self.stepDuration, [step.skill], step.duration)
        }
    }

    public func fire(playbook: String, outcome: String, count: Int = 1) {
        registry.add(Self.fires, [playbook, outcome], Double(count))
    }

    func journalWrite(_ write: String, seconds: Double) {
        registry.observe(Self.journalWrite, [write], seconds)
    }

    public func httpRequest(method: String, code: Int) {
        registry.add(Self.httpRequests, [method, String(code)])
    }
}
