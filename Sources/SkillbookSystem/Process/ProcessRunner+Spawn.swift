import Foundation
public import SkillbookCore

extension ProcessRunner {
    /// Starts the program at the absolute path `executable` with exactly `arguments` (`argv`, its
    /// first element the name the program sees) and exactly `environment` (`NAME=value` entries),
    /// in `workingDirectory` (`nil`: this process's), its stdin, stdout and stderr the descriptors
    /// given (stdin `nil`: `/dev/null`). Returns its pid.
    ///
    /// The child starts as every child of the runner does: the leader of a process group of its
    /// own, with default signal actions and an empty signal mask, inheriting no other descriptor,
    /// and — on Linux — killed by the kernel when this process ends, however it ends. Nothing is
    /// looked up and nothing watches it: the caller owns the child, waits for it and reaps it
    /// (`run` and `start` do all of that for a `ProcessRequest`). For code that must hold a child
    /// in ways a request cannot say, such as the tests' `ChildProgram`.
    public static func spawn(
        executable: String, arguments: [String], environment: [String], workingDirectory: String? = nil,
        standardInput: Int32? = nil, standardOutput: Int32, standardError: Int32
    ) throws(ProcessRunnerError) -> Int32 {
        guard let command = arguments.first, !command.isEmpty else { throw .emptyCommand }
        guard executable.hasPrefix("/") else { throw .notExecutable(executable) }
        for argument in [executable] + arguments where argument.utf8.contains(0) {
            throw .nulByte("argument '\(argument.replacingOccurrences(of: "\0", with: "\\0"))'")
        }
        for entry in environment {
            let name = String(entry.prefix { $0 != "=" })
            guard !name.isEmpty, name.count < entry.count else { throw .invalidVariableName(name) }
            if entry.utf8.contains(0) { throw .nulByte("variable \(name)") }
        }
        if let workingDirectory, workingDirectory.utf8.contains(0) { throw .nulByte("working directory") }
        return try ChildProcess.posixSpawn(
            executable: executable, arguments: arguments, environment: environment, workingDirectory: workingDirectory,
            standardInput: standardInput, standardOutput: standardOutput, standardError: standardError, dieWithRunner: true)
    }
}
