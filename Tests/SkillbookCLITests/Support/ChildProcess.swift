import SkillbookTesting
import SkillbookCore
import Foundation
import Synchronization

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

/// What a child process has written to one pipe so far, and whether it closed it.
final class PipeReader: Sendable {
    private let state = Mutex<(data: Data, closed: Bool)>((Data(), false))

    init(_ pipe: Pipe) {
        pipe.fileHandleForReading.readabilityHandler = { [self] handle in
            let chunk = handle.availableData
            state.withLock { state in
                if chunk.isEmpty { state.closed = true } else { state.data.append(chunk) }
            }
            if chunk.isEmpty { handle.readabilityHandler = nil }
        }
    }

    var text: String { state.withLock { String(decoding: $0.data, as: UTF8.self) } }
    var closed: Bool { state.withLock { $0.closed } }
}

/// A `skillbook` child process with its output read while it runs.
struct ChildSkillbook {
    let process = Process()
    let out: PipeReader
    let err: PipeReader

    init(_ arguments: [String], in directory: TemporaryDirectory) throws {
        process.executableURL = try builtExecutable()
        process.arguments = arguments + ["--state", directory.state.path]
        process.currentDirectoryURL = directory.url
        process.environment = ["HOME": directory.path, "NO_COLOR": "1", "PATH": "/usr/bin:/bin"]
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = FileHandle.nullDevice
        out = PipeReader(stdout)
        err = PipeReader(stderr)
        try process.run()
    }

    var pid: Int32 { process.processIdentifier }

    /// Waits until stdout contains `text` (or the process ends); whether it appeared while running.
    func waitFor(_ text: String, seconds: Double = 30) async throws -> Bool {
        let seen = await eventually(within: seconds) { out.text.contains(text) || !process.isRunning }
        return seen && process.isRunning
    }

    /// Waits for the process to exit, then for its pipes to close, so that everything it wrote has
    /// been read. A pipe stays open after the exit only while another process holds a copy of its
    /// write end (one forked elsewhere in the test process just as this one started); the output is
    /// then read for up to a second more instead of waiting for that other process to end.
    func waitForExit(seconds: Double) async throws -> Bool {
        guard await eventually(within: seconds, { !process.isRunning }) else { return false }
        _ = await eventually(within: 1) { out.closed && err.closed }
        return true
    }

    func killIfRunning() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
}
