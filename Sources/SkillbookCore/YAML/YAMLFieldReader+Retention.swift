/// `retention: { days: 30, max_runs: 100000 }`, in `skillbook.yaml` and in a playbook.
extension YAMLFieldReader {
    public static let retentionKeys = ["days", "max_runs"]
    /// The largest `days` (about 100 years) and `max_runs` accepted.
    public static let retentionDaysLimit = 36_500
    public static let retentionRunsLimit = 1_000_000_000

    /// The mapping's parts, each a whole number from 1; each problem reported where it is.
    public mutating func retention(_ node: YAMLNode) -> PlaybookRetention? {
        guard let pairs = node.mapping else {
            error(
                "'retention' must be a mapping with 'days' and/or 'max_runs' (such as { days: 30, max_runs: 100000 }), not a \(node.kindName)",
                at: node.location)
            return nil
        }
        var retention = PlaybookRetention()
        for pair in pairs {
            guard let key = pair.key.scalar else { continue }
            switch key {
            case "days": retention.days = positiveInteger(pair.value, "retention.days", limit: Self.retentionDaysLimit)
            case "max_runs": retention.maxRuns = positiveInteger(pair.value, "retention.max_runs", limit: Self.retentionRunsLimit)
            default: unknownKey(pair.key, key, in: "retention", known: Self.retentionKeys)
            }
        }
        return retention
    }
}
