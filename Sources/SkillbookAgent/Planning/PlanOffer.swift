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
    /// The secret address parameter left out of `parameters` (notify.send's `webhook`): given back,
    /// fixed to the address a clause names, by `fixingAddress`.
    var secretAddress: (name: String, schema: Schema)?

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
        let addresses = skill.parameters.properties.filter { $0.schema.secret && $0.schema.format == "uri" }
        if addresses.count == 1, let only = addresses.first { secretAddress = (only.name, only.schema) }
    }

    /// The offer with its secret address parameter (`secretAddress`) required and fixed to
    /// `address`, the one web address its clause names ("notify the ops webhook
    /// http://127.0.0.1:8080/hooks/ops"): the planner fills it in (`FixedValues`), the model never
    /// writes it — it is not shown one it could fill, and had dropped the webhook the request named.
    func fixingAddress(_ address: String?) -> PlanOffer {
        guard let address, let (name, schema) = secretAddress, parameters.property(name) == nil,
            address.lowercased().hasPrefix("http://") || address.lowercased().hasPrefix("https://")
        else { return self }
        var fields = parameters.fields
        var fixed = schema.fields
        fixed.enumValues = [.string(address)]
        fields.properties.append((name, Schema(fields: fixed)))
        fields.required.append(name)
        var offer = self
        offer.parameters = Schema(fields: fields)
        return offer
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

    /// The offer for one request: an optional parameter is left out unless the request names it
    /// (its first six letters, case and a plural `s` aside) when it is a number, integer or boolean with a default
    /// (`timeout`, `max_links`, `recursive`), a plain text with a non-empty default (`separator`;
    /// not a note's `body`, whose default is empty and which is where an earlier step's text goes),
    /// one of a set of values with a default (`mode`, `order`; kept when the request names another
    /// of its values, such as `append`), a list with a default (`tags`), or an object or a list of
    /// objects (`headers`, `copies`).
    /// An adapter's optional texts (text.join's `prefix`, `suffix`) likewise: it turns a list into
    /// a text between two steps, and a model that is shown them adds a line break after each item.
    /// A word that names the skill's own action (`move` of `files.move`) names the skill, not a
    /// parameter: "move them into X" does not ask for `moves`, a list of `{ from, to }` the request
    /// names no value of, which a small model then fills beside `paths` (and the checker refuses).
    /// A small model fills every parameter it is shown, each costing tokens written at a few a
    /// second; those it would fill are rarely what the request asks.
    public func trimmed(for request: String) -> PlanOffer {
        let folded = request.lowercased()
        var words = Set(folded.split { !$0.isLetter && !$0.isNumber }.map(String.init))
        // A Chinese request names a parameter or a value in Chinese: "追加到 …" is mode append.
        for (chinese, english) in Self.chineseWords where request.contains(chinese) { words.insert(english) }
        let action = name.split(separator: ".").last.map { $0.lowercased() } ?? ""
        let kept = parameters.properties.filter { name, schema in
            guard !required.contains(name), Self.isTrimmable(schema) || isAdapter && schema.type == .string else { return true }
            var stem = String(name.lowercased().prefix { $0 != "_" }.prefix(6))
            if stem.count > 3, stem.hasSuffix("s") { stem.removeLast() }  // tags: "tagged"
            let values = (schema.enumValues ?? []).compactMap(\.stringValue).filter {
                .string($0) != schema.defaultValue
            }
            let namesAction = layer == .skill && action.count > 2 && (action.hasPrefix(stem) || stem.hasPrefix(action))
            return !namesAction && (folded.contains(stem) || words.contains { $0.hasPrefix(stem) })
                || values.contains { words.contains($0.lowercased()) }
        }
        guard kept.count != parameters.properties.count else { return self }
        var offer = self
        offer.parameters = Schema(
            type: parameters.type, description: parameters.description, properties: kept, required: parameters.required,
            additionalProperties: parameters.additionalProperties)
        return offer
    }

    /// The offer with only its output fields that are lists of texts or numbers (`items.*.title`),
    /// what an adapter such as text.join joins.
    var keepingScalarLists: PlanOffer {
        var offer = self
        offer.outputFields = outputFields.filter { field in
            guard case .array(let element) = type(of: field) else { return false }
            return element == .string || element == .integer || element == .number
        }
        return offer
    }

    /// The offer with the dates the matcher captured from its clause fixed: a captured date or
    /// date-time parameter allows only that value (`tomorrow at 9am` is 2026-12-02T09:00:00+01:00,
    /// not the current time of day tomorrow), and its other optional date parameters are left out
    /// (a request's "tomorrow" is one date, not also a `due_before`); a fixed one is required.
    func fixingDates(_ captured: ValueObject) -> PlanOffer {
        func isDate(_ schema: Schema) -> Bool {
            schema.format == "date" || schema.format == "date-time"
        }
        guard parameters.properties.contains(where: { isDate($0.schema) && captured[$0.name]?.stringValue != nil }) else {
            return self
        }
        let properties = parameters.properties.compactMap { name, schema -> (String, Schema)? in
            guard isDate(schema) else { return (name, schema) }
            if let value = captured[name], value.stringValue != nil {
                return (
                    name,
                    Schema(
                        type: .string, description: schema.description, enumValues: [value],
                        format: schema.format)
                )
            }
            return required.contains(name) ? (name, schema) : nil
        }
        // The clause names the date: a step must give it (a repair otherwise drops a reminder's `due`).
        let fixed = properties.map(\.0).filter { !required.contains($0) && captured[$0]?.stringValue != nil }
        var offer = self
        offer.parameters = Schema(
            type: parameters.type, description: parameters.description, properties: properties,
            required: parameters.required + fixed,
            additionalProperties: parameters.additionalProperties)
        return offer
    }

    /// Chinese words for parameter names and values `trimmed(for:)` keeps a parameter by.
    static let chineseWords: [(String, String)] = [
        ("追加", "append"), ("覆盖", "overwrite"), ("覆写", "overwrite"), ("最新", "newest"), ("最旧", "oldest"),
        ("最早", "oldest"), ("标签", "tag"), ("递归", "recursive"), ("隐藏", "include"), ("超时", "timeout"),
        ("请求头", "header"),
    ]

    /// Whether an optional parameter of this schema is one `trimmed(for:)` may leave out.
    static func isTrimmable(_ schema: Schema) -> Bool {
        if schema.type == .object { return true }
        if schema.type == .array, schema.items?.type == .object { return true }
        guard let value = schema.defaultValue else { return false }
        switch schema.type {
        case .integer, .number, .boolean, .array: return true
        case .string: return schema.enumValues != nil || schema.format == nil && value != ""
        default: return false
        }
    }

    /// The parameters without the secret ones (never shown to a model) and without those that go
    /// only with a secret (`dependentRequired`: mail.send's `username` needs `password`, `auth`
    /// needs `username`), which a plan could then never give: a small model filled them with
    /// whatever was at hand (an earlier step's title).
    static func withoutSecrets(_ schema: Schema) -> Schema {
        let secrets = Set(schema.properties.filter { $0.schema.containsSecret }.map(\.name))
        let removed = secrets.union(dependingOn(secrets, in: schema).keys)
        let kept = schema.properties.filter { !removed.contains($0.name) }
        guard kept.count != schema.properties.count else { return schema }
        let names = Set(kept.map(\.name))
        var fields = SchemaFields()
        fields.types = schema.fields.types
        fields.description = schema.description
        fields.properties = kept
        fields.required = schema.required.filter(names.contains)
        fields.additionalProperties = schema.fields.additionalProperties
        // (what the offer withholds stays written down, for the lint that leaves it out of a plan)
        fields.dependentRequired = schema.resolved.fields.dependentRequired.filter { names.contains($0.name) || !secrets.contains($0.name) }
        return Schema(fields: fields)
    }

    /// The parameters of an offer's `schema` that go only with one it withholds (a secret),
    /// each with the one it needs: `username` → `password`, `auth` → `username`.
    static func withheldBySecrets(_ schema: Schema) -> [(name: String, needed: String)] {
        let shown = Set(schema.properties.map(\.name))
        return schema.fields.dependentRequired.compactMap { name, needed in
            guard !shown.contains(name), let missing = needed.first(where: { !shown.contains($0) }) else { return nil }
            return (name, missing)
        }
    }

    /// Each property of `schema` that `dependentRequired` ties, directly or through another, to one
    /// of `names`, with the first such name it needs.
    private static func dependingOn(_ names: Set<String>, in schema: Schema) -> [String: String] {
        var found: [String: String] = [:]
        var grew = !names.isEmpty
        while grew {
            grew = false
            for (name, needed) in schema.resolved.fields.dependentRequired where !names.contains(name) && found[name] == nil {
                if let missing = needed.first(where: { names.contains($0) || found[$0] != nil }) {
                    found[name] = missing
                    grew = true
                }
            }
        }
        return found
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
