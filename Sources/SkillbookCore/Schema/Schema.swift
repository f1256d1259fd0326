/// A parameter or output schema: the JSON Schema 2020-12 keywords listed in the README
/// (docs/schemas.md), plus `secret`.
///
/// Immutable and shared; build one in Swift with the static helpers (`.string(minLength: 1)`,
/// `.object([...], required: [...])`), from `SchemaFields`, or decode one from YAML or JSON with
/// `SchemaDecoder` (which also resolves `$ref`).
public final class Schema: Sendable, Hashable {
    public enum JSONType: String, Sendable, Hashable, CaseIterable {
        case string, integer, number, boolean, array, object, null
    }

    /// Every keyword of this schema.
    public let fields: SchemaFields

    public init(fields: SchemaFields) {
        self.fields = fields
    }

    public convenience init(
        type: JSONType? = nil, description: String? = nil, defaultValue: Value? = nil, enumValues: [Value]? = nil,
        minimum: Double? = nil, maximum: Double? = nil, minLength: Int? = nil, maxLength: Int? = nil,
        pattern: String? = nil, format: String? = nil, items: Schema? = nil, minItems: Int? = nil,
        maxItems: Int? = nil, properties: [(name: String, schema: Schema)] = [], required: [String] = [],
        additionalProperties: Bool? = nil, examples: [Value] = [], secret: Bool = false
    ) {
        var fields = SchemaFields()
        fields.types = type.map { [$0] }
        fields.description = description
        fields.defaultValue = defaultValue
        fields.enumValues = enumValues
        fields.minimum = minimum
        fields.maximum = maximum
        fields.minLength = minLength
        fields.maxLength = maxLength
        fields.pattern = pattern
        fields.format = format
        fields.items = items
        fields.minItems = minItems
        fields.maxItems = maxItems
        fields.properties = properties
        fields.required = required
        fields.additionalProperties = additionalProperties
        fields.examples = examples
        fields.secret = secret
        self.init(fields: fields)
    }

    /// A copy with some keywords changed.
    public func with(_ change: (inout SchemaFields) -> Void) -> Schema {
        var copy = fields
        change(&copy)
        return Schema(fields: copy)
    }

    /// The one type besides `null` that `type` names (`integer` for `[integer, "null"]`), else `nil`.
    /// Coercion and batching use it; the validator reads `types`.
    public var type: JSONType? {
        let named = (fields.types ?? []).filter { $0 != .null }
        return named.count == 1 ? named[0] : nil
    }

    public var types: [JSONType]? { fields.types }
    public var description: String? { fields.description }
    public var defaultValue: Value? { fields.defaultValue }
    public var enumValues: [Value]? { fields.enumValues }
    public var minimum: Double? { fields.minimum }
    public var maximum: Double? { fields.maximum }
    public var minLength: Int? { fields.minLength }
    public var maxLength: Int? { fields.maxLength }
    public var pattern: String? { fields.pattern }
    public var format: String? { fields.format }
    public var items: Schema? { fields.items }
    public var minItems: Int? { fields.minItems }
    public var maxItems: Int? { fields.maxItems }
    /// Declared properties in their written order.
    public var properties: [(name: String, schema: Schema)] { fields.properties }
    public var required: [String] { fields.required }
    /// `nil` means not stated (allowed); `false` rejects undeclared properties.
    public var additionalProperties: Bool? { fields.additionalProperties }
    public var examples: [Value] { fields.examples }
    /// The value is redacted from journal, logs, events, dry-run output and model prompts.
    public var secret: Bool { fields.secret }
    /// The secret of `secrets:` that gives this value (`from:`), if any.
    public var secretFrom: String? { fields.secretFrom }
    public var secretFromLocation: SourceLocation? { fields.secretFromLocation }
    /// `access` (see `SchemaFields.access`).
    public var access: PathAccess? { fields.access }
    /// `relativeTo` (see `SchemaFields.relativeTo`).
    public var relativeTo: String? { fields.relativeTo }

    /// What a skill does at a `format: path` parameter.
    public enum PathAccess: String, Sendable, Hashable, CaseIterable {
        case read, write
    }

    /// The schema a `$ref` resolved to, followed through chains of references; `self` otherwise.
    /// Only a schema whose sole keyword is `$ref` (besides annotations) is followed.
    public var resolved: Schema {
        var schema = self
        var seen = 0
        while let target = schema.fields.refTarget, schema.isBareReference, seen < 64 {
            schema = target
            seen += 1
        }
        return schema
    }

