import Foundation
import SkillbookCore
import SkillbookRuntime
import SkillbookTesting
import Testing

/// The journal keeps a query's large output and a step's cut short and marked; the run itself and
/// an action's record keep the whole value.
@Suite struct JournalValueLimitEngineTests {
    @Test func aQuerysLargeOutputIsJournaledCutAndMarkedWhileTheRunUsesItWhole() async throws {
        let fixture = try EngineFixture()
        let recorder = InMemoryRecorder()
        fixture.recorder = recorder
        fixture.journalValueLimit = JournalValueLimit(bytes: 16, keptBytes: 4)
        let long = String(repeating: "x", count: 40)
        let result = try await fixture.run(
            """
            name: big
            inputs:
              text: { type: string }
            steps:
              - { id: echo, skill: debug.echo, with: { value: "${{ inputs.text }}" } }
              - { id: save, skill: notes.create, with: { title: "${{ steps.echo.output.value }}" } }
            outputs:
              text: "${{ steps.echo.output.value }}"
            """, inputs: ["text": .string(long)])
        #expect(result.status == .succeeded)
        #expect(result.outputs["text"] == .string(long), "the caller gets the whole value")
        #expect(try fixture.snapshot().map(\.title) == [long], "the next step got the whole value")

        let contents = recorder.contents
        let marker = "xxxx… [cut by the journal: 40 bytes, fnv1a64 \(SourceHash.of(long))]"
        let echo = try #require(contents.calls.first { $0.key.step == "echo" })
        #expect(echo.output == ["value": .string(marker)])
        #expect(echo.outputMasked, "a resume runs the query again")
        let save = try #require(contents.calls.first { $0.key.step == "save" })
        #expect(
            save.parameters["title"] == .string(long),
            "an action's parameters are kept whole for its undo")
        #expect(save.output?["title"] == .string(long), "an action's output is kept whole")
        #expect(!save.outputMasked)
        let step = try #require(contents.steps[result.runID]?.first { $0.step == "echo" })
        #expect(step.output == ["value": .string(marker)])
        #expect(step.outputMasked)
        #expect(contents.results.first?.outputs["text"] == .string(marker))
    }
}
