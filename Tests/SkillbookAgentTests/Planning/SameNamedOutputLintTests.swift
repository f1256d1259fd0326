import SkillbookAgent
import SkillbookCore
import Testing

/// Issue 26: a text the model wrote where the page's title belongs (a note titled "Summarized from
/// example.com", a reminder titled "read it").
@Suite struct SameNamedOutputLintTests {
    static func errors(_ steps: [Plan.Step], request: String) -> [String] {
        shippedChecker.check(Plan(steps: steps), name: "plan", description: request).diagnostics.filter { $0.severity == .error }.map(\.message)
    }

    static let summary = Plan.Step(id: "s1", target: "web.summary", with: ["url": "https://example.com"])

    /// A title the model wrote, the request, and why the lint says it is not the request's.
    static let wrongTitles: [(target: String, with: ValueObject, request: String, why: String)] = [
        (
            "notes.create", ["title": "Summarized from example.com", "body": "${{ steps.s1.output.description }}"],
            "summarize https://example.com and save it as a note", "which the request does not give"
        ),
        (
            "reminders.create", ["title": "read it", "notes": "${{ steps.s1.output.description }}", "due": "2026-12-02T09:00:00+01:00"],
            "summarize https://example.com and remind me tomorrow at 9am to read it", "which only points back at what an earlier step found"
        ),
        (
            "reminders.create", ["title": "看一下", "notes": "${{ steps.s1.output.description }}", "due": "2026-12-11T15:00:00+01:00"],
            "总结 https://example.com 然后提醒我下周五下午3点看一下", "which only points back at what an earlier step found"
        ),
        (
            "reminders.create", ["title": "提醒我下周五下午3点读一下", "notes": "${{ steps.s1.output.description }}", "due": "2026-12-11T15:00:00+01:00"],
            "总结 https://example.com 然后提醒我下周五下午3点读一下", "which is a clause of the request, not a value it gives"
        ),
    ]

    @Test(arguments: wrongTitles.indices)
    func aTitleTheRequestDoesNotGiveWhereAnEarlierStepGivesATitleIsAnError(_ index: Int) {
        let (target, with, request, why) = Self.wrongTitles[index]
        let step = Plan.Step(id: "s2", target: target, with: with)
        #expect(
            Self.errors([Self.summary, step], request: request) == [
                "step 's2' parameter 'title' is the text '\(with["title"]?.stringValue ?? "")', \(why), while step 's1' "
                    + #"(web.summary) gives 'title': write "title": "${{ steps.s1.output.title }}""#
            ])
    }

    /// notify.send's `title` is optional: the message says it may be left out, which the repair
    /// can do instead of wiring the page's title in.
    @Test func anOptionalParameterMayBeLeftOut() {
        let notify = Plan.Step(id: "s2", target: "notify.send", with: ["title": "Page summary", "message": "${{ steps.s1.output.description }}"])
        #expect(
            Self.errors([Self.summary, notify], request: "summarize https://example.com and send me a notification") == [
                "step 's2' parameter 'title' is the text 'Page summary', which the request does not give, while step 's1' "
                    + #"(web.summary) gives 'title': write "title": "${{ steps.s1.output.title }}", or leave 'title' out (it is optional)"#
            ])
    }

    @Test func aTitleTheRequestGivesOrNoSameNamedFieldIsFine() {
        let titled = Plan.Step(id: "s2", target: "notes.create", with: ["title": "Todo", "body": "${{ steps.s1.output.description }}"])
        #expect(Self.errors([Self.summary, titled], request: "summarize https://example.com and save it as a note titled Todo").isEmpty)
        let passed = Plan.Step(id: "s2", target: "notes.create", with: ["title": "${{ steps.s1.output.title }}"])
        #expect(Self.errors([Self.summary, passed], request: "summarize https://example.com and save it as a note").isEmpty)
        // files.read gives no title: the model's title is all there is.
        let read = Plan.Step(id: "s1", target: "files.read", with: ["path": "/tmp/todo.txt"])
        let note = Plan.Step(id: "s2", target: "notes.create", with: ["title": "My todo", "body": "${{ steps.s1.output.content }}"])
        #expect(Self.errors([read, note], request: "read /tmp/todo.txt and save it as a note").isEmpty)
    }
}
