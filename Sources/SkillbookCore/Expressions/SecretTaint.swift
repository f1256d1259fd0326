import Synchronization

/// The secrets of one run, shared by the evaluator (which adds what it derives from them) and
/// everything that records or shows a value (which masks with `redactor`).
///
/// Taint is decided by content, at the points where the evaluator makes a new value from others
/// (a function, an arithmetic operator, a slice, a character of a text, an interpolation): when an
/// operand holds an active secret (a secret, one of its forms, or a value derived earlier), every
/// text of the result is remembered as derived, except one that holds every operand bearing a
/// secret whole, each masked wherever it occurs (`'k=' + inputs.token` then shows as `k=***`;
/// `replace(inputs.token, '-', x)` cut the secret and is derived whole, whatever `x` holds). Lists, fields, `?:` and `default`
/// pass values through unchanged, so what they pass on is masked already. A run without secrets
/// gives the evaluator no `SecretTaint` and pays one `nil` test per such node.
public final class SecretTaint: Sendable {
    private let state: Mutex<Redactor>

    public init(_ redactor: Redactor = Redactor()) {
        state = Mutex(redactor)
    }

    public var redactor: Redactor { state.withLock { $0 } }

    public var isEmpty: Bool { state.withLock { $0.isEmpty } }

    public func add(_ secret: String) {
        state.withLock { $0.add(secret) }
    }

    public func addSecrets(in value: Value, schema: Schema) {
        state.withLock { $0.addSecrets(in: value, schema: schema) }
    }

    /// `result` was computed from `operands`: when one of them holds a secret, the result's texts
    /// are remembered as derived from it.
    public func derive(_ result: Value, from operands: [Value]) {
        switch result {
        case .string, .array, .object: break
        case .int, .double, .bool, .null: return
        }
        state.withLock { redactor in
            guard operands.contains(where: { redactor.holdsSecret(in: $0) }) else { return }
            var texts: [String] = []
            for operand in operands { Self.texts(in: operand, into: &texts) }
            // The rest of a result stays visible only when it holds every operand that bears a secret
            // whole, each masked wherever it occurs; one cut or changed (`replace(inputs.token, '-', x)`)
            // or a short fragment masked only as a whole value makes every text of the result derived.
            let bearing = texts.filter { redactor.holdsSecret($0) }
            let maskedInside = bearing.allSatisfy { redactor.masksInside($0) }
            redactor.addDerived(result, keepingVisible: maskedInside ? bearing : [])
        }
    }

    private static func texts(in value: Value, into texts: inout [String]) {
        switch value {
        case .string(let text): texts.append(text)
        case .array(let items): for item in items { Self.texts(in: item, into: &texts) }
        case .object(let object):
            for member in object {
                texts.append(member.key)
                Self.texts(in: member.value, into: &texts)
            }
        case .int, .double, .bool, .null: break
        }
    }
}
