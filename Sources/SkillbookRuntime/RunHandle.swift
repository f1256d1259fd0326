public import SkillbookCore

/// A run started with `Engine.events(_:inputs:dryRun:)`: its events as a stream and its result.
///
/// The stream buffers without limit, so a slow reader never holds the engine back or loses an
/// event; it finishes right after `run.finished`. Dropping or abandoning the stream does not stop
/// the run — `cancel()` (or cancelling `result`) does, and completed steps are then rolled back as
/// on Ctrl-C.
public struct RunHandle: Sendable {
    public let events: AsyncStream<RunEvent>
    public let result: Task<RunResult, Never>

    /// Interrupts the run; `result` still delivers the (interrupted) outcome.
    public func cancel() {
        result.cancel()
    }

    /// Starts `body` at once with a handler that feeds `events`, finishing the stream when it returns:
    /// the adapter for any engine entry point that reports through a `RunEventHandler`.
    public static func start(_ body: @escaping @Sendable (_ onEvent: @escaping RunEventHandler) async -> RunResult) -> RunHandle {
        let (stream, continuation) = AsyncStream.makeStream(of: RunEvent.self, bufferingPolicy: .unbounded)
        let task = Task {
            let result = await body { event in continuation.yield(event) }
            continuation.finish()
            return result
        }
        return RunHandle(events: stream, result: task)
    }
}

extension Engine {
    /// Starts a run at once and returns its events as an `AsyncStream` (see `RunHandle`).
    ///
    /// Events arrive in the order the engine reports them; `run.finished` is the last one.
    public func events(_ playbook: Playbook, inputs: ValueObject, dryRun: Bool = false) -> RunHandle {
        events(playbook, inputs: inputs, options: RunOptions(dryRun: dryRun))
    }

    public func events(_ playbook: Playbook, inputs: ValueObject, options: RunOptions) -> RunHandle {
        let engine = self
        return RunHandle.start { onEvent in await engine.run(playbook, inputs: inputs, options: options, onEvent: onEvent) }
    }
}
