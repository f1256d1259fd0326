import Foundation
public import SkillbookCore
import SkillbookRuntime
import Synchronization

/// How a worker runs.
public struct WorkerOptions: Sendable {
    /// Runs at once (default 1).
    public var concurrency: Int
    /// Recorded on every run it claims (`runs` shows it); default `HOST-PID`.
    public var name: String
    /// Seconds running runs get to finish after SIGTERM before they are cancelled (and roll back).
    public var grace: Double
    /// Seconds between looks at the queue when no notification comes (the polling fallback).
    public var pollInterval: Double
    public var leases: LeaseSettings

    public init(
        concurrency: Int = 1, name: String? = nil, grace: Double = 30, pollInterval: Double = 2, leases: LeaseSettings = LeaseSettings()
    ) {
        self.concurrency = max(1, concurrency)
        self.name = name ?? "\(ProcessInfo.processInfo.hostName)-\(getpid())"
        self.grace = grace
        self.pollInterval = pollInterval
        self.leases = leases
    }
}

/// `skillbook worker`: claims queued runs from the state's run queue (PostgreSQL: `FOR UPDATE SKIP
/// LOCKED`), woken by the queue (`NOTIFY`) with a polling fallback, and runs up to `concurrency` of them at once on the
/// engine, heartbeating each run's lease. A run whose worker died (its lease expired) is claimed
/// too and goes on by the resume rules (see `PlaybookHost.prepareClaimed`). When this worker's
/// lease on a run is lost (it was paused or cut off past the lease, and another worker took the
/// run), the journal refuses its writes and the worker stops that run at once, without rollback.
///
/// Shutdown, as a `Service`: graceful shutdown (SIGTERM) stops claiming and waits for the running
/// runs; cancellation (the group's grace period, `options.grace`, ran out) cancels them (they roll
/// back) and `run()` returns.
public final class QueueWorker: Service {
    public let host: PlaybookHost
    public let options: WorkerOptions
    /// The queue it claims from, which is the journal its runs are recorded in.
    public let journal: any RunQueue
    private let log: @Sendable (String) -> Void
    private let listener: any RunQueueWaiter
    /// The registry and checked playbooks, kept between runs.
    public let cache = WorkerCache()
    private let running = Mutex<[String: Task<Void, Never>]>([:])
    private let slotFreed = Mutex<CheckedContinuation<Void, Never>?>(nil)
    /// Runs whose lease this worker lost while running them (until their task ends).
    private let lost = Mutex<Set<String>>([])

    /// Opens the run queue of the host's state (which must keep one: PostgreSQL) as this worker's.
    public init(host: PlaybookHost, options: WorkerOptions, log: @escaping @Sendable (String) -> Void) throws(HostError) {
        guard let openQueue = host.persistence.openRunQueue else {
            throw .failed(message: PlaybookHost.needsPostgres("skillbook worker"))
        }
        self.host = host
        self.options = options
        self.log = log
        do {
            let journal = try openQueue()
            self.journal = journal
            listener = try journal.queueWaiter()
        } catch {
            throw HostError(error)
        }
        journal.setLeaseLostHandler { [weak self] runID in self?.leaseLost(runID) }
        if let metrics = host.configuration.metrics {
            let journal = journal
            metrics.registry.gauge(SkillbookMetrics.queueDepth) { (try? await journal.queuedCount()).map { [([], Double($0))] } ?? [] }
            metrics.registry.gauge(SkillbookMetrics.running) { [weak self] in self.map { [([], Double($0.runningCount))] } ?? [] }
            metrics.registry.declare(SkillbookMetrics.claims)
            metrics.registry.declare(SkillbookMetrics.claimFailures)
            metrics.registry.declare(SkillbookMetrics.claimDuration)
        }
    }

    /// How many runs it is running now.
    public var runningCount: Int { running.withLock { $0.count } }

    /// Claims and runs until graceful shutdown or cancellation, then drains (see the type's doc).
    public func run() async {
        log("worker started name=\(options.name) concurrency=\(options.concurrency) state=\(journal.location)")
        let listener = listener
        let stopping = Mutex(false)
        await withGracefulShutdownHandler {
            await withTaskCancellationHandler {
                await claimLoop(until: { stopping.withLock { $0 } })
            } onCancel: {
                listener.stop()
            }
        } onGracefulShutdown: {
            stopping.withLock { $0 = true }
            // Wakes the loop from its wait for a notification.
            listener.stop()
            self.slotFreed.withLock { waiter in
                waiter?.resume()
                waiter = nil
            }
        }
        listener.stop()
        await drain()
    }

