public import SkillbookCore

/// A journal that reads its tables one at a time, the same tables on every SQL backend: what is put
/// together from them (a run's timeline, the calls and steps a resume plans from) is put together
/// here, once. `ReadFailure` is the backend's own error.
public protocol JournalTables {
    associatedtype ReadFailure: Error
    func run(_ id: String) throws(ReadFailure) -> JournalRun?
    /// Every attempt of every call of a run, in order of starting.
    func calls(of runID: String) throws(ReadFailure) -> [JournalCall]
    /// At most `limit` attempts of a run's calls in order of starting, after the row `position`.
    func calls(of runID: String, after position: Int64?, limit: Int) throws(ReadFailure) -> CallPage
    func steps(of runID: String) throws(ReadFailure) -> [JournalStep]
    func compensations(of runID: String) throws(ReadFailure) -> [JournalCompensation]
    func sessions(of runID: String) throws(ReadFailure) -> [JournalSession]
    func waits(of runID: String) throws(ReadFailure) -> [JournalWait]
    /// The playbook source a run was started from and its report (`nil` until it ended).
    func sourceAndReport(of runID: String) throws(ReadFailure) -> (source: String, report: Value?)
    /// The playbook source a run was started from.
    func source(of runID: String) throws(ReadFailure) -> String
    /// A run's record with its source, and its report when `withReport` (`nil` until it ended);
    /// `nil` when there is no such run. A backend on a server reads them in one statement.
    func runWithSource(_ runID: String, withReport: Bool) throws(ReadFailure) -> (run: JournalRun, source: String, report: Value?)?
}

extension JournalTables {
    /// Everything the journal holds of a run; `nil` when there is no such run.
    public func timeline(_ runID: String) throws(ReadFailure) -> RunTimeline? {
        try timeline(runID, withCalls: true, withReport: true)
    }

    /// Everything but the calls (read those in pages), and without `withReport` but the report.
    public func timelineWithoutCalls(_ runID: String, withReport: Bool) throws(ReadFailure) -> RunTimeline? {
        try timeline(runID, withCalls: false, withReport: withReport)
    }

    public func runWithSource(_ runID: String, withReport: Bool) throws(ReadFailure) -> (run: JournalRun, source: String, report: Value?)? {
        guard let run = try run(runID) else { return nil }
        let (source, report) = withReport ? try sourceAndReport(of: runID) : (try self.source(of: runID), nil)
        return (run, source, report)
    }

    private func timeline(_ runID: String, withCalls: Bool, withReport: Bool) throws(ReadFailure) -> RunTimeline? {
        guard let (run, source, report) = try runWithSource(runID, withReport: withReport) else { return nil }
        var timeline = RunTimeline(
            run: run, source: source, sessions: try sessions(of: runID), calls: withCalls ? try calls(of: runID) : [],
            steps: try steps(of: runID), compensations: try compensations(of: runID), report: report)
        timeline.waits = try waits(of: runID)
        return timeline
    }

    /// The calls of a run as `ResumePlan.from` takes them. Attempts are numbered again in order of
    /// starting, so that an attempt made by a resume counts as later than those before it.
    public func journaledCalls(of runID: String) throws(ReadFailure) -> [JournaledCall] {
        JournaledCall.renumbered(try calls(of: runID))
    }

    public func journaledSteps(of runID: String) throws(ReadFailure) -> [JournaledStep] {
        try steps(of: runID).map { JournaledStep(step: $0.step, status: $0.status, output: $0.output, outputMasked: $0.outputMasked) }
    }
}
