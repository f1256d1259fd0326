/// A field of an object type, in declared order.
public struct ObjectField: Sendable, Hashable {
    public var name: String
    public var type: ExprType

    public init(name: String, type: ExprType) {
        self.name = name
        self.type = type
    }
}

/// The static type of an expression, derived from schemas when a playbook loads.
public indirect enum ExprType: Sendable, Hashable, CustomStringConvertible {
    /// Unknown: every use is allowed.
    case any
    case null, boolean, integer, number, string
    case array(ExprType)
    /// `nil` fields: unknown, so any member access is allowed and is `.any`.
    case object(fields: [ObjectField]?)

    /// An object with properties has exactly the declared fields; one without properties has unknown
    /// fields; a schema without a type is `.any`.
    public init(schema: Schema) {
        switch schema.type {
        case nil: self = .any
        case .string: self = .string
        case .integer: self = .integer
        case .number: self = .number
        case .boolean: self = .boolean
        case .array: self = .array(schema.items.map(ExprType.init(schema:)) ?? .any)
        case .object:
            self =
                schema.properties.isEmpty
                ? .object(fields: nil)
                : .object(fields: schema.properties.map { ObjectField(name: $0.name, type: ExprType(schema: $0.schema)) })
        }
    }

    /// `string`, `integer`, `array of string`, `array` (of any), `object`, `any`.
    public var description: String {
        switch self {
        case .any: "any"
        case .null: "null"
        case .boolean: "boolean"
        case .integer: "integer"
        case .number: "number"
        case .string: "string"
        case .array(.any): "array"
        case .array(let element): "array of \(element)"
        case .object: "object"
        }
    }

    /// Whether a value of this static type can be passed where `schema` is expected.
    ///
    /// `.any` and `.null` (an absent optional value) fit anywhere; an integer fits where a number is
    /// expected; array element types are checked when both are known; any object fits an object.
    /// Nothing is converted: a string does not fit an integer, nor an integer a string.
    public func isAssignable(to schema: Schema) -> Bool {
        guard let expected = schema.type else { return true }
        switch self {
        case .any, .null: return true
        case .boolean: return expected == .boolean
        case .integer: return expected == .integer || expected == .number
        case .number: return expected == .number
        case .string: return expected == .string
        case .array(let element):
            guard expected == .array else { return false }
            guard let items = schema.items else { return true }
            return element.isAssignable(to: items)
        case .object: return expected == .object
        }
    }

    /// The field of that name, when the fields are known.
    func field(_ name: String) -> ExprType? {
        guard case .object(let fields?) = self else { return nil }
        return fields.first { $0.name == name }?.type
    }

    var isNumeric: Bool { self == .integer || self == .number }

    /// The type of a value that is of type `a` or of type `b`.
    static func union(_ a: ExprType, _ b: ExprType) -> ExprType {
        switch (a, b) {
        case _ where a == b: a
        case (.null, _): b
        case (_, .null): a
        case (.integer, .number), (.number, .integer): .number
        case (.array(let x), .array(let y)): .array(union(x, y))
        case (.object, .object): .object(fields: nil)
        default: .any
        }
    }

    /// The type of a value that is one of `types` (`.any` for none).
    static func union(of types: [ExprType]) -> ExprType {
        guard var result = types.first else { return .any }
        for type in types.dropFirst() { result = union(result, type) }
        return result
    }
}
