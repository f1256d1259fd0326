public import Foundation

/// Runs external commands: the one way skills start child processes.
///
/// A conformer must:
/// - never involve a shell: `arguments` reach the command exactly as given, one argument each;
/// - give the child a clean environment: `PATH`, `HOME` and `LANG`, the names the request passes
///   through, and the request's own variables, nothing else;
/// - capture stdout and stderr while the child runs, each bounded by `outputLimit`;
/// - on timeout, and on cancellation of the calling task, stop the child and everything it
///   started (its process group) with SIGTERM, then SIGKILL after `killGracePeriod`;
/// - on cancellation throw `CancellationError` once the child is gone.
public protocol ProcessRunning: Sendable {
    /// The absolute path `command` runs, or `nil` when it is not found (a name is searched on the
    /// runner's `PATH`; a path with a `/` must be an executable file).
    func locate(_ command: String) -> String?

    /// Runs a command to completion (or timeout). Throws `ProcessRunnerError` when the command
    /// cannot be started, `CancellationError` when the calling task was cancelled.
    func run(_ request: ProcessRequest) async throws -> ProcessResult

    /// Starts a long-lived child that talks in lines over stdin and stdout (an MCP server over
    /// stdio, say) and returns at once. The same rules hold as for `run` (no shell, the clean
    /// environment, the process group); `request.standardInput` is ignored (stdin is the pipe
    /// behind `RunningProcess.write`), `request.timeout` is not applied, and `outputLimit` bounds the
    /// stderr tail and the length of one stdout line. Throws `ProcessRunnerError` when the command
    /// cannot be started.
    func start(_ request: ProcessRequest) async throws -> any RunningProcess
}

/// A child started by `ProcessRunning.start`, spoken to in lines.
///
/// A conformer must:
/// - deliver every line the child prints on stdout through `lines`, in order, without its line
///   break (`\n`, or `\r\n`), then finish the sequence when stdout closes; a last line without a
///   break is delivered too; a line longer than the request's `outputLimit` is cut there;
/// - keep the last `outputLimit` bytes of stderr (`errorTail`), so a failure can say why;
/// - let `write` block no thread of the cooperative pool while the child is slow to read;
/// - on `terminate`, and when the calling task of `exit()` is cancelled, stop the child and its
///   process group (SIGTERM, then SIGKILL after the request's `killGracePeriod`).
public protocol RunningProcess: Sendable {
    /// The child's process id.
    var processID: Int32 { get }
    /// The lines the child prints on stdout. Read it from one task only.
    var lines: AsyncStream<String> { get }
    /// Writes `line` and a line break to the child's stdin; throws `RunningProcessError.inputClosed`
    /// once stdin is closed or the child no longer reads it.
    func write(line: String) async throws
    /// Closes the child's stdin: it sees the end of its input.
    func closeInput()
    /// Stops the child and its process group.
    func terminate()
    /// Waits until the child has exited and returns how it ended.
    func exit() async -> ProcessResult.Termination
    /// The last bytes the child wrote to stderr, as text.
    var errorTail: String { get }
}

/// Why a line could not be written to a running child.
public enum RunningProcessError: Error, Sendable, Hashable, CustomStringConvertible {
    /// stdin was closed (`closeInput`) or the child no longer reads it (it exited).
    case inputClosed(command: String)

    public var description: String {
        switch self {
        case .inputClosed(let command): "cannot write to '\(command)': its input is closed"
        }
    }
}

/// One command to run.
public struct ProcessRequest: Sendable, Hashable {
    /// `argv`: the command (a name looked up on `PATH`, or a path) and its arguments.
    public var arguments: [String]
    /// The child's current directory (relative to the runner's); `nil` is the runner's.
    public var workingDirectory: String?
    /// Variables set for the child, on top of the clean base (`PATH`, `HOME`, `LANG`).
    public var environment: [String: String]
    /// Names of variables copied from the runner's environment when they are set there.
    public var passedThrough: [String]
    /// Bytes written to the child's stdin, which is then closed; `nil` connects `/dev/null`.
    public var standardInput: Data?
    /// Seconds before the child is stopped; `nil` waits as long as it takes.
    public var timeout: Double?
    /// The most bytes kept of stdout and of stderr each; the rest is read and dropped.
    public var outputLimit: Int
    /// Seconds between SIGTERM and SIGKILL when the child is stopped.
    public var killGracePeriod: Double
    /// The child may outlive the runner (a skill that starts something to keep running, on purpose).
    /// Otherwise a conformer must not let it: on Linux the real runner has the kernel kill it
    /// when the runner ends, however it ends (SIGKILL included).
    public var detached: Bool

    public static let defaultOutputLimit = 1 << 20

