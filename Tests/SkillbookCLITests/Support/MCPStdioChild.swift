import Foundation
import SkillbookCore
import SkillbookTesting

/// `skillbook mcp ARGS` as a real child process spoken to as an MCP client does: JSON-RPC lines on
/// its stdin (kept open until `close()`), its answers collected from stdout.
final class MCPStdioChild {
    let process = Process()
    let input = Pipe()
    let stdout = OutputFile()
    let stderr = OutputFile()
    private var nextID = 0

    init(_ arguments: [String], in directory: URL, environment: [String: String] = [:]) throws {
        process.executableURL = try builtExecutable()
        process.arguments = ["mcp"] + arguments
        process.currentDirectoryURL = directory
        process.environment = ["HOME": directory.path, "NO_COLOR": "1", "PATH": "/usr/bin:/bin"].merging(environment) { $1 }
        let out = try stdout.writer()
        let err = try stderr.writer()
        defer {
            try? out.close()
            try? err.close()
        }
        process.standardInput = input
        process.standardOutput = out
        process.standardError = err
        try process.run()
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    func notify(_ method: String) {
        write(["jsonrpc": "2.0", "method": .string(method)])
    }

    /// Sends a request and waits (up to `seconds`) for the answer with its id: that line's object.
    func request(_ method: String, _ params: ValueObject, upTo seconds: Double = 60) async throws -> Value {
        nextID += 1
        let id = nextID
        write(["jsonrpc": "2.0", "id": .int(id), "method": .string(method), "params": .object(params)])
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            for line in stdout.text.split(separator: "\n") {
                if let message = try? JSONText.decode(String(line)), message["id"] == .int(id) { return message }
            }
            guard process.isRunning else { break }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw ChildProcessError("no answer to \(method) (id \(id)) in \(seconds) s\nstdout:\n\(stdout.text)\nstderr:\n\(stderr.text)")
    }

    /// Closes stdin (the server ends) and waits for the exit.
    func close() async throws {
        try input.fileHandleForWriting.close()
        let deadline = Date().addingTimeInterval(20)
        while process.isRunning, Date() < deadline { try await Task.sleep(for: .milliseconds(10)) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    private func write(_ message: ValueObject) {
        input.fileHandleForWriting.write(Data((JSONText.encode(.object(message)) + "\n").utf8))
    }
}
