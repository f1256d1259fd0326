import SkillbookCore
import SkillbookSkills
import Testing

@Suite struct DebugEchoSkillTests {
    @Test(arguments: [
        "hello", 42, 4.5, true, ["a", 1, ["nested": [1, 2]]], ["k": "v", "n": nil],
    ] as [Value])
    func returnsTheSameValue(value: Value) async throws {
        try await withHarness { harness in
            let output = try await harness.run("debug.echo", ["value": value])
            #expect(output == ["value": value])
        }
    }
}
