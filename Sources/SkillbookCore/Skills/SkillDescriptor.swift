/// What a skill is, independent of how it runs: the same data for Swift skills and manifests.
public struct SkillDescriptor: Sendable {
    public enum Kind: String, Sendable, Hashable {
        /// Read-only; safe to run in dry-run.
        case query
        /// Has side effects.
        case action
    }

    /// Whether a skill can run here, with the reason when it cannot.
    public enum Availability: Sendable, Hashable {
        case available
        case unavailable(reason: String)
    }

    /// `domain.name`, optionally with a version suffix `@2`.
    public var id: String
    public var title: String
    /// Written for people and for the model.
    public var summary: String
    /// Phrases used by local intent matching.
    public var examples: [String]
    public var tags: [String]
    public var kind: Kind
    /// The action is destructive or leaves the machine: ask before running.
    public var confirm: Bool
    /// An object schema of the parameters.
    public var parameters: Schema
    /// An object schema of the output.
    public var output: Schema
    /// Names of what the skill writes (`notes`, `files`).
    public var resources: [String]
    /// Seconds before a call is cancelled.
    public var timeout: Double
    /// Running it twice with the same parameters has the effect of running it once.
    public var idempotent: Bool
    /// Whether a completed call can be undone.
    public var reversible: Bool
    /// Whether its compensation can also undo a call that *failed*, from the call's parameters
    /// alone (it is given a `null` output): a partial effect (half an archive) is then undone on
    /// rollback like a completed call's. The engine relies on it only for an `idempotent`,
    /// `reversible` action.
    public var undoesFailedCalls: Bool
    /// The fields of its output that its compensation reads, when the skill declares them. The
    /// journal keeps those whole and cuts the other long texts of an action's output like a query's
    /// (see `JournalValueLimit`); `nil`, the default, keeps the whole output.
    public var undoReads: Set<String>?
    public var availability: Availability

    public init(
        id: String, title: String? = nil, summary: String, examples: [String] = [], tags: [String] = [],
        kind: Kind, confirm: Bool = false, parameters: Schema, output: Schema, resources: [String] = [],
        timeout: Double = 60, idempotent: Bool = false, reversible: Bool = false, undoesFailedCalls: Bool = false,
        undoReads: Set<String>? = nil, availability: Availability = .available
    ) {
        self.id = id
        self.title = title ?? id
        self.summary = summary
        self.examples = examples
        self.tags = tags
        self.kind = kind
        self.confirm = confirm
        self.parameters = parameters
        self.output = output
        self.resources = resources
        self.timeout = timeout
        self.idempotent = idempotent
        self.reversible = reversible
        self.undoesFailedCalls = undoesFailedCalls
        self.undoReads = undoReads
        self.availability = availability
    }

    /// Whether a failed call of it is compensated on rollback like a completed one: an idempotent,
    /// reversible action whose compensation works from the parameters alone.
    public var compensatesFailedCalls: Bool {
        kind == .action && idempotent && reversible && undoesFailedCalls
    }

    /// The fields of its output the journal keeps whole however long they are: none for a query (a
    /// resume runs it again), the declared `undoReads` for an action, every field (`nil`) for an
    /// action that does not declare them.
    public var outputFieldsKeptWhole: Set<String>? {
        kind == .query ? [] : undoReads
    }

    /// Whether `id` has the shape `domain.name` (lowercase letters, digits, `_`), optionally `@N`.
    public static func isValidID(_ id: String) -> Bool {
        // Over the UTF-8 bytes: `Character.isLowercase` looks up Unicode properties, and a
        // start-up validates every id once.
        var part = 0
        var length = 0
        var versionDigits: Int?
        for byte in id.utf8 {
            if let digits = versionDigits {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return false }
                versionDigits = digits + 1
                continue
            }
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"):
                length += 1
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"):
                guard length > 0 else { return false }
                length += 1
            case UInt8(ascii: "."):
                guard part == 0, length > 0 else { return false }
                part = 1
                length = 0
            case UInt8(ascii: "@"):
                guard part == 1, length > 0 else { return false }
                versionDigits = 0
            default:
                return false
            }
        }
        return part == 1 && length > 0 && versionDigits != 0
    }
}
