import Foundation
public import SkillbookCore
public import SkillbookRuntime
import SkillbookSQLite

/// What became of a run once its approval was decided.
public enum ApprovalContinuation: Sendable {
    /// This process continued it (a state of one machine): how it ended, or that it waits again.
    case ran(RunResult)
    /// It was given back to the workers (a state shared by machines): one of them goes on with it.
    case queued
    /// The daemon that started it (the process `pid`, still running on this state) was woken and
    /// goes on with it (see `DaemonWake`).
    case handedOver(daemon: Int32)
    /// The decision is recorded, but the run could not go on here (its playbook file changed, a
    /// secret input must be given again…): `skillbook resume RUN` continues it with the decision.
    case notContinued(HostError)
}

/// A decision recorded, and what became of its run.
public struct ApprovalOutcome: Sendable {
    /// The request, with the decision.
    public var record: ApprovalRecord
    public var continuation: ApprovalContinuation
}

extension PlaybookHost {
    /// Who decides, as the journal records it: `user@host`.
    public var decider: String {
        let user = configuration.environment["USER"] ?? configuration.environment["LOGNAME"]
            ?? ProcessInfo.processInfo.environment["USER"]
            ?? getpwuid(getuid()).map { String(cString: $0.pointee.pw_name) } ?? "uid\(getuid())"
        return "\(user)@\(ProcessInfo.processInfo.hostName)"
    }

    /// The runs that wait for an approval, oldest request first. Requests that expired meanwhile
    /// are declined first (reason `expired`) and their runs go on (see `expireApprovals`): they are
    /// not listed.
    public func approvals(onEvent: @escaping RunEventHandler = { _ in }) async throws(HostError) -> [ApprovalRecord] {
        try await approvalsExpiringOverdue(onEvent: onEvent).pending
    }

    /// The runs that wait for an approval, and what became of those whose request had expired
    /// (declined now, their runs gone on), for a listing that says so.
    public func approvalsExpiringOverdue(
        onEvent: @escaping RunEventHandler = { _ in }
    ) async throws(HostError) -> (pending: [ApprovalRecord], expired: [ApprovalOutcome]) {
        let (_, approvals) = try openApprovals()
        let pending = try await HostError.journaling { try await approvals.pendingApprovals() }
        let now = configuration.clock.now()
        guard pending.contains(where: { $0.request.expires <= now }) else { return (pending, []) }
        let expired = await expireApprovals(onEvent: onEvent)
        return (try await HostError.journaling { try await approvals.pendingApprovals() }, expired)
    }

    /// The newest approval request of a run (a run id or a unique prefix), with its decision if
    /// there is one; `nil` when the run never waited.
    public func approval(ofRun run: String) async throws(HostError) -> ApprovalRecord? {
        let (journal, approvals) = try openApprovals()
        let runID = try await HostError.journaling { try await journal.resolveRunID(run) }
        return try await HostError.journaling { try await approvals.approvals(ofRun: runID) }.last
    }

    /// Every approval request of a run (a run id or a unique prefix of it), oldest first, with its
    /// decision; empty when the run never waited or the state keeps no approvals.
    public func approvalHistory(ofRun run: String) async throws(HostError) -> [ApprovalRecord] {
        let journal = try openJournal()
        guard let approvals = persistence.approvals(journal) else { return [] }
        let runID = try await HostError.journaling { try await journal.resolveRunID(run) }
        return try await HostError.journaling { try await approvals.approvals(ofRun: runID) }
    }

    /// The same for a run id the journal gave (`resolveRunID`, a run's record): not looked up
    /// again; empty for an id of no run.
    public func approvalHistory(ofRunID runID: String) async throws(HostError) -> [ApprovalRecord] {
        let journal = try openJournal()
        guard let approvals = persistence.approvals(journal) else { return [] }
        return try await HostError.journaling { try await approvals.approvals(ofRun: runID) }
    }

    /// Approves the call `run` waits at (at `step`, when given: refused if it waits elsewhere), and
    /// the run goes on under the resume rules with that call approved: in this process on a state of
    /// one machine, through a worker on a shared one. A request that expired is declined instead
    /// (reason `expired`; see the outcome's decision). Refuses (`HostError.journal`, `.refused`)
    /// when the run does not wait, or its approval was decided already.
    public func approve(
        run: String, step: String? = nil, onEvent: @escaping RunEventHandler = { _ in }
    ) async throws(HostError) -> ApprovalOutcome {
        try await decide(run, step: step.map(StepPath.init(parsing:)), verdict: .approved, reason: nil, onEvent: onEvent)
    }

    /// Declines the call `run` waits at: the step fails as `declined`, and the playbook's
    /// `on_failure` applies (a rollback by default). Refuses as `approve` does.
    public func decline(
        run: String, reason: String? = nil, onEvent: @escaping RunEventHandler = { _ in }
    ) async throws(HostError) -> ApprovalOutcome {
        try await decide(run, step: nil, verdict: .declined, reason: reason, onEvent: onEvent)
    }

