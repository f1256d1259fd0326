import Foundation
import SkillbookCore
import SkillbookTesting

/// `skillbook mcp ARGS` as a real child process spoken to as an MCP client does: JSON-RPC lines on
/// its stdin (kept open until `close()`), its answers collected from stdout.
final class MCPStdioChild {
    let process: ChildProgram
    let stdout: OutputFile
    let stderr: OutputFile
    private var nextID = 0

    init(_ arguments: [String], in directory: URL, environment: [String: String] = [:]) throws {
        let stdout = OutputFile()
        let stderr = OutputFile()
        process = try ChildProgram(
            try builtExecutable().path, ["mcp"] + arguments,
            environment: ["HOME": directory.path, "NO_COLOR": "1", "PATH": "/usr/bin:/bin"].merging(environment) { $1 },
            in: directory, input: .pipe, output: .file(stdout), error: .file(stderr))
        self.stdout = stdout
        self.stderr = stderr
    }

    func notify(_ method: String) throws {
        try write(["jsonrpc": "2.0", "method": .string(method)])
    }

    /// Sends a request and waits (up to `seconds`) for the answer with its id: that line's object.
    func request(_ method: String, _ params: ValueObject, upTo seconds: Double = 60) async throws -> Value {
        nextID += 1
        let id = nextID
        try write(["jsonrpc": "2.0", "id": .int(id), "method": .string(method), "params": .object(params)])
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
        process.closeInput()
        if await process.exit(within: 20) == nil { process.signal(SIGKILL) }
    }

    private func write(_ message: ValueObject) throws {
        try process.write(JSONText.encode(.object(message)) + "\n")
    }
}
