public import SkillbookCore

/// What the engine asks before running a step whose skill has `confirm`.
public struct ConfirmationRequest: Sendable, Hashable {
    public var step: String
    public var skill: String
    public var summary: String
    /// Resolved parameters, secrets masked. For foreach steps, those of the first iteration.
    public var parameters: ValueObject
    /// Calls the step will make (batches or iterations).
    public var calls: Int

    public init(step: String, skill: String, summary: String, parameters: ValueObject, calls: Int) {
        self.step = step
        self.skill = skill
        self.summary = summary
        self.parameters = parameters
        self.calls = calls
    }
}

/// Decides confirmations: a terminal prompt, `--yes`, or a refusal without a terminal.
public protocol Confirmer: Sendable {
    /// `nil` approves; a text refuses, saying why.
    func confirm(_ request: ConfirmationRequest) async -> String?
}

/// Approves everything (`--yes`).
public struct ApprovingConfirmer: Confirmer {
    public init() {}
    public func confirm(_ request: ConfirmationRequest) async -> String? { nil }
}

/// Refuses everything: for runs without a terminal (cron, daemon, pipes).
public struct RefusingConfirmer: Confirmer {
    public var reason: String

    public init(reason: String = "no terminal to ask on; pass --yes to approve, or set 'confirm: false' on the step") {
        self.reason = reason
    }

    public func confirm(_ request: ConfirmationRequest) async -> String? { reason }
}
