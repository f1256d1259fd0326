/// One entry of a playbook's `schedule:` block: when it fires, in which zone, and what happens to
/// fires that were missed or that come while the previous run still runs.
public struct ScheduleEntry: Sendable {
    public enum Trigger: Sendable, Hashable {
        /// A cron expression, evaluated in the entry's time zone.
        case cron(CronExpression)
        /// Every so many seconds (at least 1), anchored to the schedule's first fire.
        case every(seconds: Double)
    }

    public var trigger: Trigger
    /// An IANA zone name; `nil` is the machine's zone.
    public var timezone: String?
    public var catchUp: CatchUpPolicy
    /// Seconds back from now in which missed fires still count; older ones are dropped.
    public var catchUpWindow: Double
    public var overlap: OverlapPolicy
    /// Inputs of the runs it starts (literal values).
    public var inputs: [ScheduleInput]
    /// Where the entry is in its file.
    public var location: SourceLocation
    /// Where the `cron`/`every` value is.
    public var triggerLocation: SourceLocation
    /// Where the `timezone` value is, when given.
    public var timezoneLocation: SourceLocation?
    /// `schedule` for a single entry, `schedule[i]` (0-based) in a list, for messages.
    public var path: String

    public static let defaultCatchUpWindow: Double = 24 * 3600

    public init(
        trigger: Trigger, timezone: String? = nil, catchUp: CatchUpPolicy = .latest,
        catchUpWindow: Double = ScheduleEntry.defaultCatchUpWindow, overlap: OverlapPolicy = .skip,
        inputs: [ScheduleInput] = [], location: SourceLocation, triggerLocation: SourceLocation? = nil,
        timezoneLocation: SourceLocation? = nil, path: String = "schedule"
    ) {
        self.trigger = trigger
        self.timezone = timezone
        self.catchUp = catchUp
        self.catchUpWindow = catchUpWindow
        self.overlap = overlap
        self.inputs = inputs
        self.location = location
        self.triggerLocation = triggerLocation ?? location
        self.timezoneLocation = timezoneLocation
        self.path = path
    }
}

/// What a scheduler does with fires missed while nothing was running.
public enum CatchUpPolicy: String, Sendable, Hashable, CaseIterable {
    /// Start none of them.
    case none
    /// Start the newest one, once (the default).
    case latest
    /// Start every one in order, at most `CatchUpPolicy.maximumFires`; the rest are counted as dropped.
    case all

    public static let maximumFires = 1000
}

/// What a fire does while the previous run of the same entry still runs.
public enum OverlapPolicy: String, Sendable, Hashable, CaseIterable {
    /// It is recorded as skipped (the default).
    case skip
    /// It waits; at most one waits, later ones are skipped.
    case queue
    /// It starts anyway.
    case allow
}

/// One `inputs:` member of a schedule entry.
public struct ScheduleInput: Sendable, Hashable {
    public var name: String
    public var value: Value
    public var location: SourceLocation

    public init(name: String, value: Value, location: SourceLocation) {
        self.name = name
        self.value = value
        self.location = location
    }
}
