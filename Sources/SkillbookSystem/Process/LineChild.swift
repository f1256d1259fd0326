#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Foundation
import SkillbookCore
import Synchronization

/// A long-lived child of `ProcessRunner.start`, spoken to in lines (an MCP server over stdio).
///
/// Threads of its own, so that nothing blocks the cooperative pool: one reads stdout and cuts it
/// into lines, one keeps the tail of stderr, one writes queued lines to stdin (with SIGPIPE
/// blocked on it, so a child that stopped reading gives EPIPE, not a dead program), and one waits
/// for the exit with `waitid(WNOWAIT)` and reaps the child under the lock, so a `terminate` can
/// never signal a pid that another process may have been given since.
final class LineChild: RunningProcess {
    let processID: Int32
    let lines: AsyncStream<String>
    private let command: String
    private let killGracePeriod: Double
    private let state: Mutex<State>
    private let errors: Mutex<ErrorTail>
    private let writes: Mutex<[Pending]>
    private let pendingWrites = DispatchSemaphore(value: 0)

    private struct State {
        var termination: ProcessResult.Termination?
        var exitWaiters: [CheckedContinuation<ProcessResult.Termination, Never>] = []
        var terminated = false
        var inputClosed = false
    }

    private enum Pending {
        case line(Data, CheckedContinuation<Void, any Error>)
        case close
    }

    private struct ErrorTail {
        var data = Data()
        let limit: Int

        mutating func append(_ bytes: UnsafeRawBufferPointer) {
            data.append(contentsOf: bytes)
            if data.count > limit { data.removeFirst(data.count - limit) }
        }
    }

    private init(pid: pid_t, command: String, lines: AsyncStream<String>, lineLimit: Int, killGracePeriod: Double) {
        processID = pid
        self.command = command
        self.lines = lines
        self.killGracePeriod = killGracePeriod
        state = Mutex(State())
        errors = Mutex(ErrorTail(limit: lineLimit))
        writes = Mutex([])
    }

    static func spawn(
        executable: String, arguments: [String], environment: [String], workingDirectory: String?, lineLimit: Int,
        killGracePeriod: Double, dieWithRunner: Bool = true
    ) throws(ProcessRunnerError) -> LineChild {
        var opened: [Int32] = []
        func makePipe() throws(ProcessRunnerError) -> (read: Int32, write: Int32) {
            var fds: [Int32] = [-1, -1]
            let result = fds.withUnsafeMutableBufferPointer { Native.makePipe($0.baseAddress!) }
            guard result == 0 else {
                throw .startFailed(arguments[0], reason: "cannot create a pipe: \(Native.describe(errno))")
            }
            opened += fds
            return (fds[0], fds[1])
        }
        let input: (read: Int32, write: Int32)
        let output: (read: Int32, write: Int32)
        let error: (read: Int32, write: Int32)
        let pid: pid_t
        do {
            input = try makePipe()
            output = try makePipe()
            error = try makePipe()
            pid = try ChildProcess.posixSpawn(
                executable: executable, arguments: arguments, environment: environment, workingDirectory: workingDirectory,
                standardInput: input.read, standardOutput: output.write, standardError: error.write,
                dieWithRunner: dieWithRunner)
        } catch {
            for fd in opened { closeDescriptor(fd) }
            throw error
        }
        for fd in [input.read, output.write, error.write] { closeDescriptor(fd) }
        let (lines, continuation) = AsyncStream.makeStream(of: String.self)
        let child = LineChild(
            pid: pid, command: arguments[0], lines: lines, lineLimit: lineLimit, killGracePeriod: killGracePeriod)
        child.startThread("skillbook-line-out") { child.readLines(output.read, limit: lineLimit, into: continuation) }
        child.startThread("skillbook-line-err") { child.readErrors(error.read) }
        child.startThread("skillbook-line-in") { child.writeLines(input.write) }
        child.startThread("skillbook-line-wait") { child.awaitExit() }
        return child
    }

    private func startThread(_ name: String, _ body: @escaping @Sendable () -> Void) {
        let thread = Thread(block: body)
        thread.name = name
        thread.start()
    }

    // MARK: RunningProcess

