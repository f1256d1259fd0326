import SkillbookTesting
import SkillbookCore
import Foundation

/// The built `skillbook` executable: next to the test bundle, else in the package's `.build`.
func builtExecutable() throws -> URL {
    var candidates = [URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("skillbook")]
    let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let build = packageRoot.appendingPathComponent(".build")
    candidates.append(build.appendingPathComponent("debug/skillbook"))
    for triple in (try? FileManager.default.contentsOfDirectory(atPath: build.path)) ?? [] {
        candidates.append(build.appendingPathComponent(triple).appendingPathComponent("debug/skillbook"))
    }
    if let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) { return found }
    throw MissingExecutable(candidates: candidates)
}

/// Fails the test (never skips it) when there is no executable to start.
struct MissingExecutable: Error, CustomStringConvertible {
    var candidates: [URL]

    var description: String {
        "the skillbook executable was not found; build it first (swift build --build-tests). Looked in:\n"
            + candidates.map(\.path).joined(separator: "\n")
    }
}

/// A `skillbook` child process with its output collected as it comes.
struct ChildSkillbook {
    let process: ChildProgram
    let out: OutputFile
    let err: OutputFile

    init(_ arguments: [String], in directory: TemporaryDirectory) throws {
        let out = OutputFile()
        let err = OutputFile()
        process = try ChildProgram(
            try builtExecutable().path, arguments + ["--state", directory.state.path],
            environment: ["HOME": directory.path, "NO_COLOR": "1", "PATH": "/usr/bin:/bin"], in: directory.url,
            output: .file(out), error: .file(err))
        self.out = out
        self.err = err
    }

    var pid: Int32 { process.pid }

    /// Waits until stdout contains `text` (or the process ends); whether it appeared while running.
    func waitFor(_ text: String, seconds: Double = 30) async throws -> Bool {
        let seen = await eventually(within: seconds) { out.text.contains(text) || !process.isRunning }
        return seen && process.isRunning
    }

    /// Waits for the process to exit (and be reaped): everything it wrote is in the files then.
    func waitForExit(seconds: Double) async throws -> Bool {
        await process.exit(within: seconds) != nil
    }

    func killIfRunning() {
        process.signal(SIGKILL)
    }
}
