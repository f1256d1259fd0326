/// The keywords of one schema, as a plain value: what `Schema` stores, and what `Schema.with(_:)`
/// changes to derive a schema from another.
///
/// Every keyword is optional; an empty `SchemaFields` accepts any value. Lists of named parts
/// (`properties`, `patternProperties`, `$defs`, `dependentRequired`) keep their written order.
public struct SchemaFields: Sendable {
    /// A boolean schema: `true` accepts every value, `false` none. `nil` for a mapping.
    public var boolean: Bool?
    /// `type`, as written: one name, or a list (`[integer, "null"]`) when `typeIsList`.
    public var types: [Schema.JSONType]?
    public var typeIsList = false
    public var description: String?
    public var defaultValue: Value?
    public var enumValues: [Value]?
    /// `const`; `.some(.null)` is `const: null`.
    public var constValue: Value?
    public var minimum: Double?
    public var maximum: Double?
    /// Counted in Unicode code points, as JSON Schema specifies.
    public var minLength: Int?
    public var maxLength: Int?
    public var pattern: String?
    public var format: String?
    /// Applies to the items after `prefixItems` (to every item without it).
    public var items: Schema?
    public var prefixItems: [Schema]?
    public var minItems: Int?
    public var maxItems: Int?
    public var properties: [(name: String, schema: Schema)] = []
    public var patternProperties: [(pattern: String, schema: Schema)] = []
    public var required: [String] = []
    /// `additionalProperties: true|false`; `nil` means not stated (allowed).
    public var additionalProperties: Bool?
    /// `additionalProperties` written as a schema (a mapping).
    public var additionalSchema: Schema?
    public var propertyNames: Schema?
    /// `dependentRequired`: when the property is present, these must be too.
    public var dependentRequired: [(name: String, required: [String])] = []
    public var allOf: [Schema]?
    public var anyOf: [Schema]?
    public var oneOf: [Schema]?
    public var not: Schema?
    /// `$defs`, in written order.
    public var defs: [(name: String, schema: Schema)] = []
    /// `$ref` as written (a local JSON pointer such as `#/$defs/address`) and what it resolved to
    /// when the schema was loaded.
    public var ref: String?
    public var refTarget: Schema?
    /// `$schema`, `$id`, `$comment`, `title`, `deprecated`, `readOnly`, `writeOnly`: kept for export only.
    public var annotations: [(name: String, value: Value)] = []
    public var examples: [Value] = []
    /// The value is redacted from journal, logs, events, dry-run output and model prompts.
    public var secret = false
    /// `from`: the name of the secret (of `secrets:`) whose provider gives this input's value.
    public var secretFrom: String?
    /// Where `from` was written, for diagnostics.
    public var secretFromLocation: SourceLocation?
    /// `access` of a `format: path` string (or of an array of them): whether a skill reads or writes
    /// there. Skillbook's path guard checks it for manifest and MCP skills.
    public var access: Schema.PathAccess?
    /// `relativeTo`: the sibling property (a `format: path` string) that a relative path is taken
    /// relative to, instead of the skill's working folder.
    public var relativeTo: String?
    /// The keywords in the order they were written, so an export keeps it.
    public var keyOrder: [String] = []

    public init() {}
}
