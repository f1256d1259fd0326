import Foundation
public import SkillbookCore
public import SkillbookSchedule
import Synchronization

/// The scheduler of a workspace: its scheduled playbooks, the state database's fire ledger, a
/// `Daemon` deciding with `FirePlanner`, and fires started through the host. `tick` is
/// `skillbook schedule tick`, `run` is `skillbook daemon`; both claim fires by the same key, so
/// any mix of them starts each fire at most once.
public final class ScheduleService: Service {
    public let host: PlaybookHost
    public let daemon: Daemon
    public let starter: ScheduleFireStarter
    public let log: @Sendable (String) -> Void
    public let grace: Double
    /// The scheduled playbooks and broken files as read when the service was made.
    public let loaded: ScheduledWorkspace

    /// Loads the workspace's scheduled playbooks and opens the ledger; broken files are logged.
    /// `grace`: the seconds a service group gives running runs after graceful shutdown (for the log).
    public init(
        host: PlaybookHost, maximumSleep: Double = 60, grace: Double = 30, log: @escaping @Sendable (String) -> Void
    ) throws(HostError) {
        let workspace = try host.scheduledWorkspace()
        let ledger = try host.openFireLedger()
        loaded = workspace
        self.host = host
        self.log = log
        self.grace = grace
        starter = ScheduleFireStarter(host: host, files: workspace.files, log: log)
        daemon = Daemon(
            playbooks: workspace.scheduled, clock: host.configuration.clock, ledger: ledger, starter: starter,
            machineZone: host.configuration.timeZone, maximumSleep: maximumSleep, log: log,
            onOutcome: { [metrics = host.configuration.metrics] playbook, outcome, count in
                metrics?.fire(playbook: playbook, outcome: outcome.rawValue, count: count)
            })
        Self.report(workspace, log: log)
        stamps = Stamps(workspace.stamps)
        self.ledger = ledger
    }

    private let ledger: any HostFireLedger

    /// Starts the fires a dead process claimed but never began (a `kill -9` between the claim and
    /// the run's journal row), so that no claimed fire is lost.
    func adoptOrphans() async throws {
        let orphans = try await ledger.adoptOrphans { pid in kill(pid, 0) == 0 || errno == EPERM }
        await daemon.startClaimed(orphans)
    }

    /// `adoptOrphans`, its failure logged once per distinct error (not at every check, 2 s apart).
    private func checkOrphans() async {
        do {
            try await adoptOrphans()
            orphanCheck.withLock { $0 = nil }
        } catch {
            let text = ScheduleFireStarter.oneLine("\(error)")
            let previous = orphanCheck.withLock { last in
                defer { last = text }
                return last
            }
            if previous != text { log("orphaned fires not checked error=\(text)") }
        }
    }

    /// One round of decisions now; waits for the runs it started. Returns how many it started.
    public func tick() async throws -> Int {
        let before = await daemon.startedCount
        try await adoptOrphans()
        await expireApprovals()
        try await daemon.tick()
        let started = await daemon.startedCount - before
        await daemon.waitForRuns()
        return started
    }

    /// `skillbook daemon` as a service (see `Service`): fires until graceful shutdown (SIGTERM) or
    /// cancellation; then stops firing and waits for the running runs; cancellation (the group's
    /// grace period, `grace` seconds, ran out) cancels them (they roll back). Every wake-up (at
    /// least once a minute) re-reads changed playbook files.
    public func run() async {
        let daemon = self.daemon
        await applyOnInterrupted()
        await checkOrphans()
        // Another process decided the approval of a run this daemon left waiting: it goes on here.
        let wake = DaemonWake { [self] in Task { await self.continueDecided() } }
        await continueDecided()
        let firing = Task { try await daemon.run() }
        let watching = Task { await self.watch() }
        await withTaskCancellationHandler {
            await withGracefulShutdownHandler {
                _ = await firing.result
            } onGracefulShutdown: {
                firing.cancel()
            }
        } onCancel: {
            firing.cancel()
        }
        watching.cancel()
        wake.stop()
        let running = await daemon.runningCount
        log("daemon stopping running=\(running) grace=\(Int(grace))s")
        let log = self.log
        let cancelling = Mutex<Task<Void, Never>?>(nil)
        await withTaskCancellationHandler {
            await daemon.waitForRuns()
        } onCancel: {
            let task = Task {
                let count = await daemon.runningCount
                guard count > 0 else { return }
                log("daemon grace over: cancelling \(count) run(s)")
                await daemon.cancelRuns()
            }
            cancelling.withLock { $0 = task }
        }
        await cancelling.withLock { $0 }?.value
        log("daemon stopped")
    }

