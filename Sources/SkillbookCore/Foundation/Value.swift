/// A JSON-like value: parameters, outputs, inputs and expression results.
///
/// Objects keep the order their keys were inserted in, so output reads the way it was written.
public enum Value: Sendable, Hashable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([Value])
    case object(ValueObject)

    /// The JSON-Schema name of this value's type (`integer`, `number`, `string`, …).
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .int: "integer"
        case .double: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    public var intValue: Int? {
        switch self {
        case .int(let i): return i
        case .double(let d) where d.rounded() == d && abs(d) < 9.0e15: return Int(d)
        default: return nil
        }
    }

    public var doubleValue: Double? {
        switch self {
        case .int(let i): Double(i)
        case .double(let d): d
        default: nil
        }
    }

    public var boolValue: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    public var arrayValue: [Value]? {
        if case .array(let a) = self { return a }
        return nil
    }

    public var objectValue: ValueObject? {
        if case .object(let o) = self { return o }
        return nil
    }

    public var isNull: Bool { self == .null }

    /// Member lookup on an object; `nil` for other values and missing keys.
    public subscript(key: String) -> Value? {
        objectValue?[key]
    }

    /// Truthiness for `when:` conditions: false, null, 0, "" and empty collections are false.
    public var isTruthy: Bool {
        switch self {
        case .null: false
        case .bool(let b): b
        case .int(let i): i != 0
        case .double(let d): d != 0 && !d.isNaN
        case .string(let s): !s.isEmpty
        case .array(let a): !a.isEmpty
        case .object(let o): !o.isEmpty
        }
    }

    /// Text for interpolation into a longer string: scalars as written, collections as JSON.
    public var interpolatedText: String {
        switch self {
        case .null: ""
        case .bool(let b): b ? "true" : "false"
        case .int(let i): String(i)
        case .double(let d): JSONText.number(d)
        case .string(let s): s
        case .array, .object: JSONText.encode(self)
        }
    }
}

extension Value: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByFloatLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral,
    ExpressibleByNilLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .int(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(arrayLiteral elements: Value...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, Value)...) {
        self = .object(ValueObject(elements))
    }
    public init(nilLiteral: ()) { self = .null }
}

/// An object whose keys keep their insertion order. Members are kept in two arrays in that order
/// (walking them hashes nothing) with an index from key to position.
public struct ValueObject: Sendable, Hashable, Sequence {
    public private(set) var keys: [String] = []
    private var values: [Value] = []
    private var positions: [String: Int] = [:]

    public init() {}

    /// An empty object with room for `minimumCapacity` members (no growing while it is filled).
    public init(minimumCapacity: Int) {
        keys.reserveCapacity(minimumCapacity)
        values.reserveCapacity(minimumCapacity)
        positions.reserveCapacity(minimumCapacity)
    }

    public init(_ pairs: some Sequence<(String, Value)>) {
        self.init(minimumCapacity: pairs.underestimatedCount)
        for (key, value) in pairs { self[key] = value }
    }

    public var count: Int { keys.count }
    public var isEmpty: Bool { keys.isEmpty }

    public subscript(key: String) -> Value? {
        get { positions[key].map { values[$0] } }
        set {
            if let newValue {
                if let position = positions[key] {
                    values[position] = newValue
                } else {
                    positions[key] = keys.count
                    keys.append(key)
                    values.append(newValue)
                }
            } else if let position = positions.removeValue(forKey: key) {
                keys.remove(at: position)
                values.remove(at: position)
                for later in position..<keys.count { positions[keys[later]] = later }
            }
        }
    }

    public func makeIterator() -> Iterator {
        Iterator(keys: keys, values: values)
    }

    /// The members in insertion order. A concrete type, not `AnyIterator`: a generic box is made
    /// by the runtime on first use, which looks up its conformances (costly at start-up).
    public struct Iterator: IteratorProtocol {
        let keys: [String]
        let values: [Value]
        var index = 0

        public mutating func next() -> (key: String, value: Value)? {
            guard index < keys.count else { return nil }
            defer { index += 1 }
            return (keys[index], values[index])
        }
    }

    /// Equal when they hold the same members, in any order.
    public static func == (lhs: ValueObject, rhs: ValueObject) -> Bool {
        guard lhs.count == rhs.count else { return false }
        for index in lhs.keys.indices where rhs[lhs.keys[index]] != lhs.values[index] { return false }
        return true
    }

    /// In any order, as `==` compares: the members' own hashes are summed.
    public func hash(into hasher: inout Hasher) {
        var sum = 0
        for index in keys.indices {
            var member = Hasher()
            member.combine(keys[index])
            member.combine(values[index])
            sum &+= member.finalize()
        }
        hasher.combine(count)
        hasher.combine(sum)
    }
}

extension ValueObject: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, Value)...) {
        self.init(elements)
    }
}
