public import Foundation

/// Which runs a listing wants; every part optional.
public struct RunFilter: Sendable, Hashable {
    public var playbook: String?
    /// As reported: `interrupted` finds the runs whose process died, `running` those still held.
    public var status: JournalStatus?
    /// `cli`, `schedule`, `agent`, `console`, …
    public var trigger: RunTrigger?
    /// Runs that started at or after this instant.
    public var startedFrom: Date?
    /// Runs that started before this instant.
    public var startedBefore: Date?

    public init(
        playbook: String? = nil, status: JournalStatus? = nil, trigger: RunTrigger? = nil, startedFrom: Date? = nil, startedBefore: Date? = nil
    ) {
        self.playbook = playbook
        self.status = status
        self.trigger = trigger
        self.startedFrom = startedFrom
        self.startedBefore = startedBefore
    }
}

/// Where a page of runs (newest first) ended: the next page starts with the run just older than
/// it. The run it names may be pruned meanwhile; the position stays. Runs added meanwhile are
/// newer, so paging on never skips or repeats a run.
public struct RunCursor: Sendable, Hashable {
    /// When the last run of the page started (seconds since 1970, as stored).
    public var started: Double
    /// Its insertion order in the journal (SQLite's rowid, PostgreSQL's `seq`), which orders runs
    /// that started at the same instant.
    public var order: Int64

    public init(started: Double, order: Int64) {
        self.started = started
        self.order = order
    }

    /// `1764600000.123456~42`: what a client passes back.
    public var text: String { "\(started)~\(order)" }

    /// The cursor `text` gave; `nil` for anything else.
    public init?(text: String) {
        let parts = text.split(separator: "~", omittingEmptySubsequences: false)
        guard parts.count == 2, let started = Double(parts[0]), started.isFinite, let order = Int64(parts[1]) else { return nil }
        self.init(started: started, order: order)
    }
}

/// One page of runs, newest first, and the cursor of the next (`nil` on the last page).
public struct RunPage: Sendable {
    public var runs: [JournalRun]
    public var next: RunCursor?

    public init(runs: [JournalRun], next: RunCursor?) {
        self.runs = runs
        self.next = next
    }
}
