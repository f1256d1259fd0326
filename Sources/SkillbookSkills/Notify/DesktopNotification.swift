import Foundation
import SkillbookSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Shows a desktop notification by running `notify-send` directly: an absolute path and an argv,
/// never a shell.
enum DesktopNotification {
    /// Runs `executable -- title message`; `nil` when it worked, else why not (its exit status and
    /// the tail of its stderr, or a timeout). Cancelling the task stops it.
    static func send(title: String, message: String, executable: String, timeout: Double = 10) async throws
        -> String?
    {
        try Task.checkCancellation()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        // `--` ends the options, so a title or message starting with `-` is shown, not parsed.
        process.arguments = ["--", title, message]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors

        let child = Child()
        let reader = PipeReader()
        let status: Int32
        do {
            status = try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Int32, any Error>) in
                    process.terminationHandler = { process in continuation.resume(returning: process.terminationStatus) }
                    do {
                        try process.run()
                    } catch {
                        process.terminationHandler = nil
                        continuation.resume(throwing: error)
                        return
                    }
                    // Read stderr while the child runs, so that it never blocks on a full pipe.
                    reader.start(errors.fileHandleForReading)
                    child.started(process)
                    DispatchQueue.global().asyncAfter(deadline: .now() + timeout) { child.expire() }
                }
            } onCancel: {
                child.cancel()
            }
        } catch {
            return "\(executable) could not be started: \(error.localizedDescription)"
        }
        try Task.checkCancellation()
        if child.expired { return "\(executable) did not finish within \(timeout.secondsText)" }
        guard status != 0 else { return nil }
        let tail = await reader.result()
        let text = String(decoding: tail.suffix(500), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return "\(executable) exited with status \(status)" + (text.isEmpty ? "" : ": \(text)")
    }
}

/// A started child and the ways it can be stopped early: cancellation (which may come before it
/// has started) and the timeout.
private final class Child: @unchecked Sendable {
    private let lock = NSLock()
    private var process: Process?
    private var cancelled = false
    private var didExpire = false

    var expired: Bool { lock.withLock { didExpire } }

    func started(_ process: Process) {
        let stopNow = lock.withLock {
            self.process = process
            return cancelled
        }
        if stopNow { Self.stop(process) }
    }

    func cancel() {
        if let process = lock.withLock({ () -> Process? in
            cancelled = true
            return self.process
        }) {
            Self.stop(process)
        }
    }

    func expire() {
        guard let process = lock.withLock({ () -> Process? in
            guard let process, process.isRunning else { return nil }
            didExpire = true
            return process
        }) else { return }
        Self.stop(process)
    }

    /// SIGTERM to the child's process group (Foundation starts it as the leader of its own), then
    /// SIGKILL a second later if it is still there: a child may ignore SIGTERM, or inherit it ignored.
    static func stop(_ process: Process) {
        guard process.isRunning else { return }
        let group = -process.processIdentifier
        kill(group, SIGTERM)
        DispatchQueue.global().asyncAfter(deadline: .now() + 1) {
            if process.isRunning { kill(group, SIGKILL) }
        }
    }
}

/// Reads a pipe to its end on a thread of its own (the parent's write end is closed once the
/// child has started, so the end comes when the child and anything it started have exited).
private final class PipeReader: @unchecked Sendable {
    private let lock = NSLock()
    private var data: Data?
    private var waiter: CheckedContinuation<Data, Never>?

    func start(_ handle: FileHandle) {
        Thread { [self] in
            finish((try? handle.readToEnd()) ?? Data())
        }.start()
    }

    /// Everything read, once the pipe has ended.
    func result() async -> Data {
        await withCheckedContinuation { continuation in
            lock.lock()
            if let data {
                lock.unlock()
                continuation.resume(returning: data)
            } else {
                waiter = continuation
                lock.unlock()
            }
        }
    }

    private func finish(_ data: Data) {
        lock.lock()
        self.data = data
        let waiter = self.waiter
        self.waiter = nil
        lock.unlock()
        waiter?.resume(returning: data)
    }
}
