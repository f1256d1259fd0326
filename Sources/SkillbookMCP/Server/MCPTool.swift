public import SkillbookCore

/// The behaviour hints of a tool (MCP `ToolAnnotations`). All are hints for the client; `nil`
/// leaves a hint out of `tools/list` (the spec's defaults then apply: not read-only,
/// destructive, not idempotent, open world).
public struct MCPToolAnnotations: Sendable, Hashable {
    public var title: String?
    public var readOnlyHint: Bool?
    public var destructiveHint: Bool?
    public var idempotentHint: Bool?
    public var openWorldHint: Bool?

    public init(
        title: String? = nil, readOnlyHint: Bool? = nil, destructiveHint: Bool? = nil, idempotentHint: Bool? = nil,
        openWorldHint: Bool? = nil
    ) {
        self.title = title
        self.readOnlyHint = readOnlyHint
        self.destructiveHint = destructiveHint
        self.idempotentHint = idempotentHint
        self.openWorldHint = openWorldHint
    }

    /// The hints of a skill: a query is read-only (and idempotent); an action is destructive when
    /// it confirms, and idempotent when it says so.
    public static func forSkill(kind: SkillDescriptor.Kind, confirms: Bool, idempotent: Bool, title: String? = nil)
        -> MCPToolAnnotations
    {
        switch kind {
        case .query:
            MCPToolAnnotations(title: title, readOnlyHint: true, idempotentHint: true)
        case .action:
            MCPToolAnnotations(title: title, readOnlyHint: false, destructiveHint: confirms, idempotentHint: idempotent)
        }
    }

    public var value: Value {
        var object = ValueObject()
        if let title { object["title"] = .string(title) }
        if let readOnlyHint { object["readOnlyHint"] = .bool(readOnlyHint) }
        if let destructiveHint { object["destructiveHint"] = .bool(destructiveHint) }
        if let idempotentHint { object["idempotentHint"] = .bool(idempotentHint) }
        if let openWorldHint { object["openWorldHint"] = .bool(openWorldHint) }
        return .object(object)
    }

    /// The hints a `tools/list` entry carries (members of the wrong type are ignored).
    public init(_ value: Value?) {
        let object = value?.objectValue ?? [:]
        self.init(
            title: object["title"]?.stringValue, readOnlyHint: object["readOnlyHint"]?.boolValue,
            destructiveHint: object["destructiveHint"]?.boolValue, idempotentHint: object["idempotentHint"]?.boolValue,
            openWorldHint: object["openWorldHint"]?.boolValue)
    }
}

/// One tool as `tools/list` shows it.
public struct MCPTool: Sendable, Hashable {
    /// Unique within the server; clients call the tool by it.
    public var name: String
    public var title: String?
    public var description: String
    /// A JSON Schema object whose root has `type: object`.
    public var inputSchema: Value
    /// The schema `structuredContent` conforms to, when the tool returns structured output.
    public var outputSchema: Value?
    public var annotations: MCPToolAnnotations

    public init(
        name: String, title: String? = nil, description: String, inputSchema: Value, outputSchema: Value? = nil,
        annotations: MCPToolAnnotations = MCPToolAnnotations()
    ) {
        self.name = name
        self.title = title
        self.description = description
        self.inputSchema = inputSchema
        self.outputSchema = outputSchema
        self.annotations = annotations
    }

    /// The `tools/list` entry for a protocol revision: `outputSchema` only from 2025-06-18 on,
    /// `title` only from 2025-06-18 on.
    func value(for version: MCPProtocolVersion) -> Value {
        var object: ValueObject = ["name": .string(name)]
        if let title, version >= .v2025_06_18 { object["title"] = .string(title) }
        object["description"] = .string(description)
        object["inputSchema"] = inputSchema
        if let outputSchema, version >= .v2025_06_18 { object["outputSchema"] = outputSchema }
        if case .object(let hints) = annotations.value, !hints.isEmpty { object["annotations"] = .object(hints) }
        return .object(object)
    }
}
