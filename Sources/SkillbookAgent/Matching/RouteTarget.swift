import Foundation
public import SkillbookCore

/// Something a request can be routed to: a playbook (layer 1) or a single skill (layer 2), with the
/// phrases and texts it is matched by and the inputs its slots fill.
public struct RouteTarget: Sendable {
    public enum Layer: String, Sendable, Hashable {
        case playbook, skill
    }

    public var layer: Layer
    /// The playbook's name or the skill's id.
    public var name: String
    public var title: String
    /// The skill's summary or the playbook's description.
    public var summary: String
    /// Triggers or examples: phrases that may hold `{slot}` patterns.
    public var phrases: [String]
    public var tags: [String]
    /// Inputs (playbook) or parameters (skill), in declared order.
    public var inputs: [(name: String, schema: Schema)]
    /// The inputs a run must be given.
    public var required: [String]
    /// A skill that reads and gives a list (notes.list, reminders.list, files.list): a request's
    /// text that names what it lists is its output, not words to write (`Matcher.listedObject`).
    public var listsItems = false

    public init(
        layer: Layer, name: String, title: String, summary: String, phrases: [String], tags: [String] = [],
        inputs: [(name: String, schema: Schema)], required: [String]
    ) {
        self.layer = layer
        self.name = name
        self.title = title
        self.summary = summary
        self.phrases = phrases
        self.tags = tags
        self.inputs = inputs
        self.required = required
    }

    /// A skill: its examples, title, summary, tags and parameters. A parameter with a default is not required.
    public init(skill: SkillDescriptor) {
        let required = skill.parameters.required.filter { skill.parameters.property($0)?.defaultValue == nil }
        self.init(
            layer: .skill, name: skill.id, title: skill.title, summary: skill.summary, phrases: skill.examples,
            tags: skill.tags, inputs: skill.parameters.properties, required: required)
        listsItems = skill.kind == .query && skill.output.properties.contains { $0.schema.type == .array }
    }

    /// A playbook: its triggers, name and description, and inputs (those without a default are required).
    public init(playbook: Playbook) {
        self.init(
            layer: .playbook, name: playbook.name, title: playbook.name.replacingOccurrences(of: "-", with: " "),
            summary: playbook.description, phrases: playbook.triggers, tags: [],
            inputs: playbook.inputs.map { ($0.name, $0.schema) }, required: playbook.inputs.filter(\.isRequired).map(\.name))
    }

    public func schema(of input: String) -> Schema? {
        inputs.first { $0.name == input }?.schema
    }
}
