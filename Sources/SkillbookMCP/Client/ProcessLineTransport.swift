import SkillbookCore
import Synchronization

/// A child's stdin and stdout as a `LineTransport`: lines are queued and written in order by
/// one task (so `send` never blocks), and `closeOutput` closes stdin once the queue is written.
final class ProcessLineTransport: LineTransport {
    let process: any RunningProcess
    private let outgoing: AsyncStream<String>.Continuation
    private let broken: Flag

    /// Whether writing failed (the child stopped reading).
    final class Flag: Sendable {
        private let value = Mutex(false)
        func set() { value.withLock { $0 = true } }
        var isSet: Bool { value.withLock { $0 } }
    }

    init(_ process: any RunningProcess) {
        self.process = process
        let (stream, continuation) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .unbounded)
        outgoing = continuation
        let broken = Flag()
        self.broken = broken
        Task {
            for await line in stream {
                do {
                    try await process.write(line: line)
                } catch {
                    broken.set()
                    break
                }
            }
            process.closeInput()
        }
    }

    var lines: AsyncStream<String> { process.lines }

    func start() {}

    @discardableResult
    func send(_ line: String) -> Bool {
        guard !broken.isSet else { return false }
        if case .terminated = outgoing.yield(line) { return false }
        return true
    }

    func closeOutput() {
        outgoing.finish()
    }
}
