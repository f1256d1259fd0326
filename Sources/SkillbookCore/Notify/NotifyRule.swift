/// One entry of `notify:`: the steps (skill calls or a playbook) that run when `event` happens.
public struct NotifyRule: Sendable {
    public var event: NotifyEvent
    public var steps: [PlaybookStep]
    /// Where the event's key is.
    public var location: SourceLocation

    public init(event: NotifyEvent, steps: [PlaybookStep], location: SourceLocation) {
        self.event = event
        self.steps = steps
        self.location = location
    }
}

extension Playbook {
    /// The rule that answers `event` (see `NotifyEvent.fallbacks`).
    public func notifyRule(for event: NotifyEvent) -> NotifyRule? {
        for candidate in event.fallbacks {
            if let rule = notify.first(where: { $0.event == candidate }) { return rule }
        }
        return nil
    }

    /// The playbook a notification about this one runs: the rule's steps, with `run` bound to the
    /// run it reports (`NotificationSubject`), the same `env` and sub-playbooks. It has no
    /// notifications of its own: a notification never notifies.
    public func notificationPlaybook(for rule: NotifyRule) -> Playbook {
        var playbook = Playbook(
            name: "\(name).notify.\(rule.event.rawValue)", description: "notification '\(rule.event.rawValue)' of \(name)",
            inputs: [NotificationSubject.input(at: rule.location)], env: env, onFailure: .continue, steps: rule.steps,
            file: file)
        playbook.subPlaybooks = subPlaybooks
        playbook.isNotification = true
        return playbook
    }

    /// `notify:` with the workspace's rules for the events this playbook does not map itself.
    public mutating func addDefaultNotify(_ defaults: [NotifyRule]) {
        let own = Set(notify.map(\.event))
        notify += defaults.filter { !own.contains($0.event) }
    }
}