    /// Reloads when a playbook file changed, checking every 2 s (a stat of each file; the
    /// daemon itself sleeps until its next fire), and adopts orphaned fires as often.
    private func watch() async {
        while !Task.isCancelled {
            try? await Task.sleep(for: .seconds(2))
            if Task.isCancelled { break }
            // A daemon killed between claiming a fire and starting its run left it orphaned: start it here.
            await checkOrphans()
            await expireApprovals()
            await continueDecided()
            let now = host.scheduleStamps()
            guard now != stamps.value else { continue }
            do {
                let workspace = try host.scheduledWorkspace()
                stamps.value = workspace.stamps
                starter.update(files: workspace.files)
                await daemon.reload(workspace.scheduled)
                log("reloaded playbooks scheduled=\(workspace.entries.count) broken=\(workspace.broken.count)")
                Self.report(workspace, log: log)
            } catch {
                stamps.value = now
                log("reload failed error=\(ScheduleFireStarter.oneLine("\(error)")) (keeping the schedules loaded before)")
            }
        }
    }

    /// Declines the approval requests that expired (reason `expired`); their runs go on (they roll
    /// back, as on any decline). Logged one line each.
    private func expireApprovals() async {
        for outcome in await host.expireApprovals(trigger: .schedule) {
            let request = outcome.record.request
            var line = "approval expired \(outcome.record.playbook) run=\(request.runID) step=\(request.step)"
            switch outcome.continuation {
            case .ran(let result): line += " status=\(result.status.rawValue)"
            case .queued: line += " queued for a worker"
            case .handedOver(let pid): line += " handed to the daemon pid=\(pid)"
            case .notContinued(let error): line += " not continued error=\(ScheduleFireStarter.oneLine("\(error)"))"
            }
            log(line)
        }
    }

    /// Continues (as one of the daemon's runs) each run this process left waiting whose approval
    /// another process decided: the decider woke it (`DaemonWake`), or the 2 s check found it.
    func continueDecided() async {
        for record in await host.decidedRunsStartedHere() {
            let runID = record.request.runID
            guard continuing.withLock({ $0.insert(runID).inserted }) else { continue }
            let verdict = record.decision?.verdict.rawValue ?? "decided"
            log("approval \(verdict) \(record.playbook) run=\(runID) step=\(record.request.step): going on")
            await daemon.track { [self] in
                var line = "run continued \(record.playbook) run=\(runID)"
                switch await host.continueDecidedHere(runID, trigger: .schedule) {
                case .ran(let result):
                    line += " status=\(result.status.rawValue)"
                    if let error = result.error { line += " error=\(ScheduleFireStarter.oneLine(error))" }
                case .queued, .handedOver: break
                case .notContinued(let error): line += " not continued error=\(ScheduleFireStarter.oneLine("\(error)"))"
                }
                log(line)
                self.continuing.withLock { _ = $0.remove(runID) }
            }
        }
    }

    /// The runs `continueDecided` goes on with now (the wake and the 2 s check may both find one).
    private let continuing = Mutex<Set<String>>([])
    private let stamps: Stamps
    /// The last error of checking for orphaned fires, while it goes on failing.
    private let orphanCheck = Mutex<String?>(nil)

    static func report(_ workspace: ScheduledWorkspace, log: (String) -> Void) {
        for entry in workspace.entries { log("loaded \(entry.playbook.name) entries=\(entry.playbook.schedule.count)") }
        for broken in workspace.broken {
            log("playbook broken file=\(broken.file) error=\(ScheduleFireStarter.oneLine(broken.message))")
        }
    }
}

/// The last-seen file stamps, shared between the watcher and its owner.
final class Stamps: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String: String]
    init(_ value: [String: String]) { stored = value }
    var value: [String: String] {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
