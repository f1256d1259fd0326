/// How many runs a journal keeps on its own: after each run, all but the newest
/// `defaultRuns` are pruned (`skillbook runs prune` prunes further).
public enum JournalRetention {
    public static let defaultRuns = 1000
}
