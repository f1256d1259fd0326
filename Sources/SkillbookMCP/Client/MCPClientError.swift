import SkillbookCore

/// Why talking to an MCP server failed. Every message names the server's command.
public enum MCPClientError: Error, Sendable, Hashable, CustomStringConvertible {
    case cannotStart(command: String, reason: String)
    /// It exited (or closed its output) while an answer was awaited.
    case exited(command: String, status: String, stderr: String)
    case timedOut(command: String, method: String, seconds: Double)
    /// It wrote something that is not JSON-RPC on stdout.
    case garbage(command: String, line: String)
    /// It answered a request with a JSON-RPC error.
    case refused(command: String, method: String, error: JSONRPCError)
    /// It answered with a result this client cannot read.
    case badAnswer(command: String, method: String, detail: String)
    /// The caller's task was cancelled (the server was told with `notifications/cancelled`).
    case cancelled(command: String)
    /// The tool ran and reported failure (`isError: true`): its text.
    case toolFailed(tool: String, text: String)

    public var description: String {
        switch self {
        case .cannotStart(let command, let reason):
            "cannot start MCP server '\(command)': \(reason)"
        case .exited(let command, let status, let stderr):
            "MCP server '\(command)' \(status)" + (stderr.isEmpty ? "" : "; its stderr ends: \(stderr)")
        case .timedOut(let command, let method, let seconds):
            "MCP server '\(command)' did not answer '\(method)' within \(JSONText.number(seconds)) s"
        case .garbage(let command, let line):
            "MCP server '\(command)' wrote something that is not JSON-RPC on stdout: \(line)"
        case .refused(let command, let method, let error):
            "MCP server '\(command)' refused '\(method)': \(error.message) (error \(error.code))"
        case .badAnswer(let command, let method, let detail):
            "MCP server '\(command)' gave an unreadable answer to '\(method)': \(detail)"
        case .cancelled(let command):
            "the call to MCP server '\(command)' was cancelled"
        case .toolFailed(let tool, let text):
            "tool '\(tool)' failed: \(text)"
        }
    }
}