    func write(line: String) async throws {
        var data = Data(line.utf8)
        data.append(0x0A)
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let accepted = state.withLock { state in !state.inputClosed }
            guard accepted else {
                return continuation.resume(throwing: RunningProcessError.inputClosed(command: command))
            }
            writes.withLock { $0.append(.line(data, continuation)) }
            pendingWrites.signal()
        }
    }

    func closeInput() {
        let first = state.withLock { state in
            defer { state.inputClosed = true }
            return !state.inputClosed
        }
        guard first else { return }
        writes.withLock { $0.append(.close) }
        pendingWrites.signal()
    }

    func terminate() {
        let signalled = state.withLock { state -> Bool in
            guard state.termination == nil, !state.terminated else { return false }
            state.terminated = true
            kill(-processID, SIGTERM)
            kill(-processID, SIGCONT)
            return true
        }
        guard signalled else { return }
        closeInput()
        let pid = processID
        DispatchQueue.global().asyncAfter(deadline: .now() + killGracePeriod) { [self] in
            state.withLock { state in
                if state.termination == nil { kill(-pid, SIGKILL) }
            }
        }
    }

    func exit() async -> ProcessResult.Termination {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<ProcessResult.Termination, Never>) in
                let done: ProcessResult.Termination? = state.withLock { state in
                    if let termination = state.termination { return termination }
                    state.exitWaiters.append(continuation)
                    return nil
                }
                if let done { continuation.resume(returning: done) }
            }
        } onCancel: {
            terminate()
        }
    }

    var errorTail: String {
        errors.withLock { String(decoding: $0.data, as: UTF8.self) }
    }

    // MARK: The threads

    /// Cuts stdout into lines (without `\n` or `\r\n`); a line past `limit` bytes is cut there and
    /// the rest of it dropped. Ends the sequence when stdout closes.
    private func readLines(_ fd: Int32, limit: Int, into continuation: AsyncStream<String>.Continuation) {
        var line: [UInt8] = []
        var dropping = false
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: 65536, alignment: 16)
        defer {
            buffer.deallocate()
            closeDescriptor(fd)
        }
        func emit() {
            if line.last == 0x0D { line.removeLast() }
            continuation.yield(String(decoding: line, as: UTF8.self))
            line.removeAll(keepingCapacity: true)
        }
        while true {
            let count = readSome(fd, buffer, 65536)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            for byte in UnsafeRawBufferPointer(start: buffer, count: count) {
                if byte == 0x0A {
                    if dropping { dropping = false } else { emit() }
                } else if !dropping {
                    line.append(byte)
                    if line.count >= limit {
                        emit()
                        dropping = true
                    }
                }
            }
        }
        if !line.isEmpty { emit() }
        continuation.finish()
    }

    private func readErrors(_ fd: Int32) {
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: 16384, alignment: 16)
        defer {
            buffer.deallocate()
            closeDescriptor(fd)
        }
        while true {
            let count = readSome(fd, buffer, 16384)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return }
            errors.withLock { $0.append(UnsafeRawBufferPointer(start: buffer, count: count)) }
        }
    }

    /// Writes queued lines in order until `closeInput` (or a failed write) closes stdin; later
    /// lines fail with `inputClosed`.
    private func writeLines(_ fd: Int32) {
        var blocked = sigset_t()
        sigemptyset(&blocked)
        sigaddset(&blocked, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &blocked, nil)
        var open = true
        while true {
            pendingWrites.wait()
            guard let next = writes.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else { continue }
            switch next {
            case .close:
                if open { closeDescriptor(fd) }
                open = false
                // Fail whatever was queued behind the close.
                for pending in writes.withLock({ queue in defer { queue.removeAll() }; return queue }) {
                    if case .line(_, let continuation) = pending {
                        continuation.resume(throwing: RunningProcessError.inputClosed(command: command))
                    }
                }
                return
            case .line(let data, let continuation):
                guard open, Self.writeAll(fd, data) else {
                    if open { closeDescriptor(fd) }
                    open = false
                    state.withLock { $0.inputClosed = true }
                    continuation.resume(throwing: RunningProcessError.inputClosed(command: command))
                    continue
                }
                continuation.resume()
            }
        }
    }

    private static func writeAll(_ fd: Int32, _ data: Data) -> Bool {
        data.withUnsafeBytes { raw in
            var written = 0
            while written < raw.count {
                let count = writeSome(fd, raw.baseAddress! + written, raw.count - written)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return false }
                written += count
            }
            return true
        }
    }

    /// Waits for the exit without reaping, then reaps under the lock (see the type's comment).
    private func awaitExit() {
        var info = siginfo_t()
        while waitid(P_PID, id_t(processID), &info, WEXITED | WNOWAIT) != 0 {
            if errno != EINTR { break }
        }
        let waiters: ([CheckedContinuation<ProcessResult.Termination, Never>], ProcessResult.Termination) = state.withLock {
            state in
            var status: Int32 = 0
            var reaped: pid_t
            repeat { reaped = waitpid(processID, &status, 0) } while reaped < 0 && errno == EINTR
            let termination = reaped == processID ? ChildProcess.termination(status) : .exited(-1)
            state.termination = termination
            state.inputClosed = true
            defer { state.exitWaiters.removeAll() }
            return (state.exitWaiters, termination)
        }
        for waiter in waiters.0 { waiter.resume(returning: waiters.1) }
        // Lets the writer thread end once nothing more can be written.
        writes.withLock { $0.append(.close) }
        pendingWrites.signal()
    }
}

/// `write(2)`, under a name the `write(line:)` method does not hide.
private func writeSome(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(fd, bytes, count)
}
