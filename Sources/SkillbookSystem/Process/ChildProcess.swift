#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import SkillbookCore
#if os(Linux)
internal import CSpawn
#endif
import Synchronization

/// One spawned child of `ProcessRunner`: its process group, its captured output, how it ended.
///
/// Two threads of its own serve it, so that nothing depends on the cooperative pool being free:
/// - the supervisor (`supervise`) moves bytes with `poll` — stdin out, stdout and stderr in — and
///   keeps the deadlines: the timeout, SIGKILL after the grace period, giving up on pipes held
///   open by a process that left the group. When the output is read and the child has exited, it
///   reaps the child and resumes whoever awaits `finished()`;
/// - the waiter (`awaitExit`) blocks in `waitid(WNOWAIT)` and tells the supervisor when the child
///   exits, leaving it unreaped so its pid (the group id) cannot be reused while it may be
///   signalled.
/// `stop` (from cancellation) signals the group at once; it can never signal after the reap.
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
        /// Seconds from the spawn to the child's exit.
        var duration: Double
    }

    private struct State {
        var exitedAt: ContinuousClock.Instant?
        var outcome: Outcome?
        var waiting: CheckedContinuation<Outcome, Never>?
        var stopReason: StopReason?
        /// When the timeout stops the child.
        var timeoutAt: ContinuousClock.Instant?
        /// When SIGKILL follows SIGTERM.
        var killAt: ContinuousClock.Instant?
        /// When to stop waiting for pipes after SIGKILL.
        var abandonAt: ContinuousClock.Instant?
        /// The write end of the supervisor's wake-up pipe; -1 once closed.
        var wakeFD: Int32
    }

    let pid: pid_t
    let started: ContinuousClock.Instant
    let killGracePeriod: Double
    private let state: Mutex<State>

    private init(pid: pid_t, started: ContinuousClock.Instant, wakeFD: Int32, timeout: Double?, killGracePeriod: Double) {
        self.pid = pid
        self.started = started
        self.killGracePeriod = killGracePeriod
        state = Mutex(State(timeoutAt: timeout.map { started + .seconds($0) }, wakeFD: wakeFD))
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
        state.withLock { state in
            terminate(&state, reason, now: .now)
            wake(state)
        }
    }

    /// Must hold the lock.
    private func terminate(_ state: inout State, _ reason: StopReason, now: ContinuousClock.Instant) {
        guard state.outcome == nil, state.stopReason == nil else { return }
        state.stopReason = reason
        state.timeoutAt = nil
        kill(-pid, SIGTERM)
        // A stopped process acts on SIGTERM only once it runs again.
        kill(-pid, SIGCONT)
        state.killAt = now + .seconds(killGracePeriod)
    }

    /// Must hold the lock: makes the supervisor look at the state again.
    private func wake(_ state: State) {
        guard state.wakeFD >= 0 else { return }
        var byte: UInt8 = 1
        _ = write(state.wakeFD, &byte, 1)
    }

    /// Acts on every deadline that has passed; returns the next one, whether to give up on the
    /// pipes, and whether the child has exited.
    private func keepDeadlines() -> (next: ContinuousClock.Instant?, abandon: Bool, exited: Bool) {
        state.withLock { state in
            let now = ContinuousClock.now
            if let at = state.timeoutAt, at <= now { terminate(&state, .timedOut, now: now) }
            if let at = state.killAt, at <= now {
                state.killAt = nil
                if state.outcome == nil { kill(-pid, SIGKILL) }
                // Whatever still holds the pipes open after this left the group (setsid).
                state.abandonAt = now + .seconds(1)
            }
            var abandon = false
            if let at = state.abandonAt, at <= now {
                state.abandonAt = nil
                abandon = true
            }
            let next = [state.timeoutAt, state.killAt, state.abandonAt].compactMap { $0 }.min()
            return (next, abandon, state.exitedAt != nil)
        }
    }

    /// Reaps the child and resumes the waiter.
    private func finish(output: Captured, error: Captured) {
        let resume: (CheckedContinuation<Outcome, Never>, Outcome)? = state.withLock { state in
            var status: Int32 = 0
            var reaped: pid_t
            repeat { reaped = waitpid(pid, &status, 0) } while reaped < 0 && errno == EINTR
            let exited = state.exitedAt ?? .now
            let outcome = Outcome(
                termination: reaped == pid ? Self.termination(status) : .exited(-1), output: output, error: error,
                stopReason: state.stopReason, duration: Self.seconds(exited - started))
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

    static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    static func termination(_ status: Int32) -> ProcessResult.Termination {
        let signal = status & 0x7F
        if signal == 0 { return .exited((status >> 8) & 0xFF) }
        return .signalled(signal)
    }

    // MARK: Spawning

    static func spawn(
        executable: String, arguments: [String], environment: [String], workingDirectory: String?,
        standardInput: Data?, timeout: Double?, outputLimit: Int, killGracePeriod: Double, dieWithRunner: Bool = true
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
                standardError: error.write, dieWithRunner: dieWithRunner)
            closeChildEnd(output.write)
            closeChildEnd(error.write)
            if let input { closeChildEnd(input.read) }
            for fd in [output.read, error.read, input?.write ?? -1, wake.read] where fd >= 0 {
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            }
            let child = ChildProcess(
                pid: pid, started: .now, wakeFD: wake.write, timeout: timeout, killGracePeriod: killGracePeriod)
            let inputWrite = input?.write ?? -1
            let supervisor = Thread {
                child.supervise(
                    output: output.read, error: error.read, input: inputWrite, bytes: standardInput ?? Data(),
                    wake: wake.read, limit: outputLimit)
            }
            supervisor.name = "skillbook-child-io"
            let waiter = Thread { child.awaitExit() }
            waiter.name = "skillbook-child-wait"
            supervisor.start()
            waiter.start()
            return child
        } catch {
            for fd in opened { close(fd) }
            throw error
        }
    }

    /// Starts the child in a process group of its own, with default signals and an empty mask.
    /// On Linux with `dieWithRunner` it is forked by `CSpawn`'s permanent thread with the
    /// parent-death signal set, so it cannot outlive this process (posix_spawn cannot ask for that).
    static func posixSpawn(
        executable: String, arguments: [String], environment: [String], workingDirectory: String?,
        standardInput: Int32?, standardOutput: Int32, standardError: Int32, dieWithRunner: Bool = true
    ) throws(ProcessRunnerError) -> pid_t {
        let command = arguments[0]
        #if os(Linux)
        if dieWithRunner {
            let argv = arguments.map { strdup($0) } + [nil]
            defer { for pointer in argv { free(pointer) } }
            let envp = environment.map { strdup($0) } + [nil]
            defer { for pointer in envp { free(pointer) } }
            var pid: pid_t = 0
            let result = skb_spawn(
                executable, argv, envp, workingDirectory, standardInput ?? -1, standardOutput, standardError, 1, &pid)
            guard result == 0 else { throw .startFailed(command, reason: Native.describe(result)) }
            return pid
        }
        #endif
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
        state.withLock { state in
            state.exitedAt = .now
            wake(state)
        }
    }

    /// Writes stdin and reads stdout and stderr in one `poll` loop, so no pipe can fill up and
    /// stall the child, and keeps the deadlines; ends when the output is read (or given up on)
    /// and the child has exited.
    private func supervise(output: Int32, error: Int32, input: Int32, bytes: Data, wake: Int32, limit: Int) {
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

        while true {
            let (next, abandon, exited) = keepDeadlines()
            if abandon {
                for index in streams.indices {
                    streams[index].read(into: buffer, untilEmpty: true)
                    streams[index].close()
                }
            }
            let reading = streams.contains { $0.fd >= 0 }
            if !reading, exited { break }
            if !reading, inputFD >= 0 {
                // Nobody reads the output any more; the child will not be fed either.
                close(inputFD)
                inputFD = -1
            }
            var fds = streams.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }
            fds.append(pollfd(fd: inputFD, events: Int16(POLLOUT), revents: 0))
            fds.append(pollfd(fd: wake, events: Int16(POLLIN), revents: 0))
            var timeout: Int32 = -1
            if let next {
                let milliseconds = (Self.seconds(next - .now) * 1000).rounded(.up)
                timeout = Int32(max(0, min(milliseconds, 60_000)))
            }
            // Negative descriptors are ignored by poll.
            let ready = poll(&fds, nfds_t(fds.count), timeout)
            if ready < 0 {
                if errno == EINTR { continue }
                break
            }
            if fds[3].revents != 0 {
                var drain = [UInt8](repeating: 0, count: 64)
                _ = readSome(wake, &drain, drain.count)
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
        for index in streams.indices { streams[index].close() }
        for fd in [inputFD, wake] where fd >= 0 { close(fd) }
        finish(output: streams[0].captured, error: streams[1].captured)
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
                close()
            }
        }

        mutating func close() {
            guard fd >= 0 else { return }
            closeDescriptor(fd)
            fd = -1
        }
    }
}

/// `read(2)`, under a name a `read` method does not hide.
func readSome(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(fd, buffer, count)
}

/// `close(2)`, under a name a `close` method does not hide.
func closeDescriptor(_ fd: Int32) {
    _ = close(fd)
}

/// C functions Swift's Glibc module does not declare (GNU extensions), found at run time.
enum Native {
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
