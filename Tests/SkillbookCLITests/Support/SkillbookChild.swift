import SkillbookTesting
import SkillbookCore
import Foundation
import Testing

struct ChildProcessError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// `skillbook ARGS` as a real child process, its output collected as it comes.
final class SkillbookChild {
    let process: ChildProgram
    let stdout: OutputFile
    let stderr: OutputFile

    /// `executable` (default: the built `skillbook`) with `arguments`, in `directory`, with
    /// `environment` added to the child's small fixed environment.
    init(_ arguments: [String], in directory: URL, environment: [String: String] = [:], executable: URL? = nil) throws {
        let stdout = OutputFile()
        let stderr = OutputFile()
        process = try ChildProgram(
            try (executable ?? builtExecutable()).path, arguments,
            environment: ["HOME": directory.path, "NO_COLOR": "1", "PATH": "/usr/bin:/bin"].merging(environment) { $1 },
            in: directory, output: .file(stdout), error: .file(stderr))
        self.stdout = stdout
        self.stderr = stderr
    }

    var pid: Int32 { process.pid }

    /// The `--json` events printed so far (complete lines only).
    var events: [[String: Any]] { Self.events(in: stdout.text) }

    static func events(in output: String) -> [[String: Any]] {
        var text = output
        if let newline = text.lastIndex(of: "\n") { text = String(text[...newline]) } else { text = "" }
        return text.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        }
    }

    /// Waits until an event matches (true), or the process exits or `seconds` pass (false).
    func waitForEvent(upTo seconds: Double = 30, _ matches: ([String: Any]) -> Bool) async throws -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if events.contains(where: matches) { return true }
            if !process.isRunning { return events.contains(where: matches) }
            try await Task.sleep(for: .milliseconds(5))
        }
        return false
    }

    /// Sends `signal` once an event matches (and `delay` seconds more), watching from a thread of
    /// its own so that a test pool busy with other tests cannot make it late. Returns whether an
    /// event matched before the run finished or `seconds` passed; waits for the process to end.
    func kill(
        _ signal: Int32 = SIGKILL, after delay: Double = 0, upTo seconds: Double = 30,
        when matches: @escaping @Sendable ([String: Any]) -> Bool
    ) async throws -> Bool {
        let process = process
        let output = stdout
        let matched = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let thread = Thread {
                let deadline = Date().addingTimeInterval(seconds)
                while Date() < deadline {
                    let events = Self.events(in: output.text)
                    if events.contains(where: matches) {
                        if delay > 0 { Thread.sleep(forTimeInterval: delay) }
                        process.signal(signal)
                        return continuation.resume(returning: true)
                    }
                    if events.contains(where: { $0["type"] as? String == "run.finished" }) { break }
                    Thread.sleep(forTimeInterval: 0.002)
                }
                continuation.resume(returning: false)
            }
            thread.start()
        }
        _ = try await waitForExit()
        return matched
    }

    /// Sends `signal` and waits until the process has ended and been reaped.
    func kill(_ signal: Int32 = SIGKILL) async throws {
        process.signal(signal)
        _ = try await waitForExit()
    }

    /// Waits for the process to end; its exit code (128 + the signal that ended it), or `nil`
    /// after `seconds`.
    func waitForExit(upTo seconds: Double = 60) async throws -> Int32? {
        _ = await process.exit(within: seconds)
        return process.exitCode
    }

    var transcript: String { "stdout:\n\(stdout.text)\nstderr:\n\(stderr.text)" }
}

/// Runs `skillbook ARGS` to the end as a child process.
func runSkillbook(
    _ arguments: [String], in directory: URL, environment: [String: String] = [:], upTo seconds: Double = 60
) async throws -> (code: Int32, out: String, err: String) {
    let child = try SkillbookChild(arguments, in: directory, environment: environment)
    guard let code = try await child.waitForExit(upTo: seconds) else {
        throw ChildProcessError("skillbook \(arguments.joined(separator: " ")) did not finish in \(seconds) s\n\(child.transcript)")
    }
    return (code, child.stdout.text, child.stderr.text)
}
