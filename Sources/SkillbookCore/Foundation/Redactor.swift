/// Replaces secret values with `***` wherever they appear: whole values, inside longer text,
/// inside nested lists and objects.
public struct Redactor: Sendable {
    public static let mask = "***"
    public private(set) var secrets: Set<String> = []

    public init(secrets: some Sequence<String> = []) {
        for secret in secrets { add(secret) }
    }

    /// Remembers a secret; empty strings are ignored (they would match everywhere).
    public mutating func add(_ secret: String) {
        if !secret.isEmpty { secrets.insert(secret) }
    }

    /// Remembers every string inside a value that a schema marks secret.
    public mutating func addSecrets(in value: Value, schema: Schema) {
        if schema.secret {
            addEveryString(in: value)
            return
        }
        switch value {
        case .array(let items): if let itemSchema = schema.items { items.forEach { addSecrets(in: $0, schema: itemSchema) } }
        case .object(let object):
            for (key, member) in object {
                if let property = schema.property(key) { addSecrets(in: member, schema: property) }
            }
        default: break
        }
    }

    private mutating func addEveryString(in value: Value) {
        switch value {
        case .string(let s): add(s)
        case .int, .double: add(value.interpolatedText)
        case .array(let items): items.forEach { addEveryString(in: $0) }
        case .object(let object): object.forEach { addEveryString(in: $0.value) }
        case .null, .bool: break
        }
    }

    public var isEmpty: Bool { secrets.isEmpty }

    public func redact(_ text: String) -> String {
        guard !secrets.isEmpty else { return text }
        var result = text
        // Longest first, so a secret that contains another is masked whole.
        for secret in secrets.sorted(by: { $0.count > $1.count }) where result.contains(secret) {
            result = result.replacing(secret, with: Self.mask)
        }
        return result
    }

    public func redact(_ value: Value) -> Value {
        guard !secrets.isEmpty else { return value }
        switch value {
        case .string(let s): return .string(redact(s))
        case .int, .double: return secrets.contains(value.interpolatedText) ? .string(Self.mask) : value
        case .array(let items): return .array(items.map(redact))
        case .object(let object): return .object(redact(object))
        case .null, .bool: return value
        }
    }

    public func redact(_ object: ValueObject) -> ValueObject {
        guard !secrets.isEmpty else { return object }
        return ValueObject(object.map { ($0.key, redact($0.value)) })
    }
}