    /// Declines every request that expired (reason `expired`) and lets its run go on (its step
    /// fails as `declined`). Another process deciding one first is not an error: it is skipped.
    /// The daemon calls this on each wake; `approvals` and `approve` do too. A run continued here
    /// records `trigger` with the session it opens (`schedule` from the daemon and `tick`).
    @discardableResult
    public func expireApprovals(
        trigger: RunTrigger = .cli, onEvent: @escaping RunEventHandler = { _ in }
    ) async -> [ApprovalOutcome] {
        guard let (_, approvals) = try? openApprovals(), let pending = try? await approvals.pendingApprovals() else { return [] }
        let now = configuration.clock.now()
        var outcomes: [ApprovalOutcome] = []
        for record in pending where record.request.expires <= now {
            let decision = ApprovalDecision(verdict: .expired, by: decider, at: now, reason: "expired")
            guard let decided = try? await approvals.decide(record.request.runID, step: nil, decision) else { continue }
            let continuation = await continueDecided(decided.request.runID, trigger: trigger, onEvent: onEvent)
            outcomes.append(ApprovalOutcome(record: decided, continuation: continuation))
        }
        return outcomes
    }

    private func decide(
        _ run: String, step: StepPath?, verdict: ApprovalVerdict, reason: String?, onEvent: @escaping RunEventHandler
    ) async throws(HostError) -> ApprovalOutcome {
        let (journal, approvals) = try openApprovals()
        let runID = try await HostError.journaling { try await journal.resolveRunID(run) }
        let now = configuration.clock.now()
        var decision = ApprovalDecision(verdict: verdict, by: decider, at: now, reason: reason)
        if let newest = try await HostError.journaling({ try await approvals.approvals(ofRun: runID) }).last,
            newest.decision == nil, newest.request.expires <= now
        {
            decision = ApprovalDecision(verdict: .expired, by: decider, at: now, reason: "expired")
        }
        let decided = try await HostError.journaling { try await approvals.decide(runID, step: step, decision) }
        return ApprovalOutcome(record: decided, continuation: await continueDecided(runID, onEvent: onEvent))
    }

    /// A run whose approval was just decided goes on: through a worker (PostgreSQL); on SQLite in
    /// the running daemon that started it (woken), or else here.
    private func continueDecided(
        _ runID: String, trigger: RunTrigger = .cli, onEvent: @escaping RunEventHandler
    ) async -> ApprovalContinuation {
        if let openQueue = persistence.openRunQueue {
            do {
                try await openQueue().requeueDecided(runID)
                return .queued
            } catch {
                return .notContinued(HostError(error))
            }
        }
        if let daemon = await daemonThatStarted(runID), DaemonWake.send(to: daemon) { return .handedOver(daemon: daemon) }
        return await continueDecidedHere(runID, trigger: trigger, onEvent: onEvent)
    }

    /// Continues a run whose approval was decided in this process, under the resume rules (an
    /// uncertain call is refused, not run again); `trigger` is recorded with the session it opens.
    public func continueDecidedHere(
        _ runID: String, trigger: RunTrigger = .cli, onEvent: @escaping RunEventHandler = { _ in }
    ) async -> ApprovalContinuation {
        do {
            return .ran(try await resume(ResumeRequest(run: runID, uncertain: .refuse, trigger: trigger), onEvent: onEvent))
        } catch {
            return .notContinued(error)
        }
    }

    /// The pid of the daemon that started `runID` and left it waiting, when that very process still
    /// runs and holds this state's daemon lock (and it is not this process).
    private func daemonThatStarted(_ runID: String) async -> Int32? {
        guard configuration.persistence == nil, let daemon = DaemonLock.holder(stateDirectory: configuration.stateDirectory),
            let journal = try? openJournal(), let holder = try? await journal.run(runID)?.holder,
            holder.pid == daemon, holder.host == SQLiteState.currentProcess.host, holder != SQLiteState.currentProcess,
            SQLiteState.isRunning(holder)
        else { return nil }
        return daemon
    }

    /// The runs this process started and left waiting whose approval another process has decided
    /// since: what a daemon continues when it is woken (see `DaemonWake`), oldest decision first.
    public func decidedRunsStartedHere() async -> [ApprovalRecord] {
        guard configuration.persistence == nil, let (journal, approvals) = try? openApprovals(),
            let decided = try? await approvals.decidedWaiting(), !decided.isEmpty
        else { return [] }
        let me = SQLiteState.currentProcess
        var mine: [ApprovalRecord] = []
        for record in decided where (try? await journal.run(record.request.runID)?.holder) == me { mine.append(record) }
        return mine
    }

    /// Whether the newest approval request of a waiting run is still undecided.
    func approvalIsUndecided(_ runID: String, journal: any RunJournal) async throws(HostError) -> Bool {
        guard let approvals = persistence.approvals(journal) else { return true }
        let newest = try await HostError.journaling { try await approvals.approvals(ofRun: runID) }.last
        return newest?.decision == nil
    }

    /// The confirmer of a run that goes on: the steps someone decided about answer with that
    /// decision (approved, or declined with its reason), the others ask `base`.
    func confirmer(resuming runID: String, journal: any RunJournal, base: any Confirmer) async -> any Confirmer {
        guard let approvals = persistence.approvals(journal), let decisions = try? await approvals.decisions(ofRun: runID),
            !decisions.isEmpty
        else { return base }
        var answers: [StepPath: ConfirmationAnswer] = [:]
        for (step, decision) in decisions {
            answers[step] =
                decision.verdict.isApproved
                ? .approved
                : .declined(reason: decision.verdict == .expired ? "expired" : "declined by \(decision.by)" + (decision.reason.map { ": \($0)" } ?? ""))
        }
        return DecidedConfirmer(decided: answers, base: base)
    }

    func openApprovals() throws(HostError) -> (any RunJournal, any ApprovalJournal) {
        let journal = try openJournal()
        guard let approvals = persistence.approvals(journal) else { throw .approvalsUnavailable }
        return (journal, approvals)
    }
}
