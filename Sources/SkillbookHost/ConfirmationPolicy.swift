public import SkillbookRuntime

/// Who approves a step whose skill asks for confirmation (`confirm`).
public enum ConfirmationPolicy: Sendable {
    /// Every such step runs (`--yes`).
    case approveAll
    /// No one can be asked (cron, a daemon, a pipe): every such step fails with `reason`, which is
    /// recorded as the step's error. A front end states in it what the user can do.
    case refuse(reason: String)
    /// No one can be asked now, but someone can decide later: the run stops at the step with
    /// status `waiting` and an approval request in the journal (the daemon, `schedule tick`, a
    /// worker, `run` without a terminal or `--yes`). `PlaybookHost.approve`/`decline` decide.
    case wait
    /// `confirmer` is asked each time (a terminal prompt, an MCP elicitation, a dialog).
    case ask(any Confirmer)

    /// The refusal a library states: the fact, with no remedy of any front end.
    public static let refuseByDefault = ConfirmationPolicy.refuse(reason: "no one to ask for confirmation")

    /// The confirmer the engine is given.
    public var confirmer: any Confirmer {
        switch self {
        case .approveAll: ApprovingConfirmer()
        case .refuse(let reason): RefusingConfirmer(reason: reason)
        case .wait: WaitingConfirmer()
        case .ask(let confirmer): confirmer
        }
    }
}
