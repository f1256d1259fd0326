import SkillbookCore

/// `debug.echo`: returns its `value` unchanged.
struct DebugEchoSkill: Skill {
    let descriptor = SkillDescriptor(
        id: "debug.echo",
        title: "Echo a value",
        summary: "Returns the given value unchanged as { value }. Use it to test playbooks and mappings.",
        examples: [
            "echo {value}", "repeat back {value}", "echo this value", "回显{value}",
        ],
        tags: ["debug", "test"],
        kind: .query,
        parameters: .object(
            ["value": .anyValue("Any value: text, number, list or object.")],
            required: ["value"]),
        output: .object(["value": .anyValue("The value that was given.")], required: ["value"]),
        timeout: 10,
        idempotent: true)

    func run(_ parameters: ValueObject, context: SkillContext) async throws -> Value {
        ["value": parameters["value"] ?? .null]
    }
}
