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
}

extension Engine {
    /// Starts a run at once and returns its events as an `AsyncStream` (see `RunHandle`).
    ///
    /// Events arrive in the order the engine reports them; `run.finished` is the last one.
    public func events(_ playbook: Playbook, inputs: ValueObject, dryRun: Bool = false) -> RunHandle {
        let (stream, continuation) = AsyncStream.makeStream(of: RunEvent.self, bufferingPolicy: .unbounded)
        let engine = self
        let task = Task {
            let result = await engine.run(playbook, inputs: inputs, dryRun: dryRun) { event in
                continuation.yield(event)
            }
            continuation.finish()
            return result
        }
        return RunHandle(events: stream, result: task)
    }
}
