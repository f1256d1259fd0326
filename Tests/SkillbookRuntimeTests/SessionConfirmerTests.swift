import SkillbookCore
import SkillbookRuntime
import Testing

@Suite struct SessionConfirmerTests {
    let request = ConfirmationRequest(step: "sub/drop", skill: "notes.delete", summary: "Deletes.", parameters: [:], calls: 1)

    @Test func theEngineWaitsUntilTheStepIsAnswered() async throws {
        let confirmer = SessionConfirmer()
        let asking = Task { await confirmer.confirm(request) }
        while !confirmer.isWaiting(for: "sub/drop") { await Task.yield() }
        confirmer.answer("sub/other", .approved)
        #expect(confirmer.isWaiting(for: "sub/drop"), "an answer for another step does not count")
        confirmer.answer("sub/drop", .declined(reason: "no"))
        #expect(await asking.value == .declined(reason: "no"))
    }

    @Test func anAnswerGivenBeforeTheEngineAsksIsKept() async {
        let confirmer = SessionConfirmer()
        confirmer.answer("sub/drop", .approved)
        #expect(await confirmer.confirm(request) == .approved)
    }

    @Test func cancellingTheWaitingTaskDeclines() async throws {
        let confirmer = SessionConfirmer()
        let asking = Task { await confirmer.confirm(request) }
        while !confirmer.isWaiting(for: "sub/drop") { await Task.yield() }
        asking.cancel()
        #expect(await asking.value == .declined(reason: "interrupted"))
        #expect(!confirmer.isWaiting(for: "sub/drop"))
    }
}
