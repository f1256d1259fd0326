public import Foundation

/// A call that needs confirmation, waiting for a person because nobody could be asked when the run
/// reached it (no terminal and no `--yes`, a daemon, a worker): the run stopped there with status
/// `waiting` (see DESIGN.md, "Unattended runs").
public struct ApprovalRequest: Sendable, Hashable {
    public var runID: String
    /// The step that waits (`parent/child` inside sub-playbooks).
    public var step: StepPath
    /// The step's first call: the one the approval lets run (the step's other calls go with it).
    public var key: CallKey
    public var skill: String
    /// The skill's title (`Delete notes`).
    public var title: String
    /// The resolved parameters of the first call, secrets masked.
    public var parameters: ValueObject
    /// What every call of the step would touch, as the terminal confirmation shows it (secrets
    /// masked); `nil` when the skill does not say.
    public var touches: CallPreview?
    /// How many calls the step makes (batches or iterations).
    public var calls: Int
    public var requested: Date
    /// When an undecided request counts as declined (reason `expired`).
    public var expires: Date

    public init(
        runID: String, step: StepPath, key: CallKey, skill: String, title: String, parameters: ValueObject,
        touches: CallPreview?, calls: Int, requested: Date, expires: Date
    ) {
        self.runID = runID
        self.step = step
        self.key = key
        self.skill = skill
        self.title = title
        self.parameters = parameters
        self.touches = touches
        self.calls = calls
        self.requested = requested
        self.expires = expires
    }
}

/// What was decided about a request.
public enum ApprovalVerdict: String, Sendable, Hashable, CaseIterable {
    case approved
    case declined
    /// Nobody decided before it expired: it counts as declined.
    case expired

    public var isApproved: Bool { self == .approved }
}

/// A decision about an approval request: what, by whom (`user@host`), when, and why.
public struct ApprovalDecision: Sendable, Hashable {
    public var verdict: ApprovalVerdict
    public var by: String
    public var at: Date
    public var reason: String?

    public init(verdict: ApprovalVerdict, by: String, at: Date, reason: String? = nil) {
        self.verdict = verdict
        self.by = by
        self.at = at
        self.reason = reason
    }
}

/// A request as the journal keeps it, with its run and its decision once there is one.
public struct ApprovalRecord: Sendable {
    public var request: ApprovalRequest
    public var decision: ApprovalDecision?
    public var playbook: String
    /// The run's status as reported now.
    public var runStatus: JournalStatus

    public init(request: ApprovalRequest, decision: ApprovalDecision?, playbook: String, runStatus: JournalStatus) {
        self.request = request
        self.decision = decision
        self.playbook = playbook
        self.runStatus = runStatus
    }

    /// Undecided, and its run still waits for it.
    public var isPending: Bool { decision == nil && runStatus == .waiting }
}

/// Where approval requests and their decisions are kept: the journal of the runs that wait.
///
/// A journal records a request with `RunRecorder.approvalRequested` (durably, before the run is
/// recorded as `waiting`). A conformer must make `decide` atomic across processes: it decides the
/// newest request of a run only when that request is undecided and the run is `waiting`, and
/// otherwise throws `JournalError` `.refused` (or `.notFound`) whose message states the run's state,
/// so that two deciders never both succeed.
public protocol ApprovalJournal: Sendable {
    /// The newest undecided request of each `waiting` run, oldest request first.
    func pendingApprovals() async throws -> [ApprovalRecord]
    /// Every request of a run, oldest first, with its decision.
    func approvals(ofRun runID: String) async throws -> [ApprovalRecord]
    /// The newest request of each run that still says `waiting` although that request was decided:
    /// runs whose decider has not (yet) made them go on, oldest decision first.
    func decidedWaiting() async throws -> [ApprovalRecord]
    /// Records `decision` for the newest request of `runID` (which must be about `step`, when given).
    /// Returns the request decided.
    @discardableResult
    func decide(_ runID: String, step: StepPath?, _ decision: ApprovalDecision) async throws -> ApprovalRecord
}

extension ApprovalJournal {
    /// The newest decision of each step of a run: what a run that goes on answers when the step asks
    /// again.
    public func decisions(ofRun runID: String) async throws -> [StepPath: ApprovalDecision] {
        var decisions: [StepPath: ApprovalDecision] = [:]
        for record in try await approvals(ofRun: runID) {
            if let decision = record.decision { decisions[record.request.step] = decision }
        }
        return decisions
    }
}

/// Why a decision was refused, in words that name the run's state (shared by the backends).
public enum ApprovalRefusal {
    public static func noRequest(_ runID: String, status: JournalStatus) -> JournalError {
        JournalError(.refused, "run \(runID) does not wait for an approval (it is \(status.rawValue))")
    }

    public static func alreadyDecided(_ runID: String, _ decision: ApprovalDecision, status: JournalStatus) -> JournalError {
        let verb = decision.verdict == .expired ? "expired" : "was already \(decision.verdict.rawValue) by \(decision.by)"
        return JournalError(
            .refused,
            "run \(runID) \(verb) at \(ISO8601DateFormatter().string(from: decision.at)) and is \(status.rawValue) now; "
                + "an approval is decided once")
    }

    public static func movedOn(_ runID: String, status: JournalStatus) -> JournalError {
        JournalError(.refused, "run \(runID) no longer waits for an approval: it is \(status.rawValue)")
    }

    public static func otherStep(_ runID: String, waiting: StepPath, asked: StepPath) -> JournalError {
        JournalError(.refused, "run \(runID) waits at step '\(waiting)', not '\(asked)'")
    }
}
