import Synchronization
public import SkillbookCore

/// A `Confirmer` answered from a user interface: the engine's question waits until `answer` is
/// called for its step (a `RunSession` calls it from `approve()` and `decline(reason:)`).
///
/// An answer given before the engine starts waiting is kept for that step. A task cancelled
/// while it waits gets `declined("interrupted")`.
public final class SessionConfirmer: Confirmer {
    private struct Waiting {
        var continuations: [StepPath: CheckedContinuation<ConfirmationAnswer, Never>] = [:]
        var early: [StepPath: ConfirmationAnswer] = [:]
    }

    private let waiting = Mutex(Waiting())

    public init() {}

    public func confirm(_ request: ConfirmationRequest) async -> ConfirmationAnswer {
        let step = request.step
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let ready: ConfirmationAnswer? = waiting.withLock { state in
                    if let answer = state.early.removeValue(forKey: step) { return answer }
                    if Task.isCancelled { return .declined(reason: "interrupted") }
                    state.continuations[step] = continuation
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            waiting.withLock { $0.continuations.removeValue(forKey: step) }?.resume(returning: .declined(reason: "interrupted"))
        }
    }

    /// Answers the question of `step`, now or when the engine asks it.
    public func answer(_ step: StepPath, _ answer: ConfirmationAnswer) {
        let continuation = waiting.withLock { state in
            guard let continuation = state.continuations.removeValue(forKey: step) else {
                state.early[step] = answer
                return nil as CheckedContinuation<ConfirmationAnswer, Never>?
            }
            return continuation
        }
        continuation?.resume(returning: answer)
    }

    /// Whether the engine is waiting for an answer about `step`.
    public func isWaiting(for step: StepPath) -> Bool {
        waiting.withLock { $0.continuations[step] != nil }
    }
}