    /// Whether `$ref` is this schema's only assertion (annotations and `description` aside).
    var isBareReference: Bool {
        fields.ref != nil && fields.keyOrder.allSatisfy { SchemaDecoder.annotationKeywords.contains($0) || $0 == "$ref" }
    }

    /// The schema of a declared property.
    public func property(_ name: String) -> Schema? {
        resolved.properties.first { $0.name == name }?.schema
    }

    /// A short type description for messages: `string`, `array of string`, `integer or null`, `any`.
    public var typeDescription: String {
        let schema = resolved
        guard let types = schema.types, !types.isEmpty else { return "any" }
        if types == [.array], let items = schema.items, items.resolved.types != nil {
            return "array of \(items.typeDescription)"
        }
        return types.map(\.rawValue).joined(separator: " or ")
    }

    public static func == (lhs: Schema, rhs: Schema) -> Bool {
        lhs === rhs || JSONSchemaExport.export(lhs) == JSONSchemaExport.export(rhs)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(types)
        hasher.combine(properties.map(\.name))
    }
}

extension Schema {
    public static let any = Schema()

    public static func string(
        _ description: String? = nil, minLength: Int? = nil, maxLength: Int? = nil, pattern: String? = nil,
        format: String? = nil, enum enumValues: [String]? = nil, default defaultValue: String? = nil,
        secret: Bool = false
    ) -> Schema {
        Schema(
            type: .string, description: description, defaultValue: defaultValue.map(Value.string),
            enumValues: enumValues?.map(Value.string), minLength: minLength, maxLength: maxLength,
            pattern: pattern, format: format, secret: secret)
    }

    public static func integer(
        _ description: String? = nil, minimum: Int? = nil, maximum: Int? = nil, default defaultValue: Int? = nil
    ) -> Schema {
        Schema(
            type: .integer, description: description, defaultValue: defaultValue.map(Value.int),
            minimum: minimum.map(Double.init), maximum: maximum.map(Double.init))
    }

    public static func number(
        _ description: String? = nil, minimum: Double? = nil, maximum: Double? = nil,
        default defaultValue: Double? = nil
    ) -> Schema {
        Schema(
            type: .number, description: description, defaultValue: defaultValue.map(Value.double),
            minimum: minimum, maximum: maximum)
    }

    public static func boolean(_ description: String? = nil, default defaultValue: Bool? = nil) -> Schema {
        Schema(type: .boolean, description: description, defaultValue: defaultValue.map(Value.bool))
    }

    public static func array(
        _ items: Schema, _ description: String? = nil, minItems: Int? = nil, maxItems: Int? = nil
    ) -> Schema {
        Schema(type: .array, description: description, items: items, minItems: minItems, maxItems: maxItems)
    }

    public static func object(
        _ properties: KeyValuePairs<String, Schema>, required: [String] = [], _ description: String? = nil,
        additionalProperties: Bool? = false
    ) -> Schema {
        Schema(
            type: .object, description: description, properties: properties.map { ($0.key, $0.value) },
            required: required, additionalProperties: additionalProperties)
    }

    /// Any value, with a description.
    public static func anyValue(_ description: String?) -> Schema {
        Schema(description: description)
    }

    /// An object whose properties are not declared.
    public static func freeObject(_ description: String? = nil) -> Schema {
        Schema(type: .object, description: description)
    }
}

extension Schema {
    /// Whether a value of this schema may hold a secret: it is marked `secret`, or its items or a
    /// property is, at any depth.
    public var containsSecret: Bool {
        containsSecret(depth: 0)
    }

    private func containsSecret(depth: Int) -> Bool {
        guard depth < 32 else { return false }
        let schema = resolved
        if schema.secret { return true }
        let parts: [Schema?] =
            [schema.items, schema.fields.additionalSchema, schema.fields.not]
            + schema.properties.map(\.schema) + schema.fields.patternProperties.map(\.schema)
            + (schema.fields.prefixItems ?? []) + (schema.fields.anyOf ?? []) + (schema.fields.oneOf ?? [])
            + (schema.fields.allOf ?? [])
        return parts.contains { $0?.containsSecret(depth: depth + 1) == true }
    }
}
