import SkillbookCore
import Testing

@testable import SkillbookAgent

/// What a review of the fifth and sixth sets' fixes found (2026-12-04), each in the reviewer's
/// words: rules that misfired on ordinary requests.
@Suite struct ReviewFindingsTests {
    /// A letter changed is no typo: "remote" stays remote (it had become "remove", files.delete).
    @Test func aChangedLetterMakesNoTypo() {
        let backup = shippedMatcher.decide("back up the remote files in /mnt/nas to /tmp/b", clock: berlinClock)
        #expect(backup.target != "files.delete" && backup.candidates.first?.target != "files.delete", "\(RoutingSet.describe(backup))")
        #expect(shippedMatcher.decide("list the photos taken in /tmp/pics", clock: berlinClock).candidates.first?.target != "web.fetch")
        #expect(!WordIndex.oneEditApart(Array("remote"), Array("remove"), changing: false))
    }

    /// Only an address the clause sends to is notify.send's webhook, not one it is about.
    @Test func anAddressTheClauseIsAboutIsNoWebhook() throws {
        let about = try #require(PlanSkeletonTests.skeleton("fetch https://example.com/health, then tell me whether https://example.com/health is up"))
        #expect(about.slots.last?.offers.first?.fixedValues["webhook"] == nil)
        #expect(PlanSkeleton.onlyAddress(in: "notify me with the link https://example.com/report.pdf") == nil)
        #expect(PlanSkeleton.onlyAddress(in: "send it to http://127.0.0.1:9000/hooks/a") == "http://127.0.0.1:9000/hooks/a")
        #expect(PlanSkeleton.onlyAddress(in: "往 http://127.0.0.1:9000/hooks/a 推一条通知") == "http://127.0.0.1:9000/hooks/a")
    }

    /// A body that quotes a command is the body: only an instruction (it starts with its verb)
    /// around a quoted value is that value.
    @Test func aTextThatQuotesSomethingIsKept() throws {
        let request = "Create a note titled Tips with the body: always run 'make check' before you push"
        let note = Plan.Step(id: "s1", target: "notes.create", with: ["title": "Tips", "body": "always run 'make check' before you push"])
        #expect(shippedChecker.fixed(Plan(steps: [note]), description: request)?.steps[0].with["body"] != "make check")
        #expect(shippedChecker.check(Plan(steps: [note]), name: "plan", description: request).passes)
    }

    /// 以后 after a time ("三天以后提醒我") is part of the time, not a new step.
    @Test func afterATimeIsNoNewStep() {
        #expect(CompoundSplitter.clauses(of: "列出 /tmp/a 里的文件，三天以后提醒我清理") == ["列出 /tmp/a 里的文件", "三天以后提醒我清理"])
        #expect(CompoundSplitter.clauses(of: "提醒我明天以后的会议") == ["提醒我明天以后的会议"])
        #expect(CompoundSplitter.clauses(of: "明早提醒我交房租，完了以后通知我") == ["明早提醒我交房租", "通知我"])
    }

    /// A reference into an object of open shape (web.fetch's `headers.etag`) is the plan's own.
    @Test func aFieldInsideAnOpenObjectIsLeftAlone() {
        let fetch = Plan.Step(id: "s1", target: "web.fetch", with: ["url": "https://example.com/a"])
        let write = Plan.Step(id: "s2", target: "files.write", with: ["path": "/tmp/etag.txt", "content": "${{ steps.s1.output.headers.etag }}"])
        let fixed = shippedChecker.fixed(Plan(steps: [fetch, write]), description: "fetch https://example.com/a and write its etag to /tmp/etag.txt")
        let content = fixed.map { $0.steps[1].with["content"] } ?? write.with["content"]
        #expect(content == "${{ steps.s1.output.headers.etag }}")
    }

    /// An apostrophe inside a quote closes nothing: "'don't panic, stay calm'" is one quote.
    @Test func anApostropheInsideAQuoteClosesNothing() {
        #expect(CompoundSplitter.commaParts("write 'don't panic, stay calm' into a.txt, then mail it") == ["write 'don't panic, stay calm' into a.txt", "then mail it"])
    }
}
