public import Foundation

/// What a notification is told about the run it reports: `${{ run.… }}` in its steps.
///
/// `id`, `playbook`, `status` (`failed`, `waiting`, `missed`, …), `error`, `failed_step`,
/// `duration` (seconds), `trigger`, `scheduled_at`, `started`, `link` (the run's page in the
/// console, when `console_url` is configured) and `missed` (how many fires, for a `missed` event).
public struct NotificationSubject: Sendable, Hashable {
    public var id: String
    public var playbook: String
    public var status: String
    public var error: String?
    public var failedStep: String?
    public var duration: Double?
    public var trigger: String
    public var scheduledAt: Date?
    public var started: Date?
    public var link: String?
    public var missed: Int?

    public init(
        id: String, playbook: String, status: String, error: String? = nil, failedStep: String? = nil, duration: Double? = nil,
        trigger: String, scheduledAt: Date? = nil, started: Date? = nil, link: String? = nil, missed: Int? = nil
    ) {
        self.id = id
        self.playbook = playbook
        self.status = status
        self.error = error
        self.failedStep = failedStep
        self.duration = duration
        self.trigger = trigger
        self.scheduledAt = scheduledAt
        self.started = started
        self.link = link
        self.missed = missed
    }

    /// The name of the notification playbook's one input, holding this subject; expressions read
    /// it as `run`.
    public static let inputName = "run"

    /// The fields of `run` in a notification, as the type checker sees them.
    public static let fields: [ObjectField] = [
        ObjectField(name: "id", type: .string), ObjectField(name: "playbook", type: .string),
        ObjectField(name: "status", type: .string), ObjectField(name: "error", type: .union([.string, .null])),
        ObjectField(name: "failed_step", type: .union([.string, .null])),
        ObjectField(name: "duration", type: .union([.number, .null])), ObjectField(name: "trigger", type: .string),
        ObjectField(name: "scheduled_at", type: .union([.string, .null])),
        ObjectField(name: "started", type: .union([.string, .null])), ObjectField(name: "link", type: .union([.string, .null])),
        ObjectField(name: "missed", type: .union([.integer, .null])),
    ]

    static func input(at location: SourceLocation) -> PlaybookInput {
        PlaybookInput(name: inputName, schema: Schema(type: .object), location: location)
    }

    /// The subject as the notification's input value (dates as ISO 8601 in `timeZone`).
    public func value(timeZone: TimeZone) -> Value {
        var object = ValueObject()
        object["id"] = .string(id)
        object["playbook"] = .string(playbook)
        object["status"] = .string(status)
        object["error"] = error.map(Value.string) ?? .null
        object["failed_step"] = failedStep.map(Value.string) ?? .null
        object["duration"] = duration.map { .double(($0 * 1000).rounded() / 1000) } ?? .null
        object["trigger"] = .string(trigger)
        object["scheduled_at"] = scheduledAt.map { .string(DateParser.formatDateTime($0, timeZone: timeZone)) } ?? .null
        object["started"] = started.map { .string(DateParser.formatDateTime($0, timeZone: timeZone)) } ?? .null
        object["link"] = link.map(Value.string) ?? .null
        object["missed"] = missed.map { .int($0) } ?? .null
        return .object(object)
    }
}