    private func claimLoop(until stopped: () -> Bool) async {
        while !Task.isCancelled && !stopped() {
            if runningCount >= options.concurrency {
                await waitForSlot()
                continue
            }
            let claimed: ClaimedRun?
            let claimStart = ContinuousClock.now
            do {
                defer { observeClaim(since: claimStart) }
                claimed = try await journal.claimNext()
            } catch {
                log("claim failed error=\(Self.oneLine("\(error)"))")
                host.configuration.metrics?.registry.add(SkillbookMetrics.claimFailures)
                _ = await listener.wait(timeout: options.pollInterval)
                continue
            }
            guard let claimed else {
                _ = await listener.wait(timeout: options.pollInterval)
                continue
            }
            start(claimed)
        }
    }

    /// Records the time a claim took (`skillbook_worker_claim_duration_seconds`).
    private func observeClaim(since start: ContinuousClock.Instant) {
        guard let metrics = host.configuration.metrics else { return }
        let elapsed = ContinuousClock.now - start
        metrics.registry.observe(
            SkillbookMetrics.claimDuration, [], Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }

    private func start(_ claimed: ClaimedRun) {
        let runID = claimed.run.id
        log("claimed \(claimed.run.playbook) run=\(runID) \(claimed.wasQueued ? "queued" : "taken over") epoch=\(claimed.epoch)")
        host.configuration.metrics?.registry.add(SkillbookMetrics.claims, [claimed.wasQueued ? "queued" : "taken_over"])
        let task = Task { [self] in
            defer { finished(runID) }
            switch await host.prepareClaimed(claimed, journal: journal, cache: cache) {
            case .needsPerson(let reason):
                log("run not continued \(claimed.run.playbook) run=\(runID) reason=\(Self.oneLine(reason))")
            case .leaseLost:
                log("run stopped \(claimed.run.playbook) run=\(runID) (lease lost before it went on)")
            case .run(let prepared):
                if case .rollback = prepared.work {
                    log("rolling back \(claimed.run.playbook) run=\(runID): its worker died during a call that may or may not have happened (on_worker_loss: rollback)")
                }
                let result = await host.execute(prepared)
                if lost.withLock({ $0.contains(runID) }) {
                    // Whatever the engine made of it, nothing more of this run was recorded here.
                    log("run stopped \(claimed.run.playbook) run=\(runID) (lease lost)")
                } else {
                    var line = "run finished \(claimed.run.playbook) run=\(runID) status=\(result.status.rawValue)"
                    if let error = result.error { line += " error=\(Self.oneLine(error))" }
                    log(line)
                }
            }
        }
        running.withLock { $0[runID] = task }
    }

    private func finished(_ runID: String) {
        running.withLock { _ = $0.removeValue(forKey: runID) }
        lost.withLock { _ = $0.remove(runID) }
        slotFreed.withLock { waiter in
            waiter?.resume()
            waiter = nil
        }
    }

    private func waitForSlot() async {
        await withCheckedContinuation { continuation in
            let free = slotFreed.withLock { waiter -> Bool in
                if runningCount < options.concurrency { return true }
                waiter = continuation
                return false
            }
            if free { continuation.resume() }
        }
    }

    /// Another worker took the run (noticed by a heartbeat or by a refused write): stop it here,
    /// without rollback (the journal refuses this worker's writes, and the engine does not undo a
    /// run whose lease is lost).
    private func leaseLost(_ runID: String) {
        lost.withLock { _ = $0.insert(runID) }
        log("lease lost run=\(runID): another worker took it over; stopping it here")
        running.withLock { $0[runID] }?.cancel()
    }

    /// Waits for the running runs; cancellation (the grace period ran out) cancels them.
    private func drain() async {
        let count = runningCount
        log("worker stopping running=\(count) grace=\(Int(options.grace))s")
        await withTaskCancellationHandler {
            while let task = running.withLock({ $0.values.first }) { await task.value }
        } onCancel: { [self] in
            let tasks = running.withLock { Array($0.values) }
            guard !tasks.isEmpty else { return }
            log("worker grace over: cancelling \(tasks.count) run(s)")
            for task in tasks { task.cancel() }
        }
        log("worker stopped")
    }

    static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).joined(separator: " | ")
    }
}
