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
    /// The static type of each output field (`items.*.path` is an array of the item field's type);
    /// a field left out is of unknown type (`.any`). The answer schema lets a parameter refer only
    /// to the fields whose type it accepts.
    public var outputTypes: [String: ExprType]

    public init(
        layer: Layer, name: String, summary: String, kind: SkillDescriptor.Kind, parameters: Schema, outputFields: [String],
        outputTypes: [String: ExprType] = [:]
    ) {
        self.layer = layer
        self.name = name
        self.summary = summary
        self.kind = kind
        self.parameters = parameters
        self.outputFields = outputFields
        self.outputTypes = outputTypes
    }

    public init(skill: SkillDescriptor) {
        let fields = Self.typedPaths(of: skill.output)
        self.init(
            layer: .skill, name: skill.id, summary: skill.summary, kind: skill.kind,
            parameters: Self.withoutSecrets(skill.parameters), outputFields: fields.map(\.path),
            outputTypes: Dictionary(fields.map { ($0.path, $0.type) }, uniquingKeysWith: { a, _ in a }))
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

    /// The type of output field `path` (`.any` when unknown).
    public func type(of path: String) -> ExprType { outputTypes[path] ?? .any }

    /// The parameters a step must give.
    public var required: [String] { parameters.required }

    /// The offer for one request: an optional number, integer, boolean or plain text parameter with
    /// a default (`timeout`, `max_links`, `recursive`, `separator`; not one with a format or a set of
    /// values) is left out unless the request names it (its first six letters, case aside). A small model fills every parameter it is shown, each costing tokens
    /// written at a few a second; those it would fill are rarely what the request asks.
    public func trimmed(for request: String) -> PlanOffer {
        let folded = request.lowercased()
        let kept = parameters.properties.filter { name, schema in
            guard !required.contains(name), schema.defaultValue != nil,
                schema.type == .integer || schema.type == .number || schema.type == .boolean
                    || schema.type == .string && schema.format == nil && schema.enumValues == nil
            else { return true }
            let stem = name.lowercased().prefix { $0 != "_" }.prefix(6)
            return folded.contains(stem)
        }
        guard kept.count != parameters.properties.count else { return self }
        var offer = self
        offer.parameters = Schema(
            type: parameters.type, description: parameters.description, properties: kept, required: parameters.required,
            additionalProperties: parameters.additionalProperties)
        return offer
    }

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
    static func paths(of schema: Schema) -> [String] {
        typedPaths(of: schema).map(\.path)
    }

    /// `paths(of:)` with each path's type: a field's own type, and under `list.*.` an array of the
    /// item field's type.
    static func typedPaths(of schema: Schema, prefix: String = "", depth: Int = 0, projected: Bool = false)
        -> [(path: String, type: ExprType)]
    {
        var paths: [(path: String, type: ExprType)] = []
        for (name, field) in schema.properties where !field.secret {
            let path = prefix + name
            let type = ExprType(schema: field)
            paths.append((path, projected ? .array(type) : type))
            guard depth < 2 else { continue }
            if field.type == .object {
                paths += typedPaths(of: field, prefix: path + ".", depth: depth + 1, projected: projected)
            } else if field.type == .array, let items = field.items, items.type == .object {
                paths += typedPaths(of: items, prefix: path + ".*.", depth: depth + 1, projected: true)
            }
        }
        return paths
    }
}
