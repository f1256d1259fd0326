import SkillbookAgent
import SkillbookCore
import Testing

/// Issue 26: what the lint names as the only fix is made by the checker (`PlanChecker.fixed`),
/// not asked of the model in another call.
@Suite struct PlanFixTests {
    static let read = Plan.Step(id: "s1", target: "files.read", with: ["path": "/tmp/app.log"])

    static func extract(_ regex: String) -> Plan.Step {
        Plan.Step(id: "s2", target: "text.extract", with: ["text": "${{ steps.s1.output.content }}", "regex": .string(regex)])
    }

    /// The fixed regular expression and whether the fixed plan passes.
    static func fixedRegex(_ regex: String, request: String) -> (String?, Bool) {
        let plan = Plan(steps: [read, extract(regex)])
        guard let fixed = shippedChecker.fixed(plan, description: request) else { return (nil, false) }
        return (fixed.steps[1].with["regex"]?.stringValue, shippedChecker.check(fixed, description: request).passes)
    }

    @Test func regularExpressionsAreFixedAsTheirMessagesSay() {
        let lines = "read /tmp/app.log and find the lines that start with ERROR"
        #expect(Self.fixedRegex("(?m)^ERROR", request: lines) == ("(?m)^ERROR.*$", true))
        #expect(Self.fixedRegex("ERROR", request: lines) == ("(?m)^ERROR.*$", true))
        #expect(Self.fixedRegex("^ERROR$", request: lines) == ("(?m)^ERROR.*$", true))
        #expect(Self.fixedRegex("^TODO.*$", request: "read /tmp/app.log and find the TODO items") == ("(?m)^TODO.*$", true))
        #expect(Self.fixedRegex("\u{8}ERROR\u{8}", request: "read /tmp/app.log and count the ERROR words") == (#"\bERROR\b"#, true))
        // Nothing to fix: nothing changed.
        #expect(Self.fixedRegex("(?m)^ERROR.*$", request: lines) == (nil, false))
        // A pattern that misses the kind asked for becomes the kind's own, anchors and all.
        #expect(
            Self.fixedRegex(#"^[\w.]+@[\w.]+\b$"#, request: "read /tmp/app.log and find the e-mail addresses in it")
                == (#"[\w.+-]+@[\w-]+(?:\.[\w-]+)+"#, true))
        var amount = Self.extract("金额: ([0-9.]+)")
        amount.with["group"] = 1
        let request = "读取 /tmp/invoice.txt，找出金额"
        let fixed = shippedChecker.fixed(Plan(steps: [Self.read, amount]), description: request)
        #expect(fixed?.steps[1].with["regex"] == #"\d[\d,]*[.,]\d{2}\b"#)
        #expect(fixed?.steps[1].with["group"] == 0)
        #expect(fixed.map { shippedChecker.check($0, description: request).passes } == true)
    }

    @Test func aLiteralWhereAnEarlierStepGivesTheSameFieldBecomesThatField() {
        let request = "summarize https://example.com and send me a notification"
        let plan = Plan(steps: [
            Plan.Step(id: "s1", target: "web.summary", with: ["url": "https://example.com"]),
            Plan.Step(id: "s2", target: "notify.send", with: ["title": "Page summary", "message": "${{ steps.s1.output.description }}"]),
        ])
        #expect(!shippedChecker.check(plan, description: request).passes)
        let fixed = shippedChecker.fixed(plan, description: request)
        #expect(fixed?.steps[1].with["title"] == "${{ steps.s1.output.title }}")
        #expect(fixed?.steps[1].with["message"] == "${{ steps.s1.output.description }}")
        #expect(fixed.map { shippedChecker.check($0, description: request).passes } == true)
    }

    @Test func anOptionalParameterGivenAsAnEmptyTextIsLeftOut() {
        let request = "列出我的笔记然后把标题写入 /tmp/titles.txt"
        let plan = Plan(steps: [
            Plan.Step(id: "s1", target: "notes.list", with: ["tag": ""]),
            Plan.Step(id: "s2", target: "text.join", with: ["items": "${{ steps.s1.output.items.*.title }}"]),
            Plan.Step(id: "s3", target: "files.write", with: ["path": "/tmp/titles.txt", "content": "${{ steps.s2.output.text }}"]),
        ])
        let checked = shippedChecker.check(plan, description: request)
        #expect(checked.diagnostics.contains { $0.message.contains("'tag' must not be empty") })
        let fixed = shippedChecker.fixed(plan, description: request)
        #expect(fixed?.steps[0].with.isEmpty == true)
        #expect(fixed.map { shippedChecker.check($0, description: request).passes } == true)
        // A required one stays for the model to fill in.
        let empty = Plan(steps: [Plan.Step(id: "s1", target: "notes.create", with: ["title": ""])])
        #expect(shippedChecker.fixed(empty, description: "save a note") == nil)
    }

    @Test func aModelPlanThatOnlyNeedsANamedFixIsTakenWithoutAnotherCall() async {
        let request = "summarize https://example.com and send me a notification"
        let answer =
            #"{"steps":[{"skill":"web.summary","with":{"url":"https://example.com"}},{"skill":"notify.send","with":{"title":"Page summary","message":"${{ steps.s1.output.description }}"}}]}"#
        let model = ScriptedModel(contents: [answer])
        let planner = Planner(client: model, checker: shippedChecker, prompt: berlinPrompt)
        let report = await planner.plan(request, offers: offers("web.summary", "notify.send"))
        guard case .plan(let checked) = report.outcome else {
            Issue.record("not a plan: \(report.outcome)")
            return
        }
        #expect(checked.plan.steps[1].with["title"] == "${{ steps.s1.output.title }}")
        #expect(model.requests.count == 1)
    }

    /// A reference to a field the earlier step does not have is made the one it has that the
    /// parameter takes (files.read's `text` → `content`); with no single such field it stays the
    /// model's to repair.
    @Test func aReferenceToAnUnknownFieldIsMadeTheOneThatFits() throws {
        let request = "read /srv/todo.txt and save it as a note titled Todo"
        let read = Plan.Step(id: "s1", target: "files.read", with: ["path": "/srv/todo.txt"])
        let note = Plan.Step(id: "s2", target: "notes.create", with: ["title": "Todo", "body": "${{ steps.s1.output.text }}"])
        let plan = Plan(steps: [read, note])
        #expect(!shippedChecker.check(plan, name: "plan", description: request).passes)
        let fixed = try #require(shippedChecker.fixed(plan, description: request))
        #expect(fixed.steps[1].with["body"] == "${{ steps.s1.output.content }}")
        #expect(shippedChecker.check(fixed, name: "plan", description: request).passes)
    }

    /// The request's instruction around a quoted value, given as the value, is the quoted text.
    @Test func theRequestsWordsAroundAQuotedValueAreTheQuotedValue() throws {
        let request = "Please write 'Standup moved to 10:30' into /srv/announce.txt, then notify me"
        let write = Plan.Step(id: "s1", target: "files.write", with: ["path": "/srv/announce.txt", "content": "Please write 'Standup moved to 10:30' into /srv/announce.txt"])
        let notify = Plan.Step(id: "s2", target: "notify.send", with: ["message": "Standup moved to 10:30"])
        let plan = Plan(steps: [write, notify])
        #expect(shippedChecker.check(plan, name: "plan", description: request).diagnostics.contains { $0.message.contains("give the quoted text 'Standup moved to 10:30'") })
        let fixed = try #require(shippedChecker.fixed(plan, description: request))
        #expect(fixed.steps[0].with["content"] == "Standup moved to 10:30")
        #expect(shippedChecker.check(fixed, name: "plan", description: request).passes)
    }
}
