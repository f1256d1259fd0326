public import Foundation
public import SkillbookCore

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
        // Over bytes: splitting by `Character` cost ~80 k instructions per lookup of a usual PATH,
        // and every manifest skill's program is looked up as the skills load.
        let slash = UInt8(ascii: "/")
        for entry in searchPath.utf8.split(separator: UInt8(ascii: ":")) where entry.first == slash {
            let directory = String(Substring(entry))
            let candidate = entry.last == slash ? directory + command : directory + "/" + command
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

    /// What a request runs: the executable found, the complete environment, the folder.
    struct Launch {
        var executable: String
        var environment: [String]
        var directory: String?
    }

    /// Checks a request and finds what it runs; throws `ProcessRunnerError` when it cannot start.
    func launch(_ request: ProcessRequest) throws -> Launch {
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
        return Launch(
            executable: executable, environment: environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" },
            directory: directory)
    }

    public func start(_ request: ProcessRequest) async throws -> any RunningProcess {
        let launch = try launch(request)
        try Task.checkCancellation()
        return try LineChild.spawn(
            executable: launch.executable, arguments: request.arguments, environment: launch.environment,
            workingDirectory: launch.directory, lineLimit: max(1, request.outputLimit),
            killGracePeriod: max(0, request.killGracePeriod), dieWithRunner: !request.detached)
    }

    public func run(_ request: ProcessRequest) async throws -> ProcessResult {
        let launch = try launch(request)
        let executable = launch.executable
        let directory = launch.directory
        try Task.checkCancellation()

        let child = try ChildProcess.spawn(
            executable: executable, arguments: request.arguments,
            environment: launch.environment, workingDirectory: directory, standardInput: request.standardInput,
            timeout: request.timeout.map { max(0, $0) }, outputLimit: max(0, request.outputLimit),
            killGracePeriod: max(0, request.killGracePeriod), dieWithRunner: !request.detached)
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

    /// Whether `path` is a file (not a folder) this process may execute: one `stat` and one
    /// `access`, as FileManager's pair of checks did with more work around them (a manifest's
    /// program is looked up in every folder of PATH when the skills load).
    static func isExecutableFile(_ path: String) -> Bool {
        path.withCString { name in
            var info = stat()
            guard stat(name, &info) == 0, (info.st_mode & S_IFMT) != S_IFDIR else { return false }
            return access(name, X_OK) == 0
        }
    }
}
