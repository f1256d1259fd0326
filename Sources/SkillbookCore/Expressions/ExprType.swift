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
    /// A value of one of these types (`integer | null`, a `oneOf` of objects): two or more distinct
    /// members, none `.any` or itself a union. Build one with `alternatives(_:)`.
    case union([ExprType])

    /// The type of values `schema` accepts: `type` (a list becomes a union), `const`, `enum`,
    /// `anyOf`/`oneOf` (a union of the alternatives, within `type`), `allOf` (object fields merged),
    /// `$ref` (its target). An object with properties has exactly the declared fields; one without
    /// properties has unknown fields; a schema that says nothing about types is `.any`.
    public init(schema: Schema) {
        self = Self.of(schema, depth: 0)
    }

    private static func of(_ written: Schema, depth: Int) -> ExprType {
        guard depth < 32 else { return .any }
        let schema = written.resolved
        let f = schema.fields
        func of(_ s: Schema) -> ExprType { Self.of(s, depth: depth + 1) }
        if f.boolean != nil { return .any }
        if let constant = f.constValue { return TypeChecker.type(of: constant) }
        var base: ExprType = .any
        if let types = f.types, !types.isEmpty {
            base = alternatives(types.map { single($0, schema, depth: depth) })
        } else if let values = f.enumValues, !values.isEmpty {
            base = alternatives(values.map(TypeChecker.type(of:)))
        } else if !f.properties.isEmpty {
            base = single(.object, schema, depth: depth)
        } else if let target = f.refTarget {
            base = of(target)
        }
        if let branches = f.anyOf ?? f.oneOf {
            base = base.within(alternatives(branches.map(of)))
        }
        if let parts = f.allOf {
            base = parts.map(of).reduce(base) { $0.merged(with: $1) }
        }
        return base
    }

    private static func single(_ type: Schema.JSONType, _ schema: Schema, depth: Int) -> ExprType {
        switch type {
        case .null: return .null
        case .string: return .string
        case .integer: return .integer
        case .number: return .number
        case .boolean: return .boolean
        case .array:
            let parts = (schema.fields.prefixItems ?? []) + (schema.items.map { [$0] } ?? [])
            let types = parts.map { of($0, depth: depth + 1) }
            return .array(schema.items == nil && !parts.isEmpty ? .any : types.isEmpty ? .any : alternatives(types))
        case .object:
            return schema.properties.isEmpty
                ? .object(fields: nil)
                : .object(fields: schema.properties.map { ObjectField(name: $0.name, type: of($0.schema, depth: depth + 1)) })
        }
    }

    /// One of `types`: unions flattened, duplicates dropped, `integer` absorbed by `number`;
    /// `.any` when any member is `.any` (or for none); the type itself for one.
    public static func alternatives(_ types: [ExprType]) -> ExprType {
        var members: [ExprType] = []
        for type in types {
            for member in type.members where !members.contains(member) {
                if member == .any { return .any }
                members.append(member)
            }
        }
        if members.contains(.number) { members.removeAll { $0 == .integer } }
        switch members.count {
        case 0: return .any
        case 1: return members[0]
        default: return .union(members)
        }
    }

    /// The members of a union; the type itself otherwise.
    public var members: [ExprType] {
        if case .union(let members) = self { return members }
        return [self]
    }

    /// Whether a value of this type may be null.
    public var isNullable: Bool { members.contains(.null) }

    /// This type once null is ruled out (`integer | null` → `integer`); `.null` alone stays.
    public var withoutNull: ExprType {
        guard case .union(let members) = self else { return self }
        return Self.alternatives(members.filter { $0 != .null })
    }

    /// The alternatives of `branches` that can be of this type (`self` when none says more).
    private func within(_ branches: ExprType) -> ExprType {
        guard self != .any else { return branches }
        let kept = branches.members.compactMap { branch -> ExprType? in
            if branch == .any { return self }
            return self.members.contains { $0.admits(branch) } ? branch : nil
        }
        return kept.isEmpty ? self : Self.alternatives(kept)
    }

    /// Whether a value of `other` is also of this type (an object of known fields is an object).
    private func admits(_ other: ExprType) -> Bool {
        switch (self, other) {
        case (.object(nil), .object), (.number, .integer), (.array(.any), .array): true
        default: self == other
        }
    }

    /// The type `allOf` gives: known object fields combined; otherwise the more precise of the two.
    private func merged(with other: ExprType) -> ExprType {
        switch (self, other) {
        case (.any, _): return other
        case (_, .any): return self
        case (.object(let a?), .object(let b?)): return .object(fields: a + b.filter { f in !a.contains { $0.name == f.name } })
        case (.object(nil), .object): return other
        default: return self
        }
    }

    /// `string`, `integer`, `array of string`, `array` (of any), `object`, `integer | null`, `any`.
    public var description: String {
        switch self {
        case .any: "any"
        case .null: "null"
        case .boolean: "boolean"
        case .integer: "integer"
        case .number: "number"
        case .string: "string"
        case .array(.any): "array"
        case .array(.union(let members)): "array of (\(members.map(\.description).joined(separator: " | ")))"
        case .array(let element): "array of \(element)"
        case .object: "object"
        case .union(let members): members.map(\.description).joined(separator: " | ")
        }
    }

    /// Whether a value of this static type can be passed where `schema` is expected.
    ///
    /// `.any` and `.null` (an absent optional value) fit anywhere; an integer fits where a number is
    /// expected; array element types are checked when both are known; any object fits an object;
    /// a union fits when each of its members other than null does, and fits a union when it fits
    /// one of its members. Nothing is converted: a string does not fit an integer, nor an integer a string.
    public func isAssignable(to schema: Schema) -> Bool {
        fits(ExprType(schema: schema))
    }

    /// Whether every value of this type is a value of `expected` (null aside, as above).
    func fits(_ expected: ExprType) -> Bool {
        switch (self, expected) {
        case (_, .any), (.any, _), (.null, _): return true
        case (.union(let members), _): return members.allSatisfy { $0 == .null || $0.fits(expected) }
        case (_, .union(let members)): return members.contains { fits($0) }
        case (.integer, .number): return true
        case (.array(let element), .array(let items)): return element.fits(items)
        case (.object, .object): return true
        default: return self == expected
        }
    }

    /// The field of that name, when the fields are known.
    func field(_ name: String) -> ExprType? {
        guard case .object(let fields?) = self else { return nil }
        return fields.first { $0.name == name }?.type
    }

    var isNumeric: Bool { self == .integer || self == .number }

    /// The type of `default(a, b)`: `a` without null, or `b`. Whatever `a`'s type says, it may be
    /// null when evaluated (null fits every type: an absent optional field, `first` of an empty
    /// list or text, `min` of an empty list), so `b` is always an alternative:
    /// `default(first(''), 1)` is `string | integer`, not `string` (the `expressions` fuzzer's
    /// type-soundness oracle, issue 28). A fallback that fits `a` (`[]` for a list, `'none'` for
    /// a string) keeps `a`'s type.
    static func defaulted(_ a: ExprType, _ b: ExprType) -> ExprType {
        switch a {
        case .null: return b
        case .any: return .any
        default:
            let kept = a.withoutNull
            return b.fits(kept) ? kept : alternatives([kept, b])
        }
    }

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
