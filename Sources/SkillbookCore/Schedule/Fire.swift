public import Foundation

/// What makes a fire unique: the playbook, the index of its schedule entry and the scheduled
/// instant (milliseconds since 1970). A fire is started at most once per key, whoever starts it.
public struct FireKey: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    public var playbook: String
    public var entry: Int
    public var scheduledMilliseconds: Int64

    public init(playbook: String, entry: Int, scheduledAt: Date) {
        self.playbook = playbook
        self.entry = entry
        self.scheduledMilliseconds = Int64((scheduledAt.timeIntervalSince1970 * 1000).rounded())
    }

    public var scheduledAt: Date { Date(timeIntervalSince1970: Double(scheduledMilliseconds) / 1000) }

    /// `playbook#entry@milliseconds`.
    public var description: String { "\(playbook)#\(entry)@\(scheduledMilliseconds)" }

    public static func < (lhs: FireKey, rhs: FireKey) -> Bool {
        (lhs.playbook, lhs.entry, lhs.scheduledMilliseconds) < (rhs.playbook, rhs.entry, rhs.scheduledMilliseconds)
    }
}

/// One scheduled instant of one entry.
public struct Fire: Sendable, Hashable, Codable {
    public var key: FireKey
    /// Missed while nothing was running, started by the catch-up policy.
    public var isCatchUp: Bool

    public init(key: FireKey, isCatchUp: Bool = false) {
        self.key = key
        self.isCatchUp = isCatchUp
    }

    public var scheduledAt: Date { key.scheduledAt }
}

/// What a scheduler remembers of one entry between decisions; persist it to survive a restart.
public struct EntryState: Sendable, Hashable, Codable {
    /// Every fire at or before it has been decided; `nil` before the entry's first decision.
    public var watermark: Date?
    /// The first fire of an interval entry.
    public var anchor: Date?
    /// Missed fires (`catch_up: all`) that start one after another.
    public var backlog: [Fire]
    /// The fire waiting for the running one (`overlap: queue`).
    public var waiting: Fire?

    public init(watermark: Date? = nil, anchor: Date? = nil, backlog: [Fire] = [], waiting: Fire? = nil) {
        self.watermark = watermark
        self.anchor = anchor
        self.backlog = backlog
        self.waiting = waiting
    }
}

/// The outcome of one decision for one entry.
public struct FireDecision: Sendable, Hashable {
    /// Fires to start now, in order.
    public var start: [Fire]
    /// Fires recorded as skipped because the previous run still runs (`skip`, or `queue` when one waits).
    public var skipped: [Fire]
    /// Missed fires not started: with `catch_up: none`, older than the window, all but the newest
    /// with `latest`, or beyond the 1,000 of `all`.
    public var dropped: Int
    /// The state to keep (and persist) for the next decision.
    public var state: EntryState
    /// The dropped fires as batches with their reason (`catch_up` or `window`), kept by the ledger
    /// with the decision. Skipped fires are in `skipped`.
    public var missed: [MissedFires]

    public init(start: [Fire], skipped: [Fire], dropped: Int, state: EntryState, missed: [MissedFires] = []) {
        self.start = start
        self.skipped = skipped
        self.dropped = dropped
        self.state = state
        self.missed = missed
    }
}

/// Why fires of an entry were not started.
public enum MissReason: String, Sendable, Hashable, Codable, CaseIterable {
    /// Missed while nothing ran, and `catch_up` (`none`, `latest` keeping only the newest, the
    /// 1,000 of `all`) did not start them.
    case catchUp = "catch_up"
    /// Missed longer ago than `catch_up_window`.
    case window
    /// Due while the previous run still ran (`overlap: skip`, or `queue` with one waiting).
    case overlap
}

/// Consecutive fires of one entry dropped for one reason in one decision: `count` fires from
/// `first` through `last` (one fire: `first == last`).
public struct MissedFires: Sendable, Hashable, Codable {
    public var playbook: String
    public var entry: Int
    public var reason: MissReason
    public var first: Date
    public var last: Date
    public var count: Int

    public init(playbook: String, entry: Int, reason: MissReason, first: Date, last: Date, count: Int) {
        self.playbook = playbook
        self.entry = entry
        self.reason = reason
        self.first = first
        self.last = last
        self.count = count
    }

    /// A skipped fire as a batch of one (reason `overlap`).
    public init(skipped fire: Fire) {
        self.init(
            playbook: fire.key.playbook, entry: fire.key.entry, reason: .overlap, first: fire.scheduledAt, last: fire.scheduledAt,
            count: 1)
    }

    /// What a notification about it is keyed by (once per batch): `missed:playbook#entry@first_ms:reason`.
    public var key: String {
        "missed:\(FireKey(playbook: playbook, entry: entry, scheduledAt: first).description):\(reason.rawValue)"
    }
}

/// One line of `skillbook schedule history`: a fire started, or fires not started and why.
public struct FireRecord: Sendable, Hashable {
    public var playbook: String
    public var entry: Int
    /// The (first) scheduled instant.
    public var scheduledAt: Date
    /// The last scheduled instant of a batch of missed fires; `scheduledAt` for one fire.
    public var lastScheduledAt: Date
    /// `nil`: started.
    public var missed: MissReason?
    public var count: Int
    public var isCatchUp: Bool
    /// When it was decided.
    public var recorded: Date

    public init(
        playbook: String, entry: Int, scheduledAt: Date, lastScheduledAt: Date? = nil, missed: MissReason?, count: Int = 1,
        isCatchUp: Bool = false, recorded: Date
    ) {
        self.playbook = playbook
        self.entry = entry
        self.scheduledAt = scheduledAt
        self.lastScheduledAt = lastScheduledAt ?? scheduledAt
        self.missed = missed
        self.count = count
        self.isCatchUp = isCatchUp
        self.recorded = recorded
    }
}
