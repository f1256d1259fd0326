import SkillbookCore

extension PlaybookHost {
    /// Declares the gauges of `--metrics` read from the state at each scrape that every
    /// long-running command serves: the approvals waiting (`skillbook_approvals_waiting`). The
    /// journal is opened once, here; a state without approvals, or one that cannot be opened,
    /// leaves the gauge without a sample. Nothing without a `metrics` in the configuration.
    public func declareMetricGauges() {
        guard let metrics = configuration.metrics else { return }
        metrics.registry.declare(SkillbookMetrics.approvalsWaiting)
        guard let (journal, approvals) = try? openApprovals() else { return }
        metrics.registry.gauge(SkillbookMetrics.approvalsWaiting) {
            withExtendedLifetime(journal) {}
            guard let pending = try? await approvals.pendingApprovals() else { return [] }
            return [([], Double(pending.count))]
        }
    }
}
