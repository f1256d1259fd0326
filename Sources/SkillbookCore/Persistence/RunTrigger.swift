/// What started a run, as the journal records it and `runs --trigger` filters it.
///
/// A value with known constants rather than a closed enum: a journal may hold a trigger written by
/// a newer skillbook, which an older one still lists as it is.
public struct RunTrigger: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible, ExpressibleByStringLiteral {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { rawValue = value }

    public var description: String { rawValue }

    /// `skillbook run`, `resume`, `rollback` and their library equivalents.
    public static let cli: RunTrigger = "cli"
    /// `skillbook call`: one skill as a one-step run.
    public static let call: RunTrigger = "call"
    /// A schedule's fire (the daemon, `schedule tick`, `serve --schedules`).
    public static let schedule: RunTrigger = "schedule"
    /// A tool call of the MCP server.
    public static let mcp: RunTrigger = "mcp"
    /// `skillbook ask`.
    public static let ask: RunTrigger = "ask"
    /// `skillbook chat` and the console's chat.
    public static let chat: RunTrigger = "chat"
    /// An action of the web console.
    public static let console: RunTrigger = "console"
    /// A notification about another run.
    public static let notify: RunTrigger = "notify"

    /// The triggers this version starts runs with.
    public static let known: [RunTrigger] = [.cli, .call, .schedule, .mcp, .ask, .chat, .console, .notify]
}
