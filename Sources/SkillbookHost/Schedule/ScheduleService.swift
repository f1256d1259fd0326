import Foundation
import SkillbookCore
public import SkillbookSchedule

/// The scheduler of a workspace: its scheduled playbooks, the state database's fire ledger, a
/// `Daemon` deciding with `FirePlanner`, and fires started through the host. `tick` is
/// `skillbook schedule tick`, `serve` is `skillbook daemon`; both claim fires by the same key, so
/// any mix of them starts each fire at most once.
public final class ScheduleService: Sendable {
    public let host: PlaybookHost
    public let daemon: Daemon
    public let starter: ScheduleFireStarter
    public let log: @Sendable (String) -> Void

    /// Loads the workspace's scheduled playbooks and opens the ledger; broken files are logged.
    public init(host: PlaybookHost, maximumSleep: Double = 60, log: @escaping @Sendable (String) -> Void) throws(HostError) {
        let workspace = try host.scheduledWorkspace()
        let ledger = try host.openFireLedger()
        self.host = host
        self.log = log
        starter = ScheduleFireStarter(host: host, files: workspace.files, log: log)
        daemon = Daemon(
            playbooks: workspace.scheduled, clock: host.configuration.clock, ledger: ledger, starter: starter,
            machineZone: host.configuration.timeZone, maximumSleep: maximumSleep, log: log)
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

    /// One round of decisions now; waits for the runs it started. Returns how many it started.
    public func tick() async throws -> Int {
        let before = await daemon.startedCount
        try await adoptOrphans()
        try await daemon.tick()
        let started = await daemon.startedCount - before
        await daemon.waitForRuns()
        return started
    }

    /// Fires until the task is cancelled (SIGTERM): then stops firing, gives running runs
    /// `grace` seconds to finish, cancels the rest (they roll back) and returns. Every wake-up
    /// (at least once a minute) re-reads changed playbook files.
    public func serve(grace: Double) async {
        let daemon = self.daemon
        do {
            try await adoptOrphans()
        } catch {
            log("orphaned fires not checked error=\(ScheduleFireStarter.oneLine("\(error)"))")
        }
        let firing = Task { try await daemon.run() }
        let watching = Task { await self.watch() }
        await withTaskCancellationHandler {
            _ = await firing.result
        } onCancel: {
            firing.cancel()
        }
        watching.cancel()
        let running = await daemon.runningCount
        log("daemon stopping running=\(running) grace=\(Int(grace))s")
        let waited = Task { await daemon.waitForRuns() }
        let timer = Task {
            try await Task.sleep(for: .seconds(grace))
            self.log("daemon grace over: cancelling \(await daemon.runningCount) run(s)")
            await daemon.cancelRuns()
        }
        await waited.value
        timer.cancel()
        log("daemon stopped")
    }

    /// Reloads when a playbook file changed, checking every 2 s (a stat of each file; the
    /// daemon itself sleeps until its next fire), and adopts orphaned fires as often.
    private func watch() async {
        while !Task.isCancelled {
            try? await Task.sleep(for: .seconds(2))
            // A daemon killed between claiming a fire and starting its run left it orphaned: start it here.
            try? await adoptOrphans()
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

    private let stamps: Stamps

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
