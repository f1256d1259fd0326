public import Foundation

/// How long the journal keeps runs: `retention: { days: 30, max_runs: 100000 }` in
/// `skillbook.yaml` for every playbook, or in a playbook for its own runs.
///
/// - `days`: a run is kept at least this many days after it started. A playbook's own `days` is
///   recorded on each of its runs when it starts (`RunRecord.keepUntil`); a run without one follows
///   the workspace's.
/// - `maxRuns`: the workspace's caps the whole journal (the newest are kept); a playbook's caps its
///   own runs. Both apply: a playbook cannot keep more than the journal's cap. Unfinished runs are
///   kept besides: a cap keeps the newest `maxRuns` and every unfinished run.
///
/// A run that is not finished (running, queued, waiting) is never pruned, whatever its age.
/// Pruning goes in small batches after each run (see `RunJournal.pruneBatch`), so that no run
/// waits on a large delete; `skillbook runs prune` prunes on demand.
public struct RetentionPolicy: Sendable, Hashable {
    public static let defaultDays = 30
    public static let defaultMaxRuns = 100_000
    /// The workspace's when it says nothing.
    public static let standard = RetentionPolicy(days: defaultDays, maxRuns: defaultMaxRuns)

    public var days: Int
    public var maxRuns: Int

    public init(days: Int, maxRuns: Int) {
        self.days = days
        self.maxRuns = maxRuns
    }

    /// The instant before which a run started under this policy may be pruned.
    public func cutoff(now: Date) -> Date { now.addingTimeInterval(-Double(days) * 86_400) }
}

/// A playbook's own retention, each part optional (what it leaves out is the workspace's).
public struct PlaybookRetention: Sendable, Hashable {
    public var days: Int?
    public var maxRuns: Int?

    public init(days: Int? = nil, maxRuns: Int? = nil) {
        self.days = days
        self.maxRuns = maxRuns
    }
}

/// What one background pruning pass applies: the workspace's policy to the whole journal and, for
/// the playbook that just ran, its own cap.
public struct RetentionRules: Sendable, Hashable {
    public var workspace: RetentionPolicy
    /// A playbook whose own `max_runs` caps its runs, with that cap.
    public var playbookCap: (name: String, maxRuns: Int)?

    public init(workspace: RetentionPolicy = .standard, playbookCap: (name: String, maxRuns: Int)? = nil) {
        self.workspace = workspace
        self.playbookCap = playbookCap
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.workspace == rhs.workspace && lhs.playbookCap?.name == rhs.playbookCap?.name
            && lhs.playbookCap?.maxRuns == rhs.playbookCap?.maxRuns
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(workspace)
        hasher.combine(playbookCap?.name)
        hasher.combine(playbookCap?.maxRuns)
    }
}

/// How many runs one background pruning pass deletes at most: small enough that a pass takes a
/// few milliseconds; each run prunes again, so the journal converges on its policy.
public enum JournalRetention {
    public static let batch = 200
    /// How many runs one transaction of `skillbook runs prune` deletes (by retention, a pass of
    /// `pruneBatch` this size): larger transactions write the pages of an index keyed by random ids
    /// fewer times over (see `SQLiteJournal.pruneChunk`), and nobody waits on a run for it.
    public static let explicitBatch = 50_000
    /// The statuses a run may be pruned in: finished ones, and `interrupted` (its process ended).
    /// Anything else (running, queued, waiting, or a status this build does not know) is kept.
    public static let prunableStatuses: [String] = [
        JournalStatus.succeeded, .succeededWithErrors, .failed, .rolledBack, .rollbackIncomplete, .interrupted,
    ].map(\.rawValue)
    /// The statuses of runs that are not finished, which pruning never deletes: those this build
    /// knows and `waiting` (a run waiting for an approval).
    public static let unfinishedStatuses: [String] = Array(
        Set(JournalStatus.allCases.map(\.rawValue)).subtracting(prunableStatuses).union(["waiting"])
    ).sorted()
}
