import Foundation
public import SkillbookCore
public import SkillbookMCP

/// Serves skills as MCP tools by calling them directly — no engine, no journal. A test double
/// for the server's protocol and interoperability tests (the host serves through its engine).
///
/// Arguments are coerced with Core's `Coercion` and checked with `SchemaValidator`; top-level
/// defaults are filled in. A cancelled call reports `rolled_back` (and the `events` hook hears it).
public struct SkillToolbox: MCPToolCatalog, MCPToolRunner {
    public let skills: [any Skill]
    /// Hears what happens (`ran demo.echo`, `cancelled demo.count at 3`), for tests to observe.
    public let events: @Sendable (String) -> Void

    public init(skills: [any Skill], events: @escaping @Sendable (String) -> Void = { _ in }) {
        self.skills = skills
        self.events = events
    }

    public func tools() async throws -> [MCPTool] {
        skills.map(\.descriptor).sorted { $0.id < $1.id }.map(MCPTool.init(skill:))
    }

    private func skill(_ name: String) -> (any Skill)? {
        skills.first { $0.descriptor.id == name }
    }

    public func prepare(tool: String, arguments: ValueObject) async -> MCPPreparation {
        guard let skill = skill(tool) else { return .unknownTool }
        let descriptor = skill.descriptor
        let coercion = Coercion(dates: DateParser(now: Date(), timeZone: .current))
        guard case .object(var coerced) = coercion.coerce(.object(arguments), to: descriptor.parameters) else {
            return .invalidArguments(["arguments must be an object"])
        }
        for (name, schema) in descriptor.parameters.properties where coerced[name] == nil {
            if let value = schema.defaultValue { coerced[name] = value }
        }
        let violations = SchemaValidator.validate(.object(coerced), against: descriptor.parameters)
        guard violations.isEmpty else {
            return .invalidArguments(violations.map { $0.path.isEmpty ? Self.rootProblem($0.predicate) : $0.description })
        }
        let summary = descriptor.confirm ? Self.summary(tool, coerced) : nil
        return .ready(MCPPreparedCall(tool: tool, arguments: coerced, confirmation: summary))
    }

    /// `missing required property 'text'` rather than `value is missing …`.
    static func rootProblem(_ predicate: String) -> String {
        for prefix in ["is ", "has "] where predicate.hasPrefix(prefix) { return String(predicate.dropFirst(prefix.count)) }
        return predicate
    }

    /// `Run demo.add_note with title: "Buy milk"`.
    static func summary(_ tool: String, _ arguments: ValueObject) -> String {
        let shown = arguments.map { "\($0.key): \(JSONText.encode($0.value))" }.joined(separator: ", ")
        return "Run \(tool)" + (shown.isEmpty ? "" : " with \(shown)")
    }

    public func run(_ call: MCPPreparedCall, context: MCPCallContext) async -> MCPToolResult {
        guard let skill = skill(call.tool) else { return .failure("unknown tool '\(call.tool)'") }
        // Nothing here journals a run that could wait for an approval: nobody to ask is a refusal.
        if call.confirmation != nil, !context.approved, context.waitsForApproval {
            return .failure("'\(call.tool)' \(MCPServer.needsYes)")
        }
        if let summary = call.confirmation, !context.approved, !(await context.confirm(summary)) {
            return .failure("'\(call.tool)' was not approved; nothing ran")
        }
        let skillContext = SkillContext(
            runID: "mcp-test", stepID: call.tool,
            progress: { done, total in
                context.progress(MCPProgress(progress: Double(done), total: Double(total), message: "\(done) of \(total)"))
            })
        do {
            let output = try await skill.run(call.arguments, context: skillContext)
            events("ran \(call.tool)")
            return .success(output)
        } catch is CancellationError {
            events("cancelled \(call.tool)")
            return .failure(
                "'\(call.tool)' was cancelled and rolled back", structured: ["status": "rolled_back", "error": "cancelled"])
        } catch {
            events("failed \(call.tool)")
            return .failure("'\(call.tool)' failed: \(error)", structured: ["status": "failed", "error": .string("\(error)")])
        }
    }
}
