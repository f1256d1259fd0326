/// Why a command stopped, as the user sees it: thrown by commands and printed by
/// `SkillbookCLI.report` alone, as `skillbook: error: MESSAGE` (one line per message) on stderr,
/// then the hint, and the process exits with `exitCode`.
struct CommandFailure: Error, Sendable, CustomStringConvertible {
    /// One or more problems found at once, each printed as its own error line.
    var messages: [String]
    var exitCode: ExitCode
    /// What to do about it, printed as it is after the messages.
    var hint: String?

    init(_ message: String, exitCode: ExitCode, hint: String? = nil) {
        self.init(messages: [message], exitCode: exitCode, hint: hint)
    }

    init(messages: [String], exitCode: ExitCode, hint: String? = nil) {
        self.messages = messages
        self.exitCode = exitCode
        self.hint = hint
    }

    var description: String { messages.joined(separator: "\n") }
}
