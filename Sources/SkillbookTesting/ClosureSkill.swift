public import SkillbookCore

/// A skill whose behaviour is a closure: the test double every test target shares.
public struct ClosureSkill: Skill {
    public let descriptor: SkillDescriptor
    private let body: @Sendable (ValueObject, SkillContext) async throws -> Value
    private let undo: (@Sendable (CompletedCall) async throws -> Void)?

    public init(
        _ descriptor: SkillDescriptor,
        run body: @escaping @Sendable (ValueObject, SkillContext) async throws -> Value,
        compensate undo: (@Sendable (CompletedCall) async throws -> Void)? = nil
    ) {
        var descriptor = descriptor
        descriptor.reversible = undo != nil
        self.descriptor = descriptor
        self.body = body
        self.undo = undo
    }

    public func run(_ parameters: ValueObject, context: SkillContext) async throws -> Value {
        try await body(parameters, context)
    }

    public func compensate(_ call: CompletedCall, context: SkillContext) async throws {
        guard let undo else { throw SkillError("skill '\(descriptor.id)' cannot be undone") }
        try await undo(call)
    }

    /// An action skill `id` with any parameters and any output.
    public static func action(
        _ id: String, parameters: Schema = .freeObject(), output: Schema = .freeObject(),
        run body: @escaping @Sendable (ValueObject, SkillContext) async throws -> Value,
        compensate undo: (@Sendable (CompletedCall) async throws -> Void)? = nil
    ) -> ClosureSkill {
        ClosureSkill(
            SkillDescriptor(id: id, summary: "Test skill \(id).", kind: .action, parameters: parameters, output: output),
            run: body, compensate: undo)
    }
}
