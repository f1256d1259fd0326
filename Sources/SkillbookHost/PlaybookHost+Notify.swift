public import Foundation
public import SkillbookCore
import SkillbookRuntime

extension PlaybookHost {
    /// After a run ended (or started to wait): runs the playbook's `notify:` rule for the event its
    /// status maps to (`NotifyEvent(status:)`), as its own run (trigger `notify`). Returns the
    /// notification's run id, or `nil` when nothing was sent.
    ///
    /// Never changes `result`; a notification run does not notify; the event is claimed in the
    /// notification ledger first, so each is sent once per run, whoever sees the run end.
    @discardableResult
    public func notify(
        about result: RunResult, status: String, playbook: Playbook, registry: SkillRegistry, trigger: RunTrigger, scheduledAt: Date?,
        workspace: String
    ) async -> String? {
        guard !result.isDryRun, !playbook.isNotification, trigger != .notify,
            let event = NotifyEvent(status: status), let rule = playbook.notifyRule(for: event)
        else { return nil }
        let failed = result.steps.first { $0.status == .failed || $0.status == .uncertain }
        let subject = NotificationSubject(
            id: result.runID, playbook: result.playbook, status: status, error: result.error, failedStep: failed?.id,
            duration: result.finished.timeIntervalSince(result.started), trigger: trigger.rawValue, scheduledAt: scheduledAt,
            started: result.started, link: runLink(result.runID))
        return await send(subject, key: result.runID, event: event, rule: rule, playbook: playbook, registry: registry, workspace: workspace)
    }

    /// Notifies `missed` for a batch of fires the schedule of the playbook at `file` did not start,
    /// once per batch (keyed by `MissedFires.key`).
    @discardableResult
    public func notifyMissed(_ batch: MissedFires, file: URL) async -> String? {
        guard let registry = try? loadRegistry().registry, let playbook = try? loadPlaybook(at: file, registry: registry).playbook,
            let rule = playbook.notifyRule(for: .missed)
        else { return nil }
        let subject = NotificationSubject(
            id: "", playbook: batch.playbook, status: NotifyEvent.missed.rawValue,
            error: "\(batch.count) fire\(batch.count == 1 ? "" : "s") not started (\(batch.reason.rawValue))", trigger: "schedule",
            scheduledAt: batch.last, missed: batch.count)
        return await send(
            subject, key: batch.key, event: .missed, rule: rule, playbook: playbook, registry: registry,
            workspace: WorkspaceFolder.of(playbookFile: file).path)
    }

    /// `<console_url>/runs/<id>`, when the workspace names its console.
    func runLink(_ runID: String) -> String? {
        configuration.consoleURL.map { "\($0)/runs/\(runID)" }
    }

    /// Claims (key, event), links the notification's run id, then runs it. A claim already taken
    /// sends nothing; a ledger that cannot be reached sends nothing either (a notification that
    /// might go twice is worse than one reported missing in the log of the process).
    private func send(
        _ subject: NotificationSubject, key: String, event: NotifyEvent, rule: NotifyRule, playbook: Playbook,
        registry: SkillRegistry, workspace: String
    ) async -> String? {
        let notification = playbook.notificationPlaybook(for: rule)
        guard let ledger = try? openNotificationLedger(), let journal = try? openJournal(),
            (try? await ledger.claim(subject: key, event: event, playbook: notification.name)) == true
        else { return nil }
        let runID = configuration.ids.next()
        try? await ledger.link(subject: key, event: event, notificationRun: runID)
        try? await recordWorkspace(of: runID, in: journal)
        var inputs = ValueObject()
        inputs[NotificationSubject.inputName] = subject.value(timeZone: configuration.timeZone)
        let prepared = PreparedRun(
            playbook: notification, inputs: inputs, registry: registry, journal: journal, runID: runID,
            work: .run(Engine.RunOptions(dryRun: false, trigger: .notify, source: "")), heldStatus: nil,
            workspace: workspace)
        _ = await execute(prepared)
        return runID
    }
}
