/// How to start an MCP server: its argv, run without a shell, and its limits.
public struct MCPServerCommand: Sendable, Hashable {
    /// `argv`: a command name looked up on `PATH`, or a path, then its arguments.
    public var arguments: [String]
    /// Variables set for the server, on top of `PATH`, `HOME` and `LANG` (nothing else is inherited).
    public var environment: [String: String]
    public var workingDirectory: String?
    /// Seconds to wait for any one answer (and for `initialize`).
    public var timeout: Double
    /// Seconds between closing stdin and SIGTERM, and between SIGTERM and SIGKILL, at shutdown.
    public var shutdownGrace: Double

    public init(
        _ arguments: [String], environment: [String: String] = [:], workingDirectory: String? = nil, timeout: Double = 30,
        shutdownGrace: Double = 2
    ) {
        self.arguments = arguments
        self.environment = environment
        self.workingDirectory = workingDirectory
        self.timeout = timeout
        self.shutdownGrace = shutdownGrace
    }

    /// The command as people read it (`python3 server.py`).
    public var display: String { arguments.joined(separator: " ") }
}
