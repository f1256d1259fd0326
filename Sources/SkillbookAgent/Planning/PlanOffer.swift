public import SkillbookCore

/// A skill or playbook offered to the model: what the prompt lists and the answer schema allows.
public struct PlanOffer: Sendable {
    public enum Layer: String, Sendable, Hashable {
        case skill, playbook
    }

    public var layer: Layer
    /// The skill id or playbook name a step names.
    public var name: String
    public var summary: String
    /// `query` or `action` (playbooks count as actions).
    public var kind: SkillDescriptor.Kind
    /// An object schema of the parameters, secret ones left out (the model never sees or fills them).
    public var parameters: Schema
    /// The fields a later step may refer to, as paths: `text`, `items.*.path`.
    public var outputFields: [String]

    public init(
        layer: Layer, name: String, summary: String, kind: SkillDescriptor.Kind, parameters: Schema, outputFields: [String]
    ) {
        self.layer = layer
        self.name = name
        self.summary = summary
        self.kind = kind
        self.parameters = parameters
        self.outputFields = outputFields
    }

    public init(skill: SkillDescriptor) {
        self.init(
            layer: .skill, name: skill.id, summary: skill.summary, kind: skill.kind,
            parameters: Self.withoutSecrets(skill.parameters), outputFields: Self.paths(of: skill.output))
    }

    public init(playbook: Playbook) {
        let inputs = playbook.inputs.filter { !$0.schema.containsSecret }
        let parameters = Schema(
            type: .object, properties: inputs.map { ($0.name, $0.schema) },
            required: inputs.filter(\.isRequired).map(\.name), additionalProperties: false)
        self.init(
            layer: .playbook, name: playbook.name, summary: playbook.description, kind: .action, parameters: parameters,
            outputFields: playbook.outputs.map(\.name))
    }

    /// The parameters a step must give.
    public var required: [String] { parameters.required }

    static func withoutSecrets(_ schema: Schema) -> Schema {
        let kept = schema.properties.filter { !$0.schema.containsSecret }
        guard kept.count != schema.properties.count else { return schema }
        let names = Set(kept.map(\.name))
        return Schema(
            type: schema.type, description: schema.description, properties: kept,
            required: schema.required.filter(names.contains), additionalProperties: schema.additionalProperties)
    }

    /// Reference paths of an output schema: each field, the fields of objects in it, and for a list
    /// of objects the projection of each item field (`items.*.path`).
    static func paths(of schema: Schema, prefix: String = "", depth: Int = 0) -> [String] {
        var paths: [String] = []
        for (name, field) in schema.properties where !field.secret {
            let path = prefix + name
            paths.append(path)
            guard depth < 2 else { continue }
            if field.type == .object {
                paths += Self.paths(of: field, prefix: path + ".", depth: depth + 1)
            } else if field.type == .array, let items = field.items, items.type == .object {
                paths += Self.paths(of: items, prefix: path + ".*.", depth: depth + 1)
            }
        }
        return paths
    }
}
