#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Synchronization

/// A server process with its stdin and stdout as a `LineChannel` and its stderr kept (the last
/// few kilobytes) and logged line by line.
///
/// It runs in a process group of its own; the pipes are close-on-exec, so no other child
/// inherits them (and holds the server's stdin open). A waiter thread reaps it and records how
/// it ended. `shutdown` follows the stdio transport: close stdin, wait, SIGTERM, wait, SIGKILL.
final class ChildProcess: Sendable {
    let pid: pid_t
    let channel: LineChannel
    let command: String
    private struct ExitState {
        var status: String?
        var nextWaiter = 0
        var waiters: [Int: CheckedContinuation<String?, Never>] = [:]
    }
    private let exit = Mutex(ExitState())
    private let stderrTail = Mutex("")
    static let tailLimit = 2000

    private init(pid: pid_t, channel: LineChannel, command: String) {
        self.pid = pid
        self.channel = channel
        self.command = command
    }

    /// Starts `command`; throws `.cannotStart` when the program is missing or cannot run.
    static func spawn(_ command: MCPServerCommand, log: @escaping @Sendable (String) -> Void) throws(MCPClientError)
        -> ChildProcess
    {
        let display = command.display
        guard let name = command.arguments.first, !name.isEmpty else {
            throw .cannotStart(command: display, reason: "the command is empty")
        }
        var environment = ["LANG": ProcessInfo.processInfo.environment["LANG"] ?? "C.UTF-8"]
        for key in ["PATH", "HOME"] { environment[key] = ProcessInfo.processInfo.environment[key] }
        environment.merge(command.environment) { _, new in new }
        guard let executable = locate(name, path: environment["PATH"] ?? "/usr/bin:/bin") else {
            throw .cannotStart(command: display, reason: name.contains("/") ? "\(name) is not an executable file" : "'\(name)' is not on PATH")
        }
        var input: [Int32] = [0, 0]
        var output: [Int32] = [0, 0]
        var errors: [Int32] = [0, 0]
        guard POSIXExtras.closeOnExecPipe(&input), POSIXExtras.closeOnExecPipe(&output), POSIXExtras.closeOnExecPipe(&errors)
        else {
            throw .cannotStart(command: display, reason: "cannot make pipes: \(String(cString: strerror(errno)))")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input[0], 0)
        posix_spawn_file_actions_adddup2(&actions, output[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errors[1], 2)
        POSIXExtras.closeInherited(&actions)
        if let directory = command.workingDirectory, !POSIXExtras.setDirectory(&actions, directory) {
            for fd in input + output + errors { close(fd) }
            throw .cannotStart(command: display, reason: "this C library cannot start a child in another folder (glibc 2.29+ can)")
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        posix_spawnattr_setpgroup(&attributes, 0)
        var mask = sigset_t()
        sigemptyset(&mask)
        posix_spawnattr_setsigmask(&attributes, &mask)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        sigaddset(&defaults, SIGTERM)
        sigaddset(&defaults, SIGINT)
        posix_spawnattr_setsigdefault(&attributes, &defaults)

        let argv = command.arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let envp = environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in envp { free(pointer) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        close(input[0])
        close(output[1])
        close(errors[1])
        guard result == 0 else {
            close(input[1])
            close(output[0])
            close(errors[0])
            throw .cannotStart(command: display, reason: String(cString: strerror(result)))
        }
        let child = ChildProcess(
            pid: pid, channel: LineChannel(input: output[0], output: input[1], closesDescriptors: true), command: display)
        child.startThreads(stderr: errors[0], log: log)
        return child
    }

    /// The absolute path of `name`: itself when it has a `/`, else the first match on `path`.
    static func locate(_ name: String, path: String) -> String? {
        if name.contains("/") { return access(name, X_OK) == 0 ? name : nil }
        for directory in path.split(separator: ":") where !directory.isEmpty {
            let candidate = "\(directory)/\(name)"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    private func startThreads(stderr fd: Int32, log: @escaping @Sendable (String) -> Void) {
        let errors = Thread { [self] in
            let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: 4096)
            defer { buffer.deallocate() }
            var partial = ""
            while true {
                let count = read(fd, buffer, 4096)
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                let text = String(decoding: UnsafeBufferPointer(start: buffer, count: count), as: UTF8.self)
                stderrTail.withLock { tail in
                    tail += text
                    if tail.count > Self.tailLimit { tail = String(tail.suffix(Self.tailLimit)) }
                }
                partial += text
                while let newline = partial.firstIndex(of: "\n") {
                    log(String(partial[..<newline]))
                    partial = String(partial[partial.index(after: newline)...])
                }
            }
            if !partial.isEmpty { log(partial) }
            close(fd)
        }
        errors.name = "mcp-server-stderr"
        errors.start()
        let waiter = Thread { [self] in
            var status: Int32 = 0
            var reaped: pid_t
            repeat { reaped = waitpid(pid, &status, 0) } while reaped < 0 && errno == EINTR
            let description = reaped == pid ? Self.describe(status) : "ended (its status is unknown)"
            let waiters = exit.withLock { exit in
                exit.status = description
                defer { exit.waiters = [:] }
                return Array(exit.waiters.values)
            }
            for waiter in waiters { waiter.resume(returning: description) }
        }
        waiter.name = "mcp-server-waiter"
        waiter.start()
    }

    static func describe(_ status: Int32) -> String {
        let signal = status & 0x7f
        if signal == 0 { return "exited with status \((status >> 8) & 0xff)" }
        return "was killed by signal \(signal)"
    }

    /// How it ended, once it has; `nil` while it runs.
    var exitStatus: String? { exit.withLock { $0.status } }

    /// The end of what it wrote on stderr, trimmed.
    var stderr: String { stderrTail.withLock { $0 }.trimmingCharacters(in: .whitespacesAndNewlines) }

    /// Waits up to `seconds` (for ever when `nil`) for it to end; its status, or `nil` if it still runs.
    func waitForExit(seconds: Double?) async -> String? {
        let id = exit.withLock { exit in
            defer { exit.nextWaiter += 1 }
            return exit.nextWaiter
        }
        let timer = seconds.map { seconds in
            Task {
                try? await Task.sleep(for: .seconds(seconds))
                let waiter = self.exit.withLock { $0.waiters.removeValue(forKey: id) }
                waiter?.resume(returning: nil)
            }
        }
        defer { timer?.cancel() }
        return await withCheckedContinuation { continuation in
            let done = exit.withLock { exit -> String? in
                if let status = exit.status { return status }
                exit.waiters[id] = continuation
                return nil
            }
            if let done { continuation.resume(returning: done) }
        }
    }

    /// SIGKILL to its process group (what it started and left running).
    func killGroup() {
        kill(-pid, SIGKILL)
    }

    /// Close stdin, wait `grace`; SIGTERM to its group, wait `grace`; SIGKILL. Returns how it ended.
    @discardableResult
    func shutdown(grace: Double) async -> String {
        channel.closeOutput()
        if let status = await waitForExit(seconds: grace) { return status }
        if exitStatus == nil { kill(-pid, SIGTERM) }
        if let status = await waitForExit(seconds: grace) { return status }
        if exitStatus == nil { kill(-pid, SIGKILL) }
        return await waitForExit(seconds: nil) ?? "was killed"
    }
}
