import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One `skillbook worker` child (the release binary next to the bench, or `SKILLBOOK_BIN`) on a
/// PostgreSQL state, its stderr in `log`.
final class WorkerProcess {
    let name: String
    let log: URL
    private let process = Process()

    init(skillbook: String, state: String, name: String, workspace: URL, arguments: [String] = []) throws {
        self.name = name
        log = workspace.appendingPathComponent("worker-\(name).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        process.executableURL = URL(fileURLWithPath: skillbook)
        process.arguments = ["worker", "--state", state, "--name", name] + arguments
        process.currentDirectoryURL = workspace
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: log)
        try process.run()
    }

    var pid: Int32 { process.processIdentifier }
    var isRunning: Bool { process.isRunning }

    /// Sends `signal`, then waits (by polling, up to `seconds`) for the process to end.
    func stop(_ signal: Int32, within seconds: Double = 30) async throws {
        kill(process.processIdentifier, signal)
        let giveUp = Date().addingTimeInterval(seconds)
        while process.isRunning {
            guard Date() < giveUp else {
                kill(process.processIdentifier, SIGKILL)
                throw BenchError("postgres: worker \(name) did not end within \(Int(seconds)) s of signal \(signal) (log: \(log.path))")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}
