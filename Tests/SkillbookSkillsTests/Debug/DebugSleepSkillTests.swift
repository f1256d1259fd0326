import SkillbookCore
import SkillbookSkills
import Testing

@Suite struct DebugSleepSkillTests {
    @Test(arguments: [0, 0.01] as [Value])
    func sleepsAndReportsTheSeconds(seconds: Value) async throws {
        try await withHarness { harness in
            let output = try await harness.run("debug.sleep", ["seconds": seconds])
            #expect(output == ["slept": seconds])
        }
    }

    @Test func stopsPromptlyWhenCancelled() async throws {
        try await withHarness { harness in
            let skill = try harness.skill("debug.sleep")
            let context = harness.context
            let task = Task { try await skill.run(params(["seconds": 30]), context: context) }
            try await Task.sleep(for: .milliseconds(20))
            task.cancel()
            await #expect(throws: CancellationError.self) { try await task.value }
        }
    }

    @Test func secondsAreRequiredAndBounded() async throws {
        try await withHarness { harness in
            let schema = try harness.skill("debug.sleep").descriptor.parameters
            #expect(!SchemaValidator.validate([:], against: schema).isEmpty)
            #expect(!SchemaValidator.validate(["seconds": -1], against: schema).isEmpty)
            #expect(!SchemaValidator.validate(["seconds": 3601], against: schema).isEmpty)
            #expect(SchemaValidator.validate(["seconds": 3600], against: schema).isEmpty)
        }
    }
}
