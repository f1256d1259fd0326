import Foundation
import SkillbookCore
import SkillbookRuntime
import SkillbookTesting
import Testing

/// The journal keeps a query's large output and a step's cut short and marked, and an action's
/// long texts its undo does not read; the run itself, and what an undo reads, keep the whole value.
@Suite struct JournalValueLimitEngineTests {
    /// A fixture journaling into memory, cutting texts over 16 bytes to their first 4.
    static func journaledFixture(
        replacing: (any Skill) -> (any Skill)? = { _ in nil }
    ) throws -> (EngineFixture, InMemoryRecorder) {
        let fixture = try EngineFixture(replacing: replacing)
        let recorder = InMemoryRecorder()
        fixture.recorder = recorder
        fixture.journalValueLimit = JournalValueLimit(bytes: 16, keptBytes: 4)
        return (fixture, recorder)
    }

    @Test func aQuerysLargeOutputIsJournaledCutAndMarkedWhileTheRunUsesItWhole() async throws {
        let (fixture, recorder) = try Self.journaledFixture()
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
        #expect(echo.parameters == ["value": .string(marker)], "a query's parameters are cut too: a resume evaluates them again")
        let save = try #require(contents.calls.first { $0.key.step == "save" })
        #expect(
            save.parameters["title"] == .string(long),
            "an action's parameters are kept whole for its undo")
        #expect(save.output?["id"]?.stringValue?.count == 36, "what notes.create's undo reads is kept whole")
        #expect(save.output?["title"] == .string(marker), "a long text its undo does not read is cut")
        #expect(save.outputMasked, "a resume reuses the record and says it was cut")
        let step = try #require(contents.steps[result.runID]?.first { $0.step == "echo" })
        #expect(step.output == ["value": .string(marker)])
        #expect(step.outputMasked)
        #expect(contents.results.first?.outputs["text"] == .string(marker))
    }

    /// An action that does not say what its undo reads keeps its whole output; a rollback from the
    /// in-memory record still undoes a call whose record was cut.
    @Test func anActionThatDoesNotDeclareWhatItsUndoReadsKeepsItsWholeOutput() async throws {
        let (fixture, recorder) = try Self.journaledFixture(
            replacing: { $0.descriptor.id == "notes.create" ? UndeclaredUndo(inner: $0) : nil })
        let long = String(repeating: "y", count: 40)
        let result = try await fixture.run(
            """
            name: big
            inputs:
              text: { type: string }
            steps:
              - { id: save, skill: notes.create, with: { title: "${{ inputs.text }}" } }
              - { id: boom, skill: debug.fail, with: { message: "stop here" } }
            """, inputs: ["text": .string(long)])
        #expect(result.status == .rolledBack)
        #expect(try fixture.snapshot().isEmpty, "the note was undone")
        let save = try #require(recorder.contents.calls.first { $0.key.step == "save" })
        #expect(save.output?["title"] == .string(long))
        #expect(!save.outputMasked)
    }
}

/// A skill whose descriptor does not declare the fields its undo reads.
private struct UndeclaredUndo: Skill {
    let inner: any Skill

    var descriptor: SkillDescriptor {
        var descriptor = inner.descriptor
        descriptor.undoReads = nil
        return descriptor
    }

    func run(_ parameters: ValueObject, context: SkillContext) async throws -> Value {
        try await inner.run(parameters, context: context)
    }

    func compensate(_ call: CompletedCall, context: SkillContext) async throws {
        try await inner.compensate(call, context: context)
    }
}
