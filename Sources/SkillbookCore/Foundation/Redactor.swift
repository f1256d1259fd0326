/// Replaces secret values with `***` wherever they appear: whole values, inside longer text,
/// inside nested lists and objects.
///
/// A secret is masked with its common disguises (`SecretForms`): upper and lower case, base64,
/// URL-encoded, and each line of a multi-line one. Values derived from a secret (`addDerived`,
/// fed by the expression evaluator's taint, `SecretTaint`) are masked too: as text wherever they
/// occur when at least `SecretForms.shortest` characters long, else only where a whole value is
/// exactly that fragment (masking every `a` in every text would make the record unreadable).
public struct Redactor: Sendable {
    public static let mask = "***"
    /// Every text masked wherever it occurs: the secrets, their forms and the derived values.
    public private(set) var secrets: Set<String> = []
    /// Short derived fragments, masked only as whole values.
    public private(set) var wholeValues: Set<String> = []
    /// `secrets`, longest first, so a secret that contains another is masked whole.
    private var ordered: [String] = []

    public init(secrets: some Sequence<String> = []) {
        for secret in secrets { add(secret) }
    }

    /// Remembers a secret and its forms; empty strings are ignored (they would match everywhere).
    public mutating func add(_ secret: String) {
        guard !secret.isEmpty, !secrets.contains(secret) else { return }
        for form in SecretForms.of(secret) where !secrets.contains(form) {
            secrets.insert(form)
            wholeValues.remove(form)
            // (UTF-8 lengths: a text that holds another is longer in both, and these are O(1); a
            // run that derives many values from a secret spent its time counting characters.)
            let position = ordered.firstIndex { $0.utf8.count < form.utf8.count } ?? ordered.endIndex
            ordered.insert(form, at: position)
        }
    }

    /// Remembers every text inside `value`, a value computed from a secret, except one that holds
    /// every one of `operands` whole (the caller passes the operands that bear a secret, each masked
    /// wherever it occurs, or none): `'k=' + inputs.token` shows as `k=***`, not as `***`;
    /// `replace(inputs.token, 'a', 'b')` does not hold the token whole and is remembered.
    public mutating func addDerived(_ value: Value, keepingVisible operands: [String] = []) {
        switch value {
        case .string(let text):
            let showsOperands = !operands.isEmpty && operands.allSatisfy { UTF8Match.contains(text, $0) }
            guard !text.isEmpty, !secrets.contains(text), !showsOperands else { return }
            if text.utf8.count >= SecretForms.shortest, text.count >= SecretForms.shortest { add(text) } else { wholeValues.insert(text) }
        case .array(let items): items.forEach { addDerived($0, keepingVisible: operands) }
        case .object(let object):
            for (key, member) in object {
                addDerived(.string(key), keepingVisible: operands)
                addDerived(member, keepingVisible: operands)
            }
        case .int, .double, .bool, .null: break
        }
    }

    /// Whether `text` is masked wherever it occurs: it holds a secret that is not only a short
    /// whole-value fragment.
    public func masksInside(_ text: String) -> Bool {
        ordered.contains { UTF8Match.contains(text, $0) }
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

    public var isEmpty: Bool { secrets.isEmpty && wholeValues.isEmpty }

    /// Whether `text` holds a secret (or is a short derived fragment).
    public func holdsSecret(_ text: String) -> Bool {
        wholeValues.contains(text) || ordered.contains { UTF8Match.contains(text, $0) }
    }

    /// Whether any text or number inside `value` holds a secret: the evaluator's taint test.
    public func holdsSecret(in value: Value) -> Bool {
        switch value {
        case .string(let text): holdsSecret(text)
        case .int, .double: secrets.contains(value.interpolatedText)
        case .array(let items): items.contains { holdsSecret(in: $0) }
        case .object(let object): object.contains { holdsSecret($0.key) || holdsSecret(in: $0.value) }
        case .null, .bool: false
        }
    }

    public func redact(_ text: String) -> String {
        guard !ordered.isEmpty else { return text }
        var result = text
        for secret in ordered where UTF8Match.contains(result, secret) {
            result = UTF8Match.replacing(secret, in: result, with: Self.mask)
        }
        return result
    }

    public func redact(_ value: Value) -> Value {
        guard !isEmpty else { return value }
        switch value {
        case .string(let s): return wholeValues.contains(s) ? .string(Self.mask) : .string(redact(s))
        case .int, .double: return secrets.contains(value.interpolatedText) ? .string(Self.mask) : value
        case .array(let items): return .array(items.map(redact))
        case .object(let object): return .object(redact(object))
        case .null, .bool: return value
        }
    }

    /// Masks the members' values and keys: a key can be made from a secret too
    /// (`from_json('{"' + inputs.token + '": 1}')`). Keys that mask alike stay apart as `***#2`, ….
    public func redact(_ object: ValueObject) -> ValueObject {
        guard !isEmpty else { return object }
        var result = ValueObject()
        for (key, value) in object {
            var shown = wholeValues.contains(key) ? Self.mask : redact(key)
            if shown != key, result[shown] != nil {
                var number = 2
                while result["\(shown)#\(number)"] != nil { number += 1 }
                shown = "\(shown)#\(number)"
            }
            result[shown] = redact(value)
        }
        return result
    }
}
