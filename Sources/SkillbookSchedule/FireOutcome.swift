/// What became of a schedule fire, as metrics count it.
public enum FireOutcome: String, Sendable, CaseIterable {
    /// Started at its time (within the live tolerance).
    case onTime = "on_time"
    /// Started late: a missed fire caught up (`catch_up: latest` or `all`).
    case late
    /// Not started: the previous run of the entry still ran (`overlap: skip`, or `queue` full).
    case skipped
    /// Missed and not caught up (`catch_up: none`, outside the window, or past the backlog's limit).
    case dropped
}
