/// A parameter or output schema: the YAML-friendly subset of JSON Schema described in DESIGN.md.
///
/// Immutable and shared; build one in Swift with the static helpers (`.string(minLength: 1)`,
/// `.object([...], required: [...])`) or decode one from YAML with `SchemaDecoder`.
public final class Schema: Sendable, Hashable {
    public enum JSONType: String, Sendable, Hashable, CaseIterable {
        case string, integer, number, boolean, array, object
    }

    /// `nil` accepts any value.
    public let type: JSONType?
    public let description: String?
    public let defaultValue: Value?
    public let enumValues: [Value]?
    public let minimum: Double?
    public let maximum: Double?
    public let minLength: Int?
    public let maxLength: Int?
    public let pattern: String?
    public let format: String?
    public let items: Schema?
    public let minItems: Int?
    public let maxItems: Int?
    /// Declared properties in their written order.
    public let properties: [(name: String, schema: Schema)]
    public let required: [String]
    /// `nil` means not stated (allowed); `false` rejects undeclared properties.
    public let additionalProperties: Bool?
    public let examples: [Value]
    /// The value is redacted from journal, logs, events, dry-run output and model prompts.
    public let secret: Bool

    public init(
        type: JSONType? = nil, description: String? = nil, defaultValue: Value? = nil, enumValues: [Value]? = nil,
        minimum: Double? = nil, maximum: Double? = nil, minLength: Int? = nil, maxLength: Int? = nil,
        pattern: String? = nil, format: String? = nil, items: Schema? = nil, minItems: Int? = nil,
        maxItems: Int? = nil, properties: [(name: String, schema: Schema)] = [], required: [String] = [],
        additionalProperties: Bool? = nil, examples: [Value] = [], secret: Bool = false
    ) {
        self.type = type
        self.description = description
        self.defaultValue = defaultValue
        self.enumValues = enumValues
        self.minimum = minimum
        self.maximum = maximum
        self.minLength = minLength
        self.maxLength = maxLength
        self.pattern = pattern
        self.format = format
        self.items = items
        self.minItems = minItems
        self.maxItems = maxItems
        self.properties = properties
        self.required = required
        self.additionalProperties = additionalProperties
        self.examples = examples
        self.secret = secret
    }

    /// The schema of a declared property.
    public func property(_ name: String) -> Schema? {
        properties.first { $0.name == name }?.schema
    }

    /// A short type description for messages: `string`, `array of string`, `any`.
    public var typeDescription: String {
        guard let type else { return "any" }
        if type == .array, let items, items.type != nil { return "array of \(items.typeDescription)" }
        return type.rawValue
    }

    public static func == (lhs: Schema, rhs: Schema) -> Bool {
        lhs === rhs || JSONSchemaExport.export(lhs) == JSONSchemaExport.export(rhs)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(type)
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
        secret || items?.containsSecret == true || properties.contains { $0.schema.containsSecret }
    }
}
