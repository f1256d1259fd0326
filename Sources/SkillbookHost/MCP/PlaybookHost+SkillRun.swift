import Foundation
public import SkillbookCore
import SkillbookRuntime

extension PlaybookHost {
    /// A skill called on its own (an MCP `tools/call` of a skill), prepared as a one-step
    /// playbook named by the skill whose step `call` passes `arguments` (already coerced) as
    /// they are. The run is journaled with trigger `mcp` like any other.
    public func prepareSkillRun(_ skill: String, arguments: ValueObject, onNotice: HostNoticeHandler = { _ in })
        async throws(HostError) -> PreparedRun
    {
        let registry = try await registry(onNotice)
        let file = "mcp:\(skill)"
        let here = SourceLocation(file: file, line: 1, column: 1)
        let range = SourceRange(start: here, end: here)
        let with = arguments.sorted { $0.key < $1.key }.map { key, value in
            ParameterMapping(name: key, value: MappedValue(.literal(value), range: range), keyLocation: here)
        }
        let playbook = Playbook(
            name: skill, description: "A call of \(skill).", triggers: ["mcp"],
            steps: [PlaybookStep(id: "call", skill: skill, with: with, location: here)], file: file)
        let journal = try openJournal()
        let runID = configuration.ids.next()
        let source = JSONText.encode(["skill": .string(skill), "arguments": .object(arguments)])
        return PreparedRun(
            playbook: playbook, inputs: [:], registry: registry, journal: journal, runID: runID,
            work: .run(Engine.RunOptions(dryRun: false, trigger: .mcp, source: source)), heldStatus: nil)
    }
}
