public import Foundation

/// A typed capability the engine can call.
///
/// A conformer must:
/// - return an output that conforms to `descriptor.output` (the engine checks it);
/// - honour task cancellation promptly (the engine cancels on timeout and Ctrl-C);
/// - when `descriptor.reversible` is true, implement `compensate` so that it undoes exactly the
///   effect of the call it is given, and is safe to retry.
public protocol Skill: Sendable {
    var descriptor: SkillDescriptor { get }

    /// Runs the skill with parameters already validated against `descriptor.parameters`.
    func run(_ parameters: ValueObject, context: SkillContext) async throws -> Value

    /// `run` with parameters the engine may have handed over (see `CallParameters`): a skill that
    /// can use a large parameter's storage for its output takes them; by default, `run`.
    func run(handedOver parameters: CallParameters, context: SkillContext) async throws -> Value

    /// Undoes a completed call.
    func compensate(_ call: CompletedCall, context: SkillContext) async throws

    /// What a call with these parameters would touch, for a person asked to confirm it (the titles
    /// of the notes it deletes, the paths of the files); `nil` when the parameters say it best.
    /// Reads only; never fails (what cannot be found is said in the item).
    func preview(_ parameters: ValueObject) async -> CallPreview?
}

extension Skill {
    public func run(handedOver parameters: CallParameters, context: SkillContext) async throws -> Value {
        try await run(parameters.take(), context: context)
    }

    public func compensate(_ call: CompletedCall, context: SkillContext) async throws {
        throw SkillError("skill '\(descriptor.id)' cannot be undone")
    }

    public func preview(_ parameters: ValueObject) async -> CallPreview? { nil }
}

/// What a call would touch, one line per item: `noun` names them (`notes`, `files`).
public struct CallPreview: Sendable, Hashable {
    public var noun: String
    public var items: [String]

    public init(noun: String, items: [String]) {
        self.noun = noun
        self.items = items
    }
}

/// A call that returned, as the engine remembers it for compensation.
public struct CompletedCall: Sendable {
    public var parameters: ValueObject
    public var output: Value

    public init(parameters: ValueObject, output: Value) {
        self.parameters = parameters
        self.output = output
    }
}

/// What a running skill may know about its call.
public struct SkillContext: Sendable {
    public var runID: String
    public var stepID: String
    public var attempt: Int
    /// The run's time zone (the machine's unless the engine was given another): the one parameters
    /// were coerced in, and the one in which a skill reads local days and times (`due_on: 2026-11-30`).
    public var timeZone: TimeZone
    /// Reports progress (`completed` of `total`) to the run's event stream.
    public var progress: @Sendable (_ completed: Int, _ total: Int) -> Void

    public init(
        runID: String, stepID: String, attempt: Int = 1, timeZone: TimeZone = .current,
        progress: @escaping @Sendable (Int, Int) -> Void = { _, _ in }
    ) {
        self.runID = runID
        self.stepID = stepID
        self.attempt = attempt
        self.timeZone = timeZone
        self.progress = progress
    }
}

/// A failure a skill reports to the user.
public struct SkillError: Error, Sendable, CustomStringConvertible, Equatable {
    public var message: String
    /// What kind of failure it is: `skill` unless the skill knows better (`unavailable`, `validation`, `timeout`).
    public var kind: FailureKind

    public init(_ message: String, kind: FailureKind = .skill) {
        self.message = message
        self.kind = kind
    }

    public var description: String { message }
}
