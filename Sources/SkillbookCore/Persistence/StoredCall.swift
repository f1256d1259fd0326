/// A value column as the journal holds it, for a reader that only writes it out again: its stored
/// JSON text when that is canonical (`CanonicalJSON.isCanonical`: written back unchanged, so it
/// need not be decoded), otherwise the value it stands for (a text not in the writer's form, or
/// one that refers to texts kept apart in the journal's blobs, read back).
public enum StoredValue: Sendable, Equatable {
    /// Canonical compact JSON (see `CanonicalJSON`).
    case json(String)
    case value(Value)

    /// Pretty JSON at depth `indent`, as `JSONText.encode(_:pretty: true, indent:)` writes the value.
    public func pretty(indent: Int) -> String {
        switch self {
        case .json(let text): CanonicalJSON.pretty(text, indent: indent)
        case .value(let value): JSONText.encode(value, pretty: true, indent: indent)
        }
    }

    /// `pretty(indent:)` appended to `out`.
    public func pretty(indent: Int, into out: inout [UInt8]) {
        switch self {
        case .json(let text): CanonicalJSON.pretty(text, indent: indent, into: &out)
        case .value(let value): out.append(contentsOf: JSONText.encode(value, pretty: true, indent: indent).utf8)
        }
    }
}

/// One attempt of one call as `JournalCall` has it, its parameters (an object) and output as stored
/// (`StoredValue`): what `runs show --json` writes, read without decoding what it only copies.
public typealias StoredCall = JournalCallAttempt<StoredValue, StoredValue>

/// A page of call attempts as stored (`RunJournal.storedCalls`); `next` as `CallPage.next`.
public typealias StoredCallPage = JournalCallPage<StoredCall>

extension StoredCall {
    /// `call`, its values decoded already.
    public init(_ call: JournalCall) {
        self.init(
            key: call.key, skill: call.skill, attempt: call.attempt, parameters: .value(.object(call.parameters)),
            output: call.output.map(StoredValue.value), error: call.error, started: call.started, finished: call.finished,
            compensated: call.compensated, order: call.order, outputMasked: call.outputMasked)
    }
}
