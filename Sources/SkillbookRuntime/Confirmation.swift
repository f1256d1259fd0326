public import SkillbookCore

/// What the engine asks before running a step whose skill has `confirm`.
public struct ConfirmationRequest: Sendable, Hashable {
    public var step: StepPath
    public var skill: String
    public var summary: String
    /// Resolved parameters, secrets masked. For foreach steps, those of the first iteration.
    public var parameters: ValueObject
    /// Calls the step will make (batches or iterations).
    public var calls: Int
    /// The skill's title (`Delete notes`).
    public var title: String
    /// What all the calls would touch, as the skill says (secrets masked); `nil` when it does not say.
    public var touches: CallPreview?

    public init(
        step: StepPath, skill: String, summary: String, parameters: ValueObject, calls: Int, title: String? = nil,
        touches: CallPreview? = nil
    ) {
        self.step = step
        self.skill = skill
        self.summary = summary
        self.parameters = parameters
        self.calls = calls
        self.title = title ?? skill
        self.touches = touches
    }
}

/// How a confirmation was answered.
public enum ConfirmationAnswer: Sendable, Hashable {
    case approved
    /// Someone was asked and did not approve (said no, or gave no answer).
    case declined(reason: String)
    /// Nobody could be asked (no terminal, no user interface): the step is not approved.
    case refused(reason: String)
    /// Nobody can be asked now, but someone can decide later: the run stops at this step with
    /// status `waiting` and an approval request in the journal (`skillbook approve`/`decline`).
    case awaitApproval

    public var isApproved: Bool { self == .approved }

    /// Why the step was not approved; `nil` when it was.
    public var reason: String? {
        switch self {
        case .approved: nil
        case .declined(let reason), .refused(let reason): reason
        case .awaitApproval: "waits for an approval"
        }
    }
}

/// Decides confirmations: a terminal prompt, `--yes`, a user interface (`RunSession`), or a
/// refusal where nobody can be asked.
public protocol Confirmer: Sendable {
    /// Returns once the request is answered. A conformer should return `declined` when the
    /// calling task is cancelled while it waits.
    func confirm(_ request: ConfirmationRequest) async -> ConfirmationAnswer
}

/// Approves everything (`--yes`).
public struct ApprovingConfirmer: Confirmer {
    public init() {}
    public func confirm(_ request: ConfirmationRequest) async -> ConfirmationAnswer { .approved }
}

/// Refuses everything: for runs where nobody can be asked (cron, daemon, pipes).
public struct RefusingConfirmer: Confirmer {
    /// A fact about why nobody can be asked; front ends add what to do about it.
    public var reason: String

    public init(reason: String = "no terminal to ask on") {
        self.reason = reason
    }

    public func confirm(_ request: ConfirmationRequest) async -> ConfirmationAnswer { .refused(reason: reason) }
}

/// Answers every confirmation with `awaitApproval`: for runs nobody watches (a daemon, `schedule
/// tick`, a worker, a pipe without `--yes`), which then wait for someone to decide.
public struct WaitingConfirmer: Confirmer {
    public init() {}
    public func confirm(_ request: ConfirmationRequest) async -> ConfirmationAnswer { .awaitApproval }
}

/// Answers the steps someone already decided about (the journal's approval decisions, when a run
/// that waited goes on) with that decision, and asks `base` about any other.
public struct DecidedConfirmer: Confirmer {
    public var decided: [StepPath: ConfirmationAnswer]
    public var base: any Confirmer

    public init(decided: [StepPath: ConfirmationAnswer], base: any Confirmer) {
        self.decided = decided
        self.base = base
    }

    public func confirm(_ request: ConfirmationRequest) async -> ConfirmationAnswer {
        if let answer = decided[request.step] { return answer }
        return await base.confirm(request)
    }
}
