public import Foundation
public import SkillbookCore
import SkillbookSystem
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A program a test runs as a child process: started by the runner's own `ProcessRunner.spawn` (a
/// process group of its own, default signals, no inherited descriptors, killed when the tests end),
/// never by Foundation's `Process`, whose monitoring of children on Linux (libdispatch sources) once
/// crashed a test pass in libdispatch's manager thread.
///
/// - stdin is `/dev/null`, fixed bytes (from an unlinked file: nothing to write while it runs), or
///   a pipe the test writes to (`write`) and closes (`closeInput`);
/// - stdout and stderr go to `/dev/null`, an `OutputFile` (read while it runs; a file has no
///   end-of-file that a grandchild holding it open could hold back), or a pipe whose read end the
///   test reads (`outputPipe`, `errorPipe`);
/// - a thread of its own waits for the exit with `waitid(WNOWAIT)` and reaps the child under the
///   lock that `signal` takes, so a signal never reaches another process given the pid since.
///
/// Waiting never blocks a thread of the cooperative pool (`exit(within:)` polls), except
/// `waitUntilExit` for synchronous callers. A child still running when this goes away is killed
/// (SIGKILL).
public final class ChildProgram: Sendable {
    public enum Input: Sendable {
        /// `/dev/null`.
        case none
        /// These bytes, then the end of input.
        case bytes(Data)
        /// A pipe kept open for `write` until `closeInput`.
        case pipe
    }

    public enum Output: Sendable {
        /// `/dev/null`.
        case none
        /// Appended to this file.
        case file(OutputFile)
        /// A pipe; the test reads its read end (`outputPipe` or `errorPipe`).
        case pipe
    }

    public let pid: Int32
    /// The program and its arguments, for messages.
    public let commandLine: String
    /// The read end of stdout's pipe (`output: .pipe`), closed when this goes away.
    public let outputPipe: Int32?
    /// The read end of stderr's pipe (`error: .pipe`), closed when this goes away.
    public let errorPipe: Int32?
    /// The write end of stdin's pipe (`input: .pipe`); -1 once closed.
    private let inputPipe: Mutex<Int32>
    private let watch: ExitWatch

    /// Starts `executable` (an absolute path) with `arguments`, with exactly `environment` (`nil`:
    /// this process's) in `directory` (`nil`: this process's).
    public convenience init(
        _ executable: String, _ arguments: [String] = [], environment: [String: String]? = nil, in directory: URL? = nil,
        input: Input = .none, output: Output = .none, error: Output = .none
    ) throws {
        let started = try Started.start(
            executable, arguments, environment: environment ?? ProcessInfo.processInfo.environment, directory: directory,
            input: input, output: output, error: error)
        self.init(started)
    }

    private init(_ started: Started) {
        pid = started.pid
        commandLine = started.commandLine
        outputPipe = started.outputPipe
        errorPipe = started.errorPipe
        inputPipe = Mutex(started.inputPipe)
        let watch = ExitWatch(pid: started.pid)
        self.watch = watch
        let waiter = Thread { watch.awaitExit() }
        waiter.name = "skillbook-test-child-wait"
        waiter.start()
    }

    deinit {
        watch.send(SIGKILL, toGroup: false)
        inputPipe.withLock { fd in
            if fd >= 0 { close(fd) }
            fd = -1
        }
        for fd in [outputPipe, errorPipe].compactMap({ $0 }) { close(fd) }
    }

    // MARK: Signals and the exit

    /// Sends `signal` to the child (with `toGroup`, to its whole process group), unless it has
    /// already ended; whether it was sent.
    @discardableResult
    public func signal(_ signal: Int32, toGroup: Bool = false) -> Bool {
        watch.send(signal, toGroup: toGroup)
    }

    /// How the child ended; `nil` while it runs.
    public var termination: ProcessResult.Termination? { watch.termination }

    public var isRunning: Bool { termination == nil }

    /// Its exit status, or 128 + the signal that ended it (as shells report it); `nil` while it runs.
    public var exitCode: Int32? {
        termination.map { termination in
            switch termination {
            case .exited(let code): code
            case .signalled(let signal): 128 + signal
            }
        }
    }

    /// Waits up to `seconds` for the child to end, polling (no thread blocks); how it ended, or
    /// `nil` when it still runs.
    public func exit(within seconds: Double) async -> ProcessResult.Termination? {
        _ = await eventually(within: seconds) { !isRunning }
        return termination
    }

    /// Blocks the calling thread until the child has ended (for synchronous callers only).
    public func waitUntilExit() -> ProcessResult.Termination {
        while true {
            if let termination { return termination }
            usleep(1000)
        }
    }

    // MARK: stdin

    /// Writes `text` to the child's stdin (`input: .pipe`); throws `RunningProcessError.inputClosed`
    /// once it is closed or the child no longer reads it (EPIPE: SIGPIPE is held off this thread).
    public func write(_ text: String) throws {
        try inputPipe.withLock { fd in
            guard fd >= 0, Self.writeAll(fd, Array(text.utf8)) else {
                throw RunningProcessError.inputClosed(command: commandLine)
            }
        }
    }

    /// Closes the child's stdin: it reads the end of its input.
    public func closeInput() {
        inputPipe.withLock { fd in
            if fd >= 0 { close(fd) }
            fd = -1
        }
    }

