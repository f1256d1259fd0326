import Foundation
import SkillbookTesting

/// What a finished tool printed.
struct ToolRun {
    var code: Int32
    var out: String
    var err: String
}

/// Runs `/usr/bin/NAME ARGS` (a shell, mandoc) in `directory`, its output read while it runs;
/// fails the test when the tool is missing (`make deps` installs it) or runs past `seconds`.
func runTool(
    _ name: String, _ arguments: [String], in directory: URL, environment: [String: String] = [:], seconds: Double = 60
) async throws -> ToolRun {
    let path = "/usr/bin/\(name)"
    guard FileManager.default.isExecutableFile(atPath: path) else {
        throw ChildProcessError("\(path) is missing; 'make deps' installs it")
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    process.currentDirectoryURL = directory
    process.environment = ["HOME": directory.path, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "TERM": "dumb"].merging(environment) { $1 }
    let stdout = Pipe()
    let stderr = Pipe()
    process.standardOutput = stdout
    process.standardError = stderr
    process.standardInput = FileHandle.nullDevice
    let out = PipeReader(stdout)
    let err = PipeReader(stderr)
    try process.run()
    guard await eventually(within: seconds, { !process.isRunning }) else {
        kill(process.processIdentifier, SIGKILL)
        throw ChildProcessError("\(name) \(arguments) ran for more than \(seconds) s; output so far:\n\(out.text)\n\(err.text)")
    }
    _ = await eventually(within: 2) { out.closed && err.closed }
    return ToolRun(code: process.terminationStatus, out: out.text, err: err.text)
}
