import Foundation
import SkillbookCore

extension ScheduleService {
    /// When a daemon starts: the runs of scheduled playbooks that a previous process left
    /// `interrupted` (killed, the machine went down), each handled as its playbook's
    /// `on_interrupted` says — `resume` it, `rollback` it, or `leave` it for a person and notify
    /// `failure` — and said in the log. On a state that queues runs, workers take such runs over
    /// (the resume rules), so nothing is done here.
    public func applyOnInterrupted() async {
        guard !host.persistence.queuesRuns else { return }
        let runs: [JournalRun]
        do {
            runs = try await host.openJournal().runs(playbook: nil, status: .interrupted, limit: 100)
        } catch {
            log("interrupted runs not checked error=\(ScheduleFireStarter.oneLine("\(error)"))")
            return
        }
        guard let workspace = try? host.scheduledWorkspace() else { return }
        for run in runs.reversed() where run.trigger == .schedule {
            guard let entry = workspace.entries.first(where: { $0.playbook.name == run.playbook }) else { continue }
            let policy = entry.playbook.onInterrupted
            log("interrupted run found \(run.playbook) run=\(run.id) (\(run.interruption ?? "its process ended")) on_interrupted=\(policy.rawValue)")
            do throws(HostError) {
                switch policy {
                case .resume:
                    let result = try await host.resume(ResumeRequest(run: run.id))
                    log("run resumed \(run.playbook) run=\(run.id) status=\(result.status.rawValue)")
                case .rollback:
                    let result = try await host.rollback(run: run.id)
                    log("run rolled back \(run.playbook) run=\(run.id) status=\(result.status.rawValue)")
                case .leave:
                    await leave(run, playbook: entry.playbook, file: entry.file)
                }
            } catch {
                log("run left interrupted \(run.playbook) run=\(run.id) error=\(ScheduleFireStarter.oneLine("\(error)"))")
                await leave(run, playbook: entry.playbook, file: entry.file)
            }
        }
    }

    /// Leaves the run for `skillbook resume` or `rollback`, and notifies `failure` (once per run).
    private func leave(_ run: JournalRun, playbook: Playbook, file: URL) async {
        guard let registry = try? host.loadRegistry().registry else { return }
        let result = RunResult(
            runID: run.id, playbook: run.playbook, status: .failed, steps: [],
            error: run.error ?? "interrupted: \(run.interruption ?? "its process ended before it finished")", started: run.started,
            finished: run.heartbeat ?? run.started)
        if let notification = await host.notify(
            about: result, status: JournalStatus.interrupted.rawValue, playbook: playbook, registry: registry, trigger: run.trigger,
            scheduledAt: run.scheduledAt, workspace: WorkspaceFolder.of(playbookFile: file).path)
        {
            log("notified failure \(run.playbook) run=\(run.id) notification=\(notification)")
        }
    }
}
