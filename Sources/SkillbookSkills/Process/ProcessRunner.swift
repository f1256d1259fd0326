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

    public static let defaultOutputLimit = 1 << 20

    public init(
        _ arguments: [String], workingDirectory: String? = nil, environment: [String: String] = [:],
        passedThrough: [String] = [], standardInput: Data? = nil, timeout: Double? = nil,
        outputLimit: Int = defaultOutputLimit, killGracePeriod: Double = 2
    ) {
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

    static func text(_ data: Data, truncated: Bool) -> String {
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

    static func signalName(_ signal: Int32) -> String? {
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

/// The real `ProcessRunning`: `posix_spawn` with the child in its own process group.
///
/// Why not Foundation's `Process`: it needs an absolute `executableURL` anyway, its termination
/// and pipe handling differ between platforms, and it offers no way to stop a whole process
/// group. Spawning directly lets every detail be pinned down on Linux:
/// - `POSIX_SPAWN_SETPGROUP` with group 0 makes the child the leader of a new group, so one
///   `kill(-pid, …)` reaches it and everything it started (unless they leave the group on
///   purpose, with `setsid`);
/// - the signal mask is emptied and every signal reset to its default in the child, so a
///   disposition the runner's process ignores (SIGPIPE, say) does not leak into commands;
/// - the pipes are created close-on-exec and, where glibc has it (2.34+), every descriptor above
///   2 is closed in the child, so commands never inherit the runner's files;
/// - the working directory is set with `posix_spawn_file_actions_addchdir_np` (glibc 2.29+),
///   looked up at run time because Swift's Glibc module does not declare GNU extensions;
/// - two threads per child (not the cooperative pool, whose threads must not block): one polls
///   stdout, stderr and stdin together, so a chatty child never blocks on a full pipe, and one
///   waits for the exit with `waitid(WNOWAIT)`. The child is reaped only after its output is
///   read and any kill is done, so its pid — which is also the group id — cannot be reused by
///   another process while signals may still be sent to it.
public struct ProcessRunner: ProcessRunning {
    /// Variables every child gets (when set here).
    public static let baseVariables = ["PATH", "HOME", "LANG"]
    /// The `PATH` used when the environment has none.
    public static let fallbackSearchPath = "/usr/local/bin:/usr/bin:/bin"

    /// The environment the base variables and pass-through names are read from.
    public var inheritedEnvironment: [String: String]
    /// Where children run when a request names no folder, and what a relative folder is relative
    /// to; `nil` is this process's current directory.
    public var workingDirectory: String?

    public init(
        inheritedEnvironment: [String: String] = ProcessInfo.processInfo.environment, workingDirectory: String? = nil
    ) {
        self.inheritedEnvironment = inheritedEnvironment
        self.workingDirectory = workingDirectory
    }

    /// The folder a request runs in, as an absolute path (`nil`: this process's own).
    public func directory(for request: ProcessRequest) -> String? {
        guard let requested = request.workingDirectory else { return workingDirectory }
        guard !requested.hasPrefix("/"), let workingDirectory else { return requested }
        return URL(fileURLWithPath: requested, relativeTo: URL(fileURLWithPath: workingDirectory, isDirectory: true))
            .standardizedFileURL.path
    }

    public var searchPath: String { inheritedEnvironment["PATH"] ?? Self.fallbackSearchPath }

    public func locate(_ command: String) -> String? {
        Self.locate(command, searchPath: searchPath, workingDirectory: workingDirectory)
    }

    /// `command` as an absolute path. A name is searched in the absolute directories of
    /// `searchPath` (relative and empty entries are skipped: they would make the command depend
    /// on the current directory); a path with a `/` is taken relative to `workingDirectory`.
    public static func locate(_ command: String, searchPath: String, workingDirectory: String?) -> String? {
        guard !command.isEmpty else { return nil }
        if command.contains("/") {
            let base = workingDirectory ?? FileManager.default.currentDirectoryPath
            let path = command.hasPrefix("/") ? command : URL(fileURLWithPath: command, relativeTo: URL(fileURLWithPath: base, isDirectory: true)).standardizedFileURL.path
            return isExecutableFile(path) ? path : nil
        }
        for directory in searchPath.split(separator: ":") where directory.hasPrefix("/") {
            let candidate = directory.hasSuffix("/") ? "\(directory)\(command)" : "\(directory)/\(command)"
            if isExecutableFile(candidate) { return candidate }
        }
        return nil
    }

    /// The complete environment a child of `request` gets.
    public func environment(for request: ProcessRequest) -> [String: String] {
        var environment: [String: String] = [:]
        for name in Self.baseVariables + request.passedThrough {
            if let value = inheritedEnvironment[name] { environment[name] = value }
        }
        if environment["PATH"] == nil { environment["PATH"] = Self.fallbackSearchPath }
        for (name, value) in request.environment { environment[name] = value }
        return environment
    }

    public func run(_ request: ProcessRequest) async throws -> ProcessResult {
        guard let command = request.arguments.first, !command.isEmpty else { throw ProcessRunnerError.emptyCommand }
        for argument in request.arguments where argument.utf8.contains(0) {
            throw ProcessRunnerError.nulByte("argument '\(argument.replacingOccurrences(of: "\0", with: "\\0"))'")
        }
        let environment = environment(for: request)
        for (name, value) in environment {
            guard Self.isValidVariableName(name) else { throw ProcessRunnerError.invalidVariableName(name) }
            if value.utf8.contains(0) { throw ProcessRunnerError.nulByte("variable \(name)") }
        }
        let directory = directory(for: request)
        if let directory {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw ProcessRunnerError.workingDirectoryMissing(request.workingDirectory ?? directory)
            }
        }
        let path = environment["PATH"] ?? Self.fallbackSearchPath
        guard let executable = Self.locate(command, searchPath: path, workingDirectory: directory) else {
            if command.contains("/") { throw ProcessRunnerError.notExecutable(command) }
            throw ProcessRunnerError.commandNotFound(command, searchPath: path)
        }
        try Task.checkCancellation()

        let child = try ChildProcess.spawn(
            executable: executable, arguments: request.arguments,
            environment: environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" },
            workingDirectory: directory, standardInput: request.standardInput,
            timeout: request.timeout.map { max(0, $0) }, outputLimit: max(0, request.outputLimit),
            killGracePeriod: max(0, request.killGracePeriod))
        let outcome = await withTaskCancellationHandler {
            await child.finished()
        } onCancel: {
            child.stop(.cancelled)
        }
        if outcome.stopReason == .cancelled { throw CancellationError() }
        return ProcessResult(
            executable: executable, termination: outcome.termination, standardOutput: outcome.output.data,
            standardError: outcome.error.data, standardOutputTruncated: outcome.output.truncated,
            standardErrorTruncated: outcome.error.truncated, timedOut: outcome.stopReason == .timedOut,
            duration: outcome.duration)
    }

    static func isValidVariableName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first == "_" || (first.isASCII && first.properties.isAlphabetic) else {
            return false
        }
        return name.unicodeScalars.allSatisfy { $0 == "_" || ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) }
    }

    static func isExecutableFile(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            return false
        }
        return FileManager.default.isExecutableFile(atPath: path)
    }
}
