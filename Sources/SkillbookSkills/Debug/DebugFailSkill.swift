import SkillbookCore

/// `debug.fail`: always fails with the given message.
struct DebugFailSkill: Skill {
    let descriptor = SkillDescriptor(
        id: "debug.fail",
        title: "Fail on purpose",
        summary: "Always fails with the given message. Use it to test retries, on_failure and rollback.",
        examples: [
            "fail with the message {message}", "make this step fail", "simulate a failure", "模拟一次失败",
        ],
        tags: ["debug", "test"],
        kind: .query,
        parameters: .object(
            ["message": .string("The error message to fail with.", minLength: 1)],
            required: ["message"]),
        output: .object([:]),
        timeout: 10,
        idempotent: true)

    func run(_ parameters: ValueObject, context: SkillContext) async throws -> Value {
        throw SkillError(parameters["message"]?.stringValue ?? "debug.fail was asked to fail")
    }
}
