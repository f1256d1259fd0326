#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Foundation
import SkillbookStore

/// One spawned child of `ProcessRunner`: its process group, its captured output, how it ended.
///
/// Two threads serve it: `pump` moves bytes (stdin out, stdout and stderr in) with `poll`, and
/// `awaitExit` blocks in `waitid(WNOWAIT)`. When both are done the child is reaped and whoever
/// awaits `finished()` is resumed. `stop` signals the group; it can never signal after the reap.
final class ChildProcess: Sendable {
    enum StopReason: Sendable, Hashable {
        case timedOut, cancelled
    }

    /// What a stream printed, up to a limit.
    struct Captured: Sendable {
        var data = Data()
        var truncated = false
        let limit: Int

        mutating func append(_ bytes: UnsafeRawPointer, count: Int) {
            let room = limit - data.count
            if count <= room {
                data.append(bytes.assumingMemoryBound(to: UInt8.self), count: count)
            } else {
                if room > 0 { data.append(bytes.assumingMemoryBound(to: UInt8.self), count: room) }
                truncated = true
            }
        }
    }

    struct Outcome: Sendable {
        var termination: ProcessResult.Termination
        var output: Captured
        var error: Captured
        var stopReason: StopReason?
    }

    private struct State {
        var exited = false
        var streams: (output: Captured, error: Captured)?
        var outcome: Outcome?
        var waiting: CheckedContinuation<Outcome, Never>?
        var stopReason: StopReason?
        /// The write end of the pump's wake-up pipe; -1 once closed.
        var wakeFD: Int32
    }

    let pid: pid_t
    let killGracePeriod: Double
    private let state: Locked<State>

    private init(pid: pid_t, wakeFD: Int32, killGracePeriod: Double) {
        self.pid = pid
        self.killGracePeriod = killGracePeriod
        state = Locked(State(wakeFD: wakeFD))
    }

    // MARK: Waiting and stopping

