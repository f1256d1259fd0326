import Foundation
import SkillbookTesting

/// What a finished tool printed.
struct ToolRun {
    var code: Int32
    var out: String
    var err: String
}

/// Runs `/usr/bin/NAME ARGS` (a shell, mandoc) in `directory`, its output collected in files;
/// fails the test when the tool is missing (`make deps` installs it) or runs past `seconds`.
func runTool(
    _ name: String, _ arguments: [String], in directory: URL, environment: [String: String] = [:], seconds: Double = 60
) async throws -> ToolRun {
    let path = "/usr/bin/\(name)"
    guard FileManager.default.isExecutableFile(atPath: path) else {
        throw ChildProcessError("\(path) is missing; 'make deps' installs it")
    }
    let out = OutputFile()
    let err = OutputFile()
    let process = try ChildProgram(
        path, arguments,
        environment: ["HOME": directory.path, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "TERM": "dumb"].merging(environment) { $1 },
        in: directory, output: .file(out), error: .file(err))
    guard await process.exit(within: seconds) != nil, let code = process.exitCode else {
        process.signal(SIGKILL)
        throw ChildProcessError("\(name) \(arguments) ran for more than \(seconds) s; output so far:\n\(out.text)\n\(err.text)")
    }
    return ToolRun(code: code, out: out.text, err: err.text)
}
