public import SkillbookCore

/// The tools a server offers. The host implements it over the workspace's playbooks and skills.
///
/// A conformer must return the same tools in the same order on every call while the workspace
/// is unchanged (clients cache and diff the list), with unique names.
public protocol MCPToolCatalog: Sendable {
    func tools() async throws -> [MCPTool]
}

/// Checks and runs tool calls. The host implements it on its engine.
///
/// A conformer must:
/// - in `prepare`, coerce and validate the arguments exactly like `-i` values, reporting every
///   problem, and run nothing;
/// - in `run`, honour task cancellation (the client cancelled, or the server is shutting down):
///   roll back what ran and return the rolled-back result;
/// - report progress through `context.progress` (step and batch progress), never blocking;
/// - never run a step that needs confirmation unless `context.approved` is true or
///   `context.confirm` answered true for it.
public protocol MCPToolRunner: Sendable {
    func prepare(tool: String, arguments: ValueObject) async -> MCPPreparation
    func run(_ call: MCPPreparedCall, context: MCPCallContext) async -> MCPToolResult
}

/// What `prepare` found.
public enum MCPPreparation: Sendable {
    /// No tool has this name: the server answers JSON-RPC error -32602.
    case unknownTool
    /// The arguments break the tool's schema: every problem as one line (`count: expects integer, got string`).
    case invalidArguments([String])
    case ready(MCPPreparedCall)
}

/// A checked call, ready to run.
public struct MCPPreparedCall: Sendable, Hashable {
    public var tool: String
    /// The arguments after coercion (defaults applied as the runner does for `-i` values).
    public var arguments: ValueObject
    /// What the person must approve before it runs — the same summary the terminal prompt shows,
    /// secrets masked; `nil` when nothing in it needs confirmation.
    public var confirmation: String?

    public init(tool: String, arguments: ValueObject, confirmation: String? = nil) {
        self.tool = tool
        self.arguments = arguments
        self.confirmation = confirmation
    }
}

/// How a running call reaches back to the client.
public struct MCPCallContext: Sendable {
    /// The person approved `MCPPreparedCall.confirmation` (or the server was started with `--yes`).
    public var approved: Bool
    /// Sends `notifications/progress` when the client asked for progress; otherwise does nothing.
    public var progress: @Sendable (MCPProgress) -> Void
    /// Asks the person to approve a further summary; `false` when they decline or cannot be asked.
    public var confirm: @Sendable (String) async -> Bool
    /// Nobody can be asked (the client cannot elicit, the server was not started with `--yes`): a
    /// runner that journals runs lets a call that needs confirmation wait for an approval
    /// (`skillbook approve`) and answers that it waits; one that cannot refuses it.
    public var waitsForApproval = false

    public init(
        approved: Bool, progress: @escaping @Sendable (MCPProgress) -> Void = { _ in },
        confirm: @escaping @Sendable (String) async -> Bool = { _ in false }
    ) {
        self.approved = approved
        self.progress = progress
        self.confirm = confirm
    }
}

/// One progress report: `progress` grows with every report; `total` when known.
public struct MCPProgress: Sendable, Hashable {
    public var progress: Double
    public var total: Double?
    public var message: String?

    public init(progress: Double, total: Double? = nil, message: String? = nil) {
        self.progress = progress
        self.total = total
        self.message = message
    }
}

/// What a call returned: `structuredContent` (the object the tool's `outputSchema` declares) and
/// its JSON as text, or a failure (`isError`) with the status and the error as text.
public struct MCPToolResult: Sendable, Hashable {
    public var structuredContent: Value?
    public var text: String
    public var isError: Bool

    public init(structuredContent: Value?, text: String, isError: Bool) {
        self.structuredContent = structuredContent
        self.text = text
        self.isError = isError
    }

    /// A success: `structured` and, as text, the same JSON.
    public static func success(_ structured: Value) -> MCPToolResult {
        MCPToolResult(structuredContent: structured, text: JSONText.encode(structured), isError: false)
    }

    /// A failure with a message; `structured` (such as `{status, run, error}`) when there is one.
    public static func failure(_ message: String, structured: Value? = nil) -> MCPToolResult {
        MCPToolResult(structuredContent: structured, text: message, isError: true)
    }

    /// The `tools/call` result for a revision (`structuredContent` only from 2025-06-18 on).
    func value(for version: MCPProtocolVersion) -> ValueObject {
        var object: ValueObject = ["content": [["type": "text", "text": .string(text)]]]
        if let structuredContent, version >= .v2025_06_18 { object["structuredContent"] = structuredContent }
        object["isError"] = .bool(isError)
        return object
    }
}