    public init(
        _ arguments: [String], workingDirectory: String? = nil, environment: [String: String] = [:],
        passedThrough: [String] = [], standardInput: Data? = nil, timeout: Double? = nil,
        outputLimit: Int = defaultOutputLimit, killGracePeriod: Double = 2, detached: Bool = false
    ) {
        self.detached = detached
        self.arguments = arguments
        self.workingDirectory = workingDirectory
        self.environment = environment
        self.passedThrough = passedThrough
        self.standardInput = standardInput
        self.timeout = timeout
        self.outputLimit = outputLimit
        self.killGracePeriod = killGracePeriod
    }

    /// The command as given (`argv[0]`).
    public var command: String { arguments.first ?? "" }
}

/// How a child ended and what it printed.
public struct ProcessResult: Sendable, Hashable {
    public enum Termination: Sendable, Hashable, CustomStringConvertible {
        /// It exited with this status.
        case exited(Int32)
        /// A signal ended it.
        case signalled(Int32)

        public var description: String {
            switch self {
            case .exited(let code): "exited with code \(code)"
            case .signalled(let signal): "was killed by signal \(signal)\(ProcessResult.signalName(signal).map { " (\($0))" } ?? "")"
            }
        }
    }

    /// The absolute path that ran.
    public var executable: String
    public var termination: Termination
    public var standardOutput: Data
    public var standardError: Data
    /// More than `outputLimit` bytes were printed; the rest was dropped.
    public var standardOutputTruncated: Bool
    public var standardErrorTruncated: Bool
    /// The timeout ran out and the child was stopped.
    public var timedOut: Bool
    /// Seconds from the start to the exit of the command (measured off the cooperative pool, so
    /// it is exact even when awaiting the result is slow).
    public var duration: Double

    public init(
        executable: String, termination: Termination, standardOutput: Data = Data(), standardError: Data = Data(),
        standardOutputTruncated: Bool = false, standardErrorTruncated: Bool = false, timedOut: Bool = false,
        duration: Double = 0
    ) {
        self.executable = executable
        self.termination = termination
        self.standardOutput = standardOutput
        self.standardError = standardError
        self.standardOutputTruncated = standardOutputTruncated
        self.standardErrorTruncated = standardErrorTruncated
        self.timedOut = timedOut
        self.duration = duration
    }

    /// The exit status, or 128 + the signal number (as shells report it).
    public var exitCode: Int {
        switch termination {
        case .exited(let code): Int(code)
        case .signalled(let signal): 128 + Int(signal)
        }
    }

    /// Exited with 0 within the timeout.
    public var succeeded: Bool { termination == .exited(0) && !timedOut }

    /// stdout as text (invalid UTF-8 replaced; a character cut by truncation dropped).
    public var outputText: String { Self.text(standardOutput, truncated: standardOutputTruncated) }
    /// stderr as text.
    public var errorText: String { Self.text(standardError, truncated: standardErrorTruncated) }

    public static func text(_ data: Data, truncated: Bool) -> String {
        var end = data.endIndex
        if truncated {
            // Drop a multi-byte character cut in half by the limit rather than show U+FFFD.
            var start = end
            while start > data.startIndex, end - start < 4 {
                start -= 1
                if data[start] & 0xC0 != 0x80 { break }
            }
            if start < end {
                let lead = data[start]
                let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
                if end - start < length { end = start }
            }
        }
        return String(decoding: data[data.startIndex..<end], as: UTF8.self)
    }

    public static func signalName(_ signal: Int32) -> String? {
        let names: [Int32: String] = [
            1: "SIGHUP", 2: "SIGINT", 3: "SIGQUIT", 4: "SIGILL", 6: "SIGABRT", 8: "SIGFPE", 9: "SIGKILL",
            11: "SIGSEGV", 13: "SIGPIPE", 14: "SIGALRM", 15: "SIGTERM",
        ]
        return names[signal]
    }
}

/// A command that could not be started.
public enum ProcessRunnerError: Error, Sendable, Hashable, CustomStringConvertible {
    case emptyCommand
    /// A name not found on `PATH` (the searched `PATH` is kept for the message).
    case commandNotFound(String, searchPath: String)
    /// A path that is not an executable file.
    case notExecutable(String)
    case workingDirectoryMissing(String)
    /// An argument or variable holds a NUL byte, which cannot be passed to a program.
    case nulByte(String)
    case invalidVariableName(String)
    /// `posix_spawn` or a pipe failed.
    case startFailed(String, reason: String)

    public var description: String {
        switch self {
        case .emptyCommand: "no command to run: the argument list is empty"
        case .commandNotFound(let name, _): "command '\(name)' not found on PATH"
        case .notExecutable(let path): "'\(path)' is not an executable file"
        case .workingDirectoryMissing(let path): "working directory '\(path)' does not exist or is not a folder"
        case .nulByte(let what): "\(what) contains a NUL byte, which cannot be passed to a command"
        case .invalidVariableName(let name): "'\(name)' is not a valid environment variable name"
        case .startFailed(let command, let reason): "cannot start '\(command)': \(reason)"
        }
    }
}
