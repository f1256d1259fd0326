import Foundation
public import SkillbookCore
import SkillbookSystem

extension ProcessResult {
    /// The last lines of stderr (at most `lines` non-empty lines, `characters` characters), for
    /// error messages.
    public func errorTail(lines: Int = 5, characters: Int = 800) -> String {
        let kept = errorText.split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
            .suffix(lines)
        var tail = kept.joined(separator: "\n")
        if tail.count > characters { tail = "…" + tail.suffix(characters - 1) }
        return tail
    }

    /// Throws a `SkillError` unless the command exited with 0 in time. The message names the
    /// command, says how it ended (exit code, signal or timeout) and ends with stderr's tail.
    public func requireSuccess(_ what: String, timeout: Double?) throws(SkillError) {
        guard !succeeded else { return }
        var message: String
        if timedOut {
            let seconds = timeout.map { " after \(JSONText.number($0)) s" } ?? ""
            message = "\(what) timed out\(seconds) and was stopped"
        } else {
            message = "\(what) \(termination)"
        }
        let tail = errorTail()
        if !tail.isEmpty { message += ":\n\(tail)" }
        throw SkillError(message)
    }
}

extension SkillError {
    /// Runs a command through `runner`, reporting a command that cannot start as the skill's
    /// failure. Cancellation passes through unchanged.
    static func running(_ request: ProcessRequest, on runner: any ProcessRunning) async throws -> ProcessResult {
        do {
            return try await runner.run(request)
        } catch let error as ProcessRunnerError {
            throw SkillError(error.description)
        }
    }
}