    /// How the child ended, once it has exited and its output is read.
    func finished() async -> Outcome {
        await withCheckedContinuation { (continuation: CheckedContinuation<Outcome, Never>) in
            let ready: Outcome? = state.withLock { state in
                if let outcome = state.outcome { return outcome }
                state.waiting = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    /// SIGTERM to the whole group now, SIGKILL after the grace period if it is still there. Only
    /// the first stop counts.
    func stop(_ reason: StopReason) {
        let first = state.withLock { state -> Bool in
            guard state.outcome == nil, state.stopReason == nil else { return false }
            state.stopReason = reason
            kill(-pid, SIGTERM)
            // A stopped process acts on SIGTERM only once it runs again.
            kill(-pid, SIGCONT)
            return true
        }
        guard first else { return }
        DispatchQueue.global().asyncAfter(deadline: .now() + killGracePeriod) { self.escalate() }
    }

    private func escalate() {
        let running = state.withLock { state -> Bool in
            guard state.outcome == nil else { return false }
            kill(-pid, SIGKILL)
            return true
        }
        guard running else { return }
        // Whatever still holds the pipes open left the group (setsid); stop waiting for it soon.
        DispatchQueue.global().asyncAfter(deadline: .now() + 1) { self.abandonOutput() }
    }

    private func abandonOutput() {
        state.withLock { state in
            guard state.wakeFD >= 0 else { return }
            var byte: UInt8 = 1
            _ = write(state.wakeFD, &byte, 1)
        }
    }

    private func leaderExited() {
        finishIfDone { $0.exited = true }
    }

    private func streamsClosed(output: Captured, error: Captured) {
        finishIfDone { $0.streams = (output, error) }
    }

    /// Applies `change`; when the child has exited and its streams are read, reaps it and
    /// resumes the waiter.
    private func finishIfDone(_ change: (inout State) -> Void) {
        let resume: (CheckedContinuation<Outcome, Never>, Outcome)? = state.withLock { state in
            change(&state)
            guard state.exited, let streams = state.streams, state.outcome == nil else { return nil }
            var status: Int32 = 0
            var reaped: pid_t
            repeat { reaped = waitpid(pid, &status, 0) } while reaped < 0 && errno == EINTR
            let outcome = Outcome(
                termination: reaped == pid ? Self.termination(status) : .exited(-1), output: streams.output,
                error: streams.error, stopReason: state.stopReason)
            state.outcome = outcome
            if state.wakeFD >= 0 {
                close(state.wakeFD)
                state.wakeFD = -1
            }
            guard let waiting = state.waiting else { return nil }
            state.waiting = nil
            return (waiting, outcome)
        }
        if let (continuation, outcome) = resume { continuation.resume(returning: outcome) }
    }

    static func termination(_ status: Int32) -> ProcessResult.Termination {
        let signal = status & 0x7F
        if signal == 0 { return .exited((status >> 8) & 0xFF) }
        return .signalled(signal)
    }

    // MARK: Spawning

    static func spawn(
        executable: String, arguments: [String], environment: [String], workingDirectory: String?,
        standardInput: Data?, outputLimit: Int, killGracePeriod: Double
    ) throws(ProcessRunnerError) -> ChildProcess {
        var opened: Set<Int32> = []
        func makePipe() throws(ProcessRunnerError) -> (read: Int32, write: Int32) {
            var fds: [Int32] = [-1, -1]
            let result = fds.withUnsafeMutableBufferPointer { Native.makePipe($0.baseAddress!) }
            guard result == 0 else {
                throw .startFailed(arguments[0], reason: "cannot create a pipe: \(Native.describe(errno))")
            }
            opened.formUnion(fds)
            return (fds[0], fds[1])
        }
        func closeChildEnd(_ fd: Int32) {
            close(fd)
            opened.remove(fd)
        }
        do {
            let output = try makePipe()
            let error = try makePipe()
            var input: (read: Int32, write: Int32)?
            if standardInput != nil { input = try makePipe() }
            let wake = try makePipe()
            let pid = try posixSpawn(
                executable: executable, arguments: arguments, environment: environment,
                workingDirectory: workingDirectory, standardInput: input?.read, standardOutput: output.write,
                standardError: error.write)
            closeChildEnd(output.write)
            closeChildEnd(error.write)
            if let input { closeChildEnd(input.read) }
            for fd in [output.read, error.read, input?.write ?? -1, wake.read] where fd >= 0 {
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            }
            let child = ChildProcess(pid: pid, wakeFD: wake.write, killGracePeriod: killGracePeriod)
            let inputWrite = input?.write ?? -1
            let pumpThread = Thread {
                child.pump(
                    output: output.read, error: error.read, input: inputWrite, bytes: standardInput ?? Data(),
                    wake: wake.read, limit: outputLimit)
            }
            pumpThread.name = "skillbook-child-io"
            let waitThread = Thread { child.awaitExit() }
            waitThread.name = "skillbook-child-wait"
            pumpThread.start()
            waitThread.start()
            return child
        } catch {
            for fd in opened { close(fd) }
            throw error
        }
    }

    private static func posixSpawn(
        executable: String, arguments: [String], environment: [String], workingDirectory: String?,
        standardInput: Int32?, standardOutput: Int32, standardError: Int32
    ) throws(ProcessRunnerError) -> pid_t {
        let command = arguments[0]
        func check(_ result: Int32, _ what: String) throws(ProcessRunnerError) {
            guard result == 0 else { throw .startFailed(command, reason: "\(what): \(Native.describe(result))") }
        }
        var actions = posix_spawn_file_actions_t()
        try check(posix_spawn_file_actions_init(&actions), "posix_spawn_file_actions_init")
        defer { posix_spawn_file_actions_destroy(&actions) }
        var attributes = posix_spawnattr_t()
        try check(posix_spawnattr_init(&attributes), "posix_spawnattr_init")
        defer { posix_spawnattr_destroy(&attributes) }

        if let standardInput {
            try check(posix_spawn_file_actions_adddup2(&actions, standardInput, 0), "stdin")
        } else {
            try check(posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0), "stdin")
        }
        try check(posix_spawn_file_actions_adddup2(&actions, standardOutput, 1), "stdout")
        try check(posix_spawn_file_actions_adddup2(&actions, standardError, 2), "stderr")
        if let closeFrom = Native.addCloseFrom {
            try check(closeFrom(&actions, 3), "closing inherited files")
        }
        if let workingDirectory {
            guard let addChdir = Native.addChdir else {
                throw .startFailed(command, reason: "this C library cannot set a child's working directory (glibc 2.29+ can)")
            }
            try check(addChdir(&actions, workingDirectory), "working directory")
        }

        let flags = POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
        try check(posix_spawnattr_setflags(&attributes, Int16(flags)), "posix_spawnattr_setflags")
        try check(posix_spawnattr_setpgroup(&attributes, 0), "process group")
        var mask = sigset_t()
        sigemptyset(&mask)
        try check(posix_spawnattr_setsigmask(&attributes, &mask), "signal mask")
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in Int32(1)..<32 where signal != SIGKILL && signal != SIGSTOP { sigaddset(&defaults, signal) }
        try check(posix_spawnattr_setsigdefault(&attributes, &defaults), "signal defaults")

        let argv = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let envp = environment.map { strdup($0) } + [nil]
        defer { for pointer in envp { free(pointer) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard result == 0 else { throw .startFailed(command, reason: Native.describe(result)) }
        return pid
    }

    // MARK: The two threads

    /// Blocks until the child exits, leaving it unreaped (so its pid stays reserved).
    private func awaitExit() {
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) != 0 {
            if errno != EINTR { break }
        }
        leaderExited()
    }

    /// Writes stdin and reads stdout and stderr until both are closed (or the wake pipe says to
    /// give up), all in one `poll` loop so no pipe can fill up and stall the child.
    private func pump(output: Int32, error: Int32, input: Int32, bytes: Data, wake: Int32, limit: Int) {
        // A write to a pipe whose reader is gone raises SIGPIPE in this thread: keep it pending here
        // (it is discarded when the thread ends) and take the EPIPE instead.
        var blocked = sigset_t()
        sigemptyset(&blocked)
        sigaddset(&blocked, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &blocked, nil)

        var streams = [Stream(fd: output, captured: Captured(limit: limit)), Stream(fd: error, captured: Captured(limit: limit))]
        var inputFD = input
        var written = 0
        if inputFD >= 0, bytes.isEmpty {
            close(inputFD)
            inputFD = -1
        }
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: 65536, alignment: 16)
        defer { buffer.deallocate() }

        loop: while streams.contains(where: { $0.fd >= 0 }) {
            var fds = streams.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }
            fds.append(pollfd(fd: inputFD, events: Int16(POLLOUT), revents: 0))
            fds.append(pollfd(fd: wake, events: Int16(POLLIN), revents: 0))
            // Negative descriptors are ignored by poll.
            let ready = poll(&fds, nfds_t(fds.count), -1)
            if ready < 0 {
                if errno == EINTR { continue }
                break
            }
            if fds[3].revents != 0 {
                for index in streams.indices { streams[index].read(into: buffer, untilEmpty: true) }
                break loop
            }
            for index in streams.indices where fds[index].revents != 0 {
                streams[index].read(into: buffer, untilEmpty: false)
            }
            if inputFD >= 0, fds[2].revents != 0 {
                let count = bytes.withUnsafeBytes { raw in
                    write(inputFD, raw.baseAddress! + written, min(raw.count - written, 65536))
                }
                if count > 0 {
                    written += count
                } else if count < 0, errno == EAGAIN || errno == EINTR {
                    continue
                }
                if count <= 0 || written == bytes.count {
                    // Done, or the child stopped reading (EPIPE): it sees end of input either way.
                    close(inputFD)
                    inputFD = -1
                }
            }
        }
        for fd in streams.map(\.fd) + [inputFD, wake] where fd >= 0 { close(fd) }
        streamsClosed(output: streams[0].captured, error: streams[1].captured)
    }

    private struct Stream {
        var fd: Int32
        var captured: Captured

        mutating func read(into buffer: UnsafeMutableRawPointer, untilEmpty: Bool) {
            while fd >= 0 {
                let count = readSome(fd, buffer, 65536)
                if count > 0 {
                    captured.append(buffer, count: count)
                    if untilEmpty { continue }
                    return
                }
                if count < 0, errno == EINTR { continue }
                if count < 0, errno == EAGAIN || errno == EWOULDBLOCK { return }
                close(fd)
                fd = -1
            }
        }
    }
}

/// `read(2)`, under a name a `read` method does not hide.
private func readSome(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(fd, buffer, count)
}

/// C functions Swift's Glibc module does not declare (GNU extensions), found at run time.
private enum Native {
    typealias AddChdir = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, UnsafePointer<CChar>?) -> Int32
    typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) -> Int32
    typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>?, Int32) -> Int32

    /// `posix_spawn_file_actions_addchdir_np`, glibc 2.29+.
    static let addChdir: AddChdir? = symbol("posix_spawn_file_actions_addchdir_np")
    /// `posix_spawn_file_actions_addclosefrom_np`, glibc 2.34+.
    static let addCloseFrom: AddCloseFrom? = symbol("posix_spawn_file_actions_addclosefrom_np")
    static let pipe2: Pipe2? = symbol("pipe2")

    private static func symbol<T>(_ name: String) -> T? {
        // RTLD_DEFAULT is a null handle in glibc.
        guard let address = dlsym(nil, name) else { return nil }
        return unsafeBitCast(address, to: T.self)
    }

    /// A close-on-exec pipe, so no other child spawned meanwhile inherits it.
    static func makePipe(_ fds: UnsafeMutablePointer<Int32>) -> Int32 {
        if let pipe2 { return pipe2(fds, O_CLOEXEC) }
        guard pipe(fds) == 0 else { return -1 }
        _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
        return 0
    }

    static func describe(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
