import SkillbookCore

/// The revision, capabilities and progress token a request is served under: from its `_meta`
/// (2026-07-28) or from the `initialize` handshake of the process (earlier revisions).
struct MCPRequestMeta: Sendable {
    static let versionKey = "io.modelcontextprotocol/protocolVersion"
    static let capabilitiesKey = "io.modelcontextprotocol/clientCapabilities"
    static let clientInfoKey = "io.modelcontextprotocol/clientInfo"
    static let serverInfoKey = "io.modelcontextprotocol/serverInfo"

    var version: MCPProtocolVersion
    var clientCapabilities: ValueObject
    var progressToken: Value?

    /// Whether the request carries stateless (2026-07-28) metadata: a `_meta` with a protocol version.
    static func isStateless(_ params: ValueObject) -> Bool {
        params["_meta"]?[versionKey] != nil
    }

    /// Reads per-request metadata. A missing or mistyped required field is -32602; a version
    /// this server does not serve statelessly is -32022 listing the versions it does.
    static func stateless(_ params: ValueObject) throws(JSONRPCError) -> MCPRequestMeta {
        guard let meta = params["_meta"]?.objectValue else {
            throw .invalidParams("Invalid params: '_meta' is required and must be an object")
        }
        guard let requested = meta[versionKey]?.stringValue else {
            throw .invalidParams("Invalid params: '_meta' needs '\(versionKey)' (a string)")
        }
        guard let capabilities = meta[capabilitiesKey]?.objectValue else {
            throw .invalidParams("Invalid params: '_meta' needs '\(capabilitiesKey)' (an object)")
        }
        if let info = meta[clientInfoKey], info.objectValue == nil {
            throw .invalidParams("Invalid params: '_meta' member '\(clientInfoKey)' must be an object")
        }
        guard let version = MCPProtocolVersion(requested), version.isStateless else {
            throw JSONRPCError(
                code: JSONRPCError.unsupportedProtocolVersionCode, message: "Unsupported protocol version",
                data: [
                    "supported": .array(MCPProtocolVersion.all.map { .string($0.name) }),
                    "requested": .string(requested),
                ])
        }
        return MCPRequestMeta(version: version, clientCapabilities: capabilities, progressToken: progressToken(meta))
    }

    static func progressToken(_ meta: ValueObject?) -> Value? {
        switch meta?["progressToken"] {
        case .string(let s): .string(s)
        case .int(let i): .int(i)
        default: nil
        }
    }

    /// Whether the client can answer a form elicitation: `elicitation` declared, with `form` or
    /// without any mode (a bare `elicitation: {}` means form).
    var supportsFormElicitation: Bool {
        guard version >= .v2025_06_18, let elicitation = clientCapabilities["elicitation"]?.objectValue else { return false }
        return elicitation.isEmpty || elicitation["form"] != nil || elicitation["url"] == nil
    }
}
