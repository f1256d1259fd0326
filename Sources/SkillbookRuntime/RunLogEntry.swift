import Foundation
public import SkillbookCore

/// One notable moment of a run, as a session's log keeps it (progress is not logged).
///
/// A value, not text: each front end formats it its own way. `description` is a plain one-line
/// form for people (what the terminal shows), usable as is by a front end that has no better one.
public enum RunLogEntry: Sendable, CustomStringConvertible {
    case started(runID: String, playbook: String)
    case stepStarted(StepPath, StepTarget)
    case skipped(StepPath, reason: String)
    case retrying(StepPath, attempt: Int, error: String, delay: Double)
    case succeeded(StepPath, duration: Double)
    case failed(StepPath, error: String, kind: FailureKind, willContinue: Bool)
    case confirmationRequested(ConfirmationRequest)
    case confirmationAnswered(StepPath, ConfirmationAnswer)
    case planned(StepPlan)
    case rollbackStarted
    case undoing(StepPath)
    case undone(StepPath)
    case notUndone(StepPath, error: String)
    /// The step waits for resources another run holds.
    case waiting(StepPath, ResourceWait)
    case warning(RunWarning)
    /// The run stopped at a call that needs an approval nobody could give now.
    case waitingForApproval(ApprovalRequest)
    /// The run ended: its status, how long it took, whether it was interrupted.
    case finished(playbook: String, status: RunStatus, seconds: Double, interrupted: Bool)
    /// The failure that ended the run.
    case runError(String)

    public var description: String {
        switch self {
        case .started(let runID, let playbook): "▶ \(playbook) (run \(runID))"
        case .stepStarted(let step, let target): "… \(step) (\(target))"
        case .skipped(let step, let reason): "- \(step) skipped: \(reason)"
        case .retrying(let step, let attempt, let error, let delay):
            "↻ \(step) attempt \(attempt) failed: \(error); retrying in \(JSONText.number(delay))s"
        case .succeeded(let step, let duration): "✓ \(step) \(String(format: "%.2fs", duration))"
        case .failed(let step, let error, _, let willContinue): "✗ \(step): \(error)\(willContinue ? " (continuing)" : "")"
        case .confirmationRequested(let request): "? \(request.step) (\(request.skill)) asks for confirmation"
        case .confirmationAnswered(let step, let answer): "\(answer.isApproved ? "✓ approved" : "✗ not approved"): \(step)"
        case .planned(let plan):
            "○ \(plan.step): \(plan.skill) \(plan.ran ? "ran (read-only)" : plan.kind == .action ? "would run" : "not run")"
        case .rollbackStarted: "↶ rolling back"
        case .undoing(let step): "↶ undoing \(step)"
        case .undone(let step): "↶ \(step) undone"
        case .notUndone(let step, let error): "! \(step) could not be undone: \(error)"
        case .finished(let playbook, let status, let seconds, let interrupted):
            "\(playbook) \(status.rawValue) in \(String(format: "%.2fs", seconds))\(interrupted ? " (interrupted)" : "")"
        case .warning(let warning): "! warning: \(warning.step.map { "\($0): " } ?? "")\(warning.message)"
        case .waiting(let step, let wait): "⧗ \(step): \(wait)"
        case .runError(let error): error
        case .waitingForApproval(let request): "⏸ \(request.step) (\(request.skill)) waits for an approval"
        }
    }
}
