public import Foundation

/// What a child writes to stdout or stderr, through a file rather than a pipe: a pipe's write end
/// can be inherited by a child another test starts at the same moment (a long-lived server keeps
/// it for its whole life), and a reader waiting for end-of-file then waits forever. A file has no
/// end-of-file to wait for. The file is removed when this goes away.
public final class OutputFile: Sendable {
    public let url: URL

    public init() {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("skillbook-child-\(UUID().uuidString).txt")
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// Everything written so far (a character cut in half by a write still under way shows as U+FFFD).
    public var text: String { String(decoding: (try? Data(contentsOf: url)) ?? Data(), as: UTF8.self) }
}

/// How a program run by `runProgram` ended.
public struct ProgramResult: Sendable {
    public var code: Int32
    public var out: String
    public var err: String
}

/// A program that did not end in time: it was killed; what it had written so far.
public struct ProgramTimeout: Error, CustomStringConvertible {
    public var command: String
    public var seconds: Double
    public var out: String
    public var err: String

    public var description: String {
        "\(command) did not finish in \(seconds) s (killed)\nstdout:\n\(out)\nstderr:\n\(err)"
    }
}

/// Runs `executable ARGUMENTS` to its end: `input` (then end of input) on stdin, stdout and stderr
/// collected in files, the exit waited for by polling so that no thread of the test pool blocks,
/// and the process killed (and `ProgramTimeout` thrown) after `seconds`. `code` is the exit status,
/// or 128 + the signal that ended it.
public func runProgram(
    _ executable: URL, _ arguments: [String], input: String? = nil, in directory: URL? = nil,
    environment: [String: String]? = nil, upTo seconds: Double = 60
) async throws -> ProgramResult {
    let stdout = OutputFile()
    let stderr = OutputFile()
    let child = try ChildProgram(
        executable.path, arguments, environment: environment, in: directory, input: .bytes(Data((input ?? "").utf8)),
        output: .file(stdout), error: .file(stderr))
    guard await child.exit(within: seconds) != nil, let code = child.exitCode else {
        child.signal(SIGKILL)
        throw ProgramTimeout(
            command: ([executable.lastPathComponent] + arguments).joined(separator: " "), seconds: seconds,
            out: stdout.text, err: stderr.text)
    }
    return ProgramResult(code: code, out: stdout.text, err: stderr.text)
}
