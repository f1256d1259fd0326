public import SkillbookCore

/// A skill declared in a YAML file (`Skills/*.yaml`): an external command and its descriptor.
///
/// ```yaml
/// id: archive.create
/// summary: Packs files into a .tar.gz archive.
/// kind: action
/// parameters:                 # a JSON-Schema object, exactly as exported to tools
///   type: object
///   properties:
///     archive: { type: string, format: path, description: The archive to write. }
///     paths: { type: array, items: { type: string }, minItems: 1, maxItems: 100 }
///   required: [archive, paths]
/// run: [tar, -czf, "${{ params.archive }}", --, "${{ params.paths }}"]
/// undo: [rm, -f, --, "${{ params.archive }}"]
/// ```
///
/// `parameters` is a whole object schema rather than a shorthand map of names: it is then the
/// very JSON Schema that is exported for editors, tools and MCP, `required` is stated once in
/// the usual place, and `SchemaDecoder` checks it like every other schema. An undeclared
/// parameter is refused (`additionalProperties` defaults to false).
public struct SkillManifest: Sendable {
    public enum InputMode: String, Sendable, Hashable {
        /// Parameters go into the argument list; output is `{ stdout, stderr, exit_code }`.
        case arguments
        /// The command reads `{"params": …, "context": …}` as JSON on stdin and prints its output
        /// object as JSON on stdout.
        case json
    }

    /// The file it was read from, as shown in diagnostics.
    public var file: String
    public var id: String
    public var idLocation: SourceLocation
    public var title: String?
    public var summary: String
    public var examples: [String] = []
    public var tags: [String] = []
    /// Defaults to `action`: a command may change anything, so it runs only for real.
    public var kind: SkillDescriptor.Kind = .action
    public var confirm = false
    /// An object schema.
    public var parameters: Schema
    /// An object schema; `{ stdout, stderr, exit_code }` unless `stdin: json`.
    public var output: Schema
    public var run: CommandTemplate
    public var input: InputMode = .arguments
    public var undo: CommandTemplate?
    /// Seconds before the command is stopped.
    public var timeout: Double = 60
    public var resources: [String] = []
    /// Names of environment variables passed through to the command (besides PATH, HOME, LANG).
    public var environment: [String] = []
    public var idempotent = false

    public init(
        file: String, id: String, idLocation: SourceLocation, summary: String, parameters: Schema, output: Schema,
        run: CommandTemplate
    ) {
        self.file = file
        self.id = id
        self.idLocation = idLocation
        self.summary = summary
        self.parameters = parameters
        self.output = output
        self.run = run
    }

    /// The output of an argument-list command.
    public static let commandOutput: Schema = .object(
        [
            "stdout": .string("What the command printed (at most 1 MiB is kept)."),
            "stderr": .string("What the command printed as errors (at most 1 MiB is kept)."),
            "exit_code": .integer("The exit status: 0, as a non-zero exit is a failure."),
        ],
        required: ["stdout", "stderr", "exit_code"])

    /// The output of a `stdin: json` command that declares none.
    public static let jsonOutput: Schema = .freeObject("The object the command printed as JSON.")

    /// An `undo` that reads nothing of the output (argument mode, no `${{ output.… }}`) can undo a
    /// call that failed partway too.
    var undoNeedsNoOutput: Bool {
        guard let undo, input != .json else { return false }
        return !undo.references.contains { if case .output = $0 { true } else { false } }
    }

    public func descriptor(availability: SkillDescriptor.Availability) -> SkillDescriptor {
        SkillDescriptor(
            id: id, title: title, summary: summary, examples: examples, tags: tags, kind: kind, confirm: confirm,
            parameters: parameters, output: output, resources: resources, timeout: timeout, idempotent: idempotent,
            reversible: undo != nil, undoesFailedCalls: undoNeedsNoOutput, availability: availability)
    }
}
