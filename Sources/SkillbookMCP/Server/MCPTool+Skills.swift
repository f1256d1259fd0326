public import SkillbookCore

extension MCPTool {
    /// A skill as a tool: named by its id, `inputSchema` and `outputSchema` its schemas,
    /// annotations from its kind, confirmation and idempotence.
    public init(skill descriptor: SkillDescriptor) {
        self.init(
            name: descriptor.id, title: descriptor.title == descriptor.id ? nil : descriptor.title,
            description: descriptor.summary, inputSchema: Self.objectSchema(descriptor.parameters),
            outputSchema: Self.objectSchema(descriptor.output),
            annotations: .forSkill(
                kind: descriptor.kind, confirms: descriptor.confirm, idempotent: descriptor.idempotent))
    }

    /// A playbook as a tool: named by its name, `inputSchema` from its inputs, `outputSchema`
    /// `{status, run, outputs}` with `outputs` typed by the playbook's outputs when known.
    /// `readOnly`: every step is a query; `confirms`: some step needs confirmation.
    public static func playbook(
        name: String, description: String, inputs: Schema, outputs: Schema? = nil, readOnly: Bool, confirms: Bool,
        idempotent: Bool = false
    ) -> MCPTool {
        MCPTool(
            name: name, description: description, inputSchema: objectSchema(inputs),
            outputSchema: runOutputSchema(outputs: outputs),
            annotations: .forSkill(kind: readOnly ? .query : .action, confirms: confirms, idempotent: idempotent))
    }

    /// `{status, run, outputs}`: what a playbook tool returns as `structuredContent`; a run that
    /// waits for an approval answers `{status: waiting, run, approval, approve}` instead (no outputs yet).
    public static func runOutputSchema(outputs: Schema?) -> Value {
        let outputsSchema: Value = outputs.map(objectSchema) ?? ["type": "object"]
        return [
            "type": "object",
            "properties": [
                "status": [
                    "type": "string",
                    "enum": ["succeeded", "succeeded_with_errors", "failed", "rolled_back", "rollback_incomplete", "waiting"],
                ],
                "run": ["type": "string", "description": "The run id (skillbook runs show RUN)."],
                "outputs": outputsSchema,
                "approval": [
                    "type": "object",
                    "description": "What the run waits for: its step, skill, masked parameters, what it touches, expiry.",
                ],
                "approve": ["type": "string", "description": "The command that approves it (skillbook decline RUN declines it)."],
            ],
            "required": ["status", "run"],
            "if": ["properties": ["status": ["const": "waiting"]]],
            "then": ["required": ["approval", "approve"]],
            "else": ["required": ["outputs"]],
        ]
    }

    /// A schema exported as JSON Schema whose root is an object (MCP requires `type: object`).
    static func objectSchema(_ schema: Schema) -> Value {
        guard case .object(var object) = JSONSchemaExport.export(schema) else { return ["type": "object"] }
        if object["type"] == nil { object["type"] = "object" }
        return .object(object)
    }
}
