/// The exit codes of `skillbook` (DESIGN.md "Command line"; README.md's "Exit codes" table lists
/// each with its `summary`, and a test keeps the two in step).
public enum ExitCode: Int32, CaseIterable, Sendable {
    case success = 0
    /// The run failed (`failed`, or `rolled_back`), or something broke while working.
    case failure = 1
    /// A usage or validation error, or a refusal: nothing ran.
    case usage = 2
    /// Something could not be undone.
    case rollbackIncomplete = 3
    /// The run waits for a person's approval.
    case waitingForApproval = 4
    /// Ctrl-C or SIGTERM stopped it; completed steps were rolled back.
    case interrupted = 130

    /// The few words `--help` gives it; the README's table starts each meaning with them.
    public var summary: String {
        switch self {
        case .success: "success"
        case .failure: "run failed"
        case .usage: "usage or validation error"
        case .rollbackIncomplete: "rollback incomplete"
        case .waitingForApproval: "waiting for an approval"
        case .interrupted: "interrupted"
        }
    }

    /// `0 success, 1 run failed, …`, for `--help`.
    static var list: String {
        allCases.map { "\($0.rawValue) \($0.summary)" }.joined(separator: ", ")
    }
}
