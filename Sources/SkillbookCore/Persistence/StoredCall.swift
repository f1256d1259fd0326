public import Foundation

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

/// One attempt of one call as `JournalCall` has it, its parameters and output as stored
/// (`StoredValue`): what `runs show --json` writes, read without decoding what it only copies.
public struct StoredCall: Sendable {
    public var key: CallKey
    public var skill: String
    public var attempt: Int
    /// An object; secrets redacted.
    public var parameters: StoredValue
    public var output: StoredValue?
    public var error: String?
    public var started: Date
    public var finished: Date?
    public var compensated: Bool
    /// Order of finishing (or, unfinished, of starting) within the run.
    public var order: Int
    /// Secrets were masked in `output`.
    public var outputMasked: Bool

    /// Started, and neither returned nor failed: its process died during the call.
    public var isUncertain: Bool { output == nil && error == nil }

    public init(
        key: CallKey, skill: String, attempt: Int, parameters: StoredValue, output: StoredValue?, error: String?, started: Date,
        finished: Date?, compensated: Bool, order: Int, outputMasked: Bool
    ) {
        self.key = key
        self.skill = skill
        self.attempt = attempt
        self.parameters = parameters
        self.output = output
        self.error = error
        self.started = started
        self.finished = finished
        self.compensated = compensated
        self.order = order
        self.outputMasked = outputMasked
    }
}

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