    /// Writes every byte, with SIGPIPE blocked on this thread and a SIGPIPE the write raised taken
    /// back, so a reader that is gone is an error here rather than the end of the test process.
    private static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var pipeSignal = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &pipeSignal, &previous)
        defer {
            var pending = sigset_t()
            sigpending(&pending)
            if sigismember(&pending, SIGPIPE) == 1 {
                var none = timespec(tv_sec: 0, tv_nsec: 0)
                _ = sigtimedwait(&pipeSignal, nil, &none)
            }
            pthread_sigmask(SIG_SETMASK, &previous, nil)
        }
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { writeSome(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return false }
            written += count
        }
        return true
    }
}

/// The exit of one child: waited for without reaping (`waitid(WNOWAIT)`), then reaped under the
/// lock that signals are sent under, so none can reach a pid the kernel has given out again.
private final class ExitWatch: Sendable {
    let pid: Int32
    private let state = Mutex<ProcessResult.Termination?>(nil)

    init(pid: Int32) {
        self.pid = pid
    }

    var termination: ProcessResult.Termination? { state.withLock { $0 } }

    @discardableResult
    func send(_ signal: Int32, toGroup: Bool) -> Bool {
        state.withLock { termination in
            termination == nil && kill(toGroup ? -pid : pid, signal) == 0
        }
    }

    /// On the waiting thread: blocks until the child exits, then reaps it.
    func awaitExit() {
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) != 0 {
            if errno != EINTR { break }
        }
        state.withLock { termination in
            var status: Int32 = 0
            var reaped: pid_t
            repeat { reaped = waitpid(pid, &status, 0) } while reaped < 0 && errno == EINTR
            let signal = status & 0x7F
            if reaped != pid {
                termination = .exited(-1)
            } else {
                termination = signal == 0 ? .exited((status >> 8) & 0xFF) : .signalled(signal)
            }
        }
    }
}

/// A child just spawned and the descriptors this process keeps of it.
private struct Started {
    var pid: Int32
    var commandLine: String
    var inputPipe: Int32 = -1
    var outputPipe: Int32?
    var errorPipe: Int32?

    static func start(
        _ executable: String, _ arguments: [String], environment: [String: String], directory: URL?,
        input: ChildProgram.Input, output: ChildProgram.Output, error: ChildProgram.Output
    ) throws -> Started {
        // The child's ends, closed once it has its copies; this process's ends, closed on failure.
        var childEnds: [Int32] = []
        var ours: [Int32] = []
        defer { for fd in childEnds { close(fd) } }
        do {
            var started = Started(pid: 0, commandLine: ([executable] + arguments).joined(separator: " "))
            var standardInput: Int32?
            switch input {
            case .none: break
            case .bytes(let data):
                let fd = try inputFile(data)
                childEnds.append(fd)
                standardInput = fd
            case .pipe:
                let (read, write) = try makePipe()
                childEnds.append(read)
                ours.append(write)
                standardInput = read
                started.inputPipe = write
            }
            func destination(_ output: ChildProgram.Output) throws -> (child: Int32, ours: Int32?) {
                switch output {
                case .none: return (try openDescriptor("/dev/null", O_WRONLY), nil)
                case .file(let file): return (try openDescriptor(file.url.path, O_WRONLY | O_APPEND), nil)
                case .pipe:
                    let (read, write) = try makePipe()
                    ours.append(read)
                    return (write, read)
                }
            }
            let out = try destination(output)
            childEnds.append(out.child)
            started.outputPipe = out.ours
            let err = try destination(error)
            childEnds.append(err.child)
            started.errorPipe = err.ours
            started.pid = try ProcessRunner.spawn(
                executable: executable, arguments: [executable] + arguments,
                environment: environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" },
                workingDirectory: directory?.path, standardInput: standardInput, standardOutput: out.child,
                standardError: err.child)
            return started
        } catch {
            for fd in ours { close(fd) }
            throw error
        }
    }
}

private func openDescriptor(_ path: String, _ flags: Int32) throws -> Int32 {
    let fd = open(path, flags | O_CLOEXEC)
    guard fd >= 0 else { throw ChildProgramError("cannot open \(path): \(String(cString: strerror(errno)))") }
    return fd
}

/// A close-on-exec pipe. (Between `pipe` and `fcntl` a fork elsewhere could copy it, but every
/// child of this process is started with its descriptors above 2 closed.)
private func makePipe() throws -> (read: Int32, write: Int32) {
    var fds: [Int32] = [-1, -1]
    guard pipe(&fds) == 0 else { throw ChildProgramError("cannot create a pipe: \(String(cString: strerror(errno)))") }
    for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
    return (fds[0], fds[1])
}

/// `data` in a file already unlinked, open for reading from its start.
private func inputFile(_ data: Data) throws -> Int32 {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("skillbook-input-\(UUID().uuidString)").path
    let fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard fd >= 0 else { throw ChildProgramError("cannot create \(path): \(String(cString: strerror(errno)))") }
    unlink(path)
    let bytes = [UInt8](data)
    var written = 0
    while written < bytes.count {
        let count = bytes[written...].withUnsafeBytes { writeSome(fd, $0.baseAddress, $0.count) }
        if count < 0, errno == EINTR { continue }
        guard count > 0 else {
            close(fd)
            throw ChildProgramError("cannot write \(path): \(String(cString: strerror(errno)))")
        }
        written += count
    }
    lseek(fd, 0, SEEK_SET)
    return fd
}

/// `write(2)`, under a name `ChildProgram.write` does not hide.
private func writeSome(_ fd: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
    write(fd, bytes, count)
}

/// A child program that could not be set up.
public struct ChildProgramError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
