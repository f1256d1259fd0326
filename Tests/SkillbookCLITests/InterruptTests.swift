import Foundation
import SkillbookStore
import Synchronization
import Testing

/// The built `skillbook` executable: next to the test bundle, else in the package's `.build`.
private func builtExecutable() throws -> URL {
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
private struct MissingExecutable: Error, CustomStringConvertible {
    var candidates: [URL]

    var description: String {
        "the skillbook executable was not found; build it first (swift build --build-tests). Looked in:\n"
            + candidates.map(\.path).joined(separator: "\n")
    }
}

/// What a child process has written to one pipe so far, and whether it closed it.
private final class PipeReader: Sendable {
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

/// Polls `condition` every few milliseconds until it holds or `seconds` pass; returns whether it held.
private func wait(upTo seconds: Double, until condition: () -> Bool) async throws -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while !condition() {
        if Date() > deadline { return false }
        try await Task.sleep(for: .milliseconds(10))
    }
    return true
}

@Suite struct InterruptTests {
    @Test func ctrlCRollsBackTheCompletedStepsAndExitsWith130() async throws {
        let executable = try builtExecutable()
        let directory = TemporaryDirectory()
        let file = directory.write(
            "interrupt.yaml",
            """
            name: interrupt
            steps:
              - id: save
                skill: notes.create
                with: { title: should be undone }
              - id: wait
                skill: debug.sleep
                with: { seconds: 600 }

            """)
        let process = Process()
        process.executableURL = executable
        process.arguments = ["run", file.path, "--json", "--state", directory.state.path]
        process.currentDirectoryURL = directory.url
        process.environment = ["HOME": directory.path, "NO_COLOR": "1", "PATH": "/usr/bin:/bin"]
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = FileHandle.nullDevice
        let out = PipeReader(stdout)
        let err = PipeReader(stderr)
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }

        let sleeping = try await wait(upTo: 30) {
            out.text.contains(#""type":"step.started","step":"wait""#) || !process.isRunning
        }
        try #require(sleeping && process.isRunning, "the sleep step never started; stdout:\n\(out.text)\nstderr:\n\(err.text)")
        // The note of the first step exists while the second one runs.
        #expect(try NotesStore(stateDirectory: directory.state).list(tag: nil, limit: 10).map(\.title) == ["should be undone"])

        kill(process.processIdentifier, SIGINT)
        let exited = try await wait(upTo: 5) { !process.isRunning && out.closed && err.closed }
        try #require(exited, "skillbook did not exit within 5 seconds of SIGINT; stdout:\n\(out.text)\nstderr:\n\(err.text)")

        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 130)
        let events = try jsonLines(out.text)
        let finished = try #require(events.last)
        #expect(finished.type == "run.finished")
        #expect(finished["status"] as? String == "rolled_back")
        #expect(finished["interrupted"] as? Bool == true)
        #expect(finished["error"] as? String == "step 'wait' failed: interrupted while step 'wait' was running")
        #expect(finished.stepStatuses == ["save": "compensated", "wait": "failed"])
        #expect(events.map(\.type).suffix(3) == ["compensation.started", "compensation.succeeded", "run.finished"])
        #expect(err.text == "\nskillbook: interrupted; rolling back (press Ctrl-C again to quit now)\n")
        #expect(try NotesStore(stateDirectory: directory.state).list(tag: nil, limit: 10).isEmpty)
    }
}
