import Synchronization

/// The secrets one conversation with the agent has come to know, shared by everything that sends
/// or shows its text: the values in the environment and files when it began, each answer to a
/// `secret: true` input, each value a run of it read from a provider (commands included). Every
/// later request to the model and every message shown is masked with all of them (`Redactor`:
/// case, base64, URL-encoded and line forms too).
public final class SecretBook: Sendable {
    private let state: Mutex<Redactor>

    public init(secrets: some Sequence<String> = [String]()) {
        state = Mutex(Redactor(secrets: secrets))
    }

    /// Remembers each non-empty value.
    public func add(_ values: some Sequence<String>) {
        state.withLock { redactor in
            for value in values { redactor.add(value) }
        }
    }

    /// Remembers every text inside `value` that `schema` marks secret.
    public func addSecrets(in value: Value, schema: Schema) {
        guard schema.containsSecret else { return }
        state.withLock { $0.addSecrets(in: value, schema: schema) }
    }

    /// The masking as it stands now.
    public var redactor: Redactor { state.withLock { $0 } }

    public func redact(_ text: String) -> String { redactor.redact(text) }

    public func redact(_ value: Value) -> Value { redactor.redact(value) }
}
