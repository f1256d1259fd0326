import SkillbookCore
import SkillbookSkills
import Testing

@Suite struct DebugFailSkillTests {
    @Test func throwsTheGivenMessage() async throws {
        try await withHarness { harness in
            let skill = try harness.skill("debug.fail")
            await #expect(throws: SkillError("disk on fire")) {
                try await skill.run(params(["message": "disk on fire"]), context: harness.context)
            }
        }
    }

    @Test func cannotBeUndone() async throws {
        try await withHarness { harness in
            let skill = try harness.skill("debug.fail")
            #expect(skill.descriptor.reversible == false)
            await #expect(throws: SkillError.self) {
                try await skill.compensate(CompletedCall(parameters: ValueObject(), output: [:]), context: harness.context)
            }
        }
    }
}
