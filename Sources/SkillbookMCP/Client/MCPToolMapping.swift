public import SkillbookCore
import Foundation

/// How an MCP server's tool becomes a skill.
///
/// - id: `PREFIX.TOOL`, the tool name lowercased with every character other than a–z, 0–9 and
///   `_` replaced by `_` (`Add-Numbers` → `calc.add_numbers`); a name that still is not a
///   valid id, or that collides with an earlier tool's, is left out with a warning;
/// - parameters: the `inputSchema` (see `JSONSchemaImport` for what is tolerated);
/// - output: the `outputSchema` when given (the skill returns `structuredContent`), else
///   `{ text, content }` (the text blocks joined, and the content blocks as sent);
/// - kind: `readOnlyHint: true` → query; otherwise an action that confirms unless
///   `destructiveHint: false` (the spec's default is destructive); idempotent from
///   `idempotentHint` (queries always are).
public enum MCPToolMapping {
    /// `{ text, content }`: the output of a tool without `outputSchema`.
    public static let unstructuredOutput = Schema.object(
        [
            "text": .string("The text the tool returned."),
            "content": .array(.freeObject("A content block as the server sent it."), "Every content block."),
        ], required: ["text", "content"])

    public static func skillID(prefix: String, tool: String) -> String {
        let name = String(tool.lowercased().unicodeScalars.map { scalar -> Character in
            let c = Character(scalar)
            return c.isASCII && (c.isLowercase || c.isNumber || c == "_") ? c : "_"
        })
        return "\(prefix).\(name)"
    }

    /// The descriptors of a server's tools, in the server's order, and every warning.
    public static func descriptors(for tools: [MCPTool], prefix: String, timeout: Double) -> (
        descriptors: [SkillDescriptor], warnings: [String]
    ) {
        var descriptors: [SkillDescriptor] = []
        var warnings: [String] = []
        var seen: [String: String] = [:]
        for tool in tools {
            let id = skillID(prefix: prefix, tool: tool.name)
            guard SkillDescriptor.isValidID(id) else {
                warnings.append("tool '\(tool.name)' maps to '\(id)', which is not a valid skill id; it is left out")
                continue
            }
            if let earlier = seen[id] {
                warnings.append("tools '\(earlier)' and '\(tool.name)' both map to '\(id)'; '\(tool.name)' is left out")
                continue
            }
            seen[id] = tool.name
            let (descriptor, notes) = descriptor(for: tool, id: id, timeout: timeout)
            descriptors.append(descriptor)
            warnings += notes.map { "\(id): \($0)" }
        }
        return (descriptors, warnings)
    }

    static func descriptor(for tool: MCPTool, id: String, timeout: Double) -> (SkillDescriptor, [String]) {
        var warnings: [String] = []
        let input = JSONSchemaImport.read(tool.inputSchema, path: "inputSchema")
        warnings += input.warnings
        var parameters = input.schema
        if parameters.type != .object {
            warnings.append("inputSchema: the root is not 'type: object'; read as an object")
            parameters = Schema(type: .object, description: parameters.description)
        }
        var output = unstructuredOutput
        if let schema = tool.outputSchema {
            let read = JSONSchemaImport.read(schema, path: "outputSchema")
            warnings += read.warnings
            output = read.schema
        }
        let hints = tool.annotations
        let readOnly = hints.readOnlyHint == true
        let title = hints.title ?? tool.title ?? tool.name
        let descriptor = SkillDescriptor(
            id: id, title: title, summary: tool.description.isEmpty ? "The tool '\(tool.name)' of an MCP server." : tool.description,
            examples: examples(name: tool.name, title: title, description: tool.description, parameters: parameters),
            tags: ["mcp"], kind: readOnly ? .query : .action, confirm: !readOnly && hints.destructiveHint != false,
            parameters: parameters, output: output, timeout: timeout, idempotent: readOnly || hints.idempotentHint == true)
        return (descriptor, warnings)
    }

    /// Phrases the agent's matcher routes by, since a tool has no examples: its name as words
    /// (`get_forecast` → `get forecast`), its title and the first sentence of its description, and,
    /// when it needs exactly one parameter, the name and title followed by that `{slot}`.
    static func examples(name: String, title: String, description: String, parameters: Schema) -> [String] {
        let words = name.map { "_-.".contains($0) ? " " : $0 }.reduce(into: "") { $0.append($1) }
            .split(separator: " ").joined(separator: " ").lowercased()
        var phrases = [words, title.lowercased()]
        let sentence = description.split(whereSeparator: { $0 == "\n" }).first.map(String.init) ?? ""
        let first = (sentence.range(of: ". ").map { String(sentence[..<$0.lowerBound]) } ?? sentence)
            .trimmingCharacters(in: CharacterSet(charactersIn: ". "))
        if !first.isEmpty, first.count <= 100 { phrases.append(first.lowercased()) }
        if parameters.required.count == 1, let slot = parameters.required.first {
            phrases += [words, title.lowercased()].map { "\($0) {\(slot)}" }
        }
        var seen: Set<String> = []
        return phrases.filter { !$0.isEmpty && seen.insert($0).inserted }
    }
}
