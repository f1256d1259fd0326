import SkillbookCore
import Testing

@testable import SkillbookAgent

/// Issue 26, classes a fifth set of fresh requests (2026-12-04, written by a helper that never saw
/// the agent's code or tests) showed, each in new wording.
@Suite struct FreshSetNineTests {
    private func decide(_ request: String) -> RouteDecision { shippedMatcher.decide(request, clock: berlinClock) }
    private func shapes(_ request: String) -> [[String]] { SkeletonReadingTests.shapes(request) }

    /// A mail's sender, server or recipients said after a comma (发件人 …, 邮件服务器 …, "SMTP 是 …",
    /// "use smtp://…") say more about the mail, they are no step of their own: each had become
    /// another mail.send.
    @Test func aMailsSenderAndServerStayWithTheMail() {
        #expect(
            CompoundSplitter.clauses(of: "把周报发邮件给 li@example.org，发件人 wang@example.org，邮件服务器 smtp://10.0.0.5:25")
                == ["把周报发邮件给 li@example.org，发件人 wang@example.org，邮件服务器 smtp://10.0.0.5:25"])
        #expect(
            shapes("看看 /srv/home 占了多少空间，结果发邮件给 li@example.org，发件人也用 li@example.org，SMTP 是 smtp://10.0.0.5:25")
                .first == ["disk.usage", "mail.send"])
        #expect(
            shapes("summarise https://news.example.org/today and mail it to ana@example.org. Use smtp://10.0.0.5:25, from bot@example.org")
                .first == ["web.summary", "mail.send"])
    }

    /// 顺便 ("while you are at it") starts a step of its own: the reminder's title had swallowed
    /// "顺便建一条笔记…" and nothing else ran.
    @Test func byTheWayStartsAStep() {
        let decision = decide("明天早上八点提醒我取快递，顺便记一条笔记叫“快递”，标签 生活")
        #expect(decision.layer == .plan, "\(RoutingSet.describe(decision))")
        #expect(shapes("明天早上八点提醒我取快递，顺便记一条笔记叫“快递”，标签 生活").first == ["reminders.create", "notes.create"])
    }

    /// "delete every .tmp file in X" describes files: they are listed first, as "all .tmp files" were.
    @Test func everyFileOfAKindIsListedFirst() {
        let decision = decide("remove every .bak file in /srv/old")
        #expect(decision.layer == .plan, "\(RoutingSet.describe(decision))")
        #expect(shapes("delete every .bak file in /srv/old and then tell me when it's done").first == ["files.list", "files.delete", "notify.send"])
        // A listing of log files is a listing: "list all log files in X" had gone to files.delete.
        #expect(decide("list all log files in /srv/old").target == "files.list")
    }

    /// Words the examples lacked: "grab URL" fetches; "what's on my reminders for tomorrow" lists;
    /// "run make test in DIR" runs a command; "先建好 DIR" makes a folder; "在里面写一个 F，内容是…"
    /// writes; "DIR 有哪些没提交的改动" is the git status.
    @Test func wordingsOfOtherPeople() {
        #expect(shapes("grab https://example.org/feed.json and save it as /srv/feed.json").first?.prefix(2) == ["web.fetch", "files.write|notes.create"])
        #expect(shapes("what's on my reminders for Monday? put it in a note called Monday").first == ["reminders.list", "notes.create"])
        #expect(shapes("run make test in /srv/app and notify me with the outcome").first == ["shell.run", "notify.send"])
        #expect(shapes("先建好 /srv/存档，再把 /srv/旧 打包成 /srv/存档/旧.tar.gz").first == ["files.mkdir", "archive.create"])
        #expect(shapes("新建文件夹 /srv/周报，然后在里面写一个 plan.txt，内容是“周一开会”").first == ["files.mkdir", "files.write"])
        #expect(shapes("/srv/site 这个 git 仓库有哪些没提交的改动？查完把结果记成笔记，标题“改动”").first == ["git.status", "notes.create"])
    }

    /// "…到 /srv/pdf 里去": 里去 after a path only says where to, as 去 did; the request had been
    /// read as a listing alone.
    @Test func whereToAfterAPathIsNoPartOfIt() {
        let decision = decide("把 /srv/下载 里所有的 pdf 都挪到 /srv/文档 里去")
        #expect(decision.layer == .plan, "\(RoutingSet.describe(decision))")
        #expect(shapes("把 /srv/下载 里所有的 pdf 都挪到 /srv/文档 里去").first == ["files.list", "files.move"])
    }

    /// "把它们都删了" scores low, but after a listing of notes "them" are notes: notes.delete, as
    /// for a clause the matcher is sure of.
    @Test func whatThemAreDecidesEvenForAWeakClause() {
        #expect(shapes("把标签是“旧”的笔记全列出来，然后把它们都删了").first == ["notes.list", "notes.delete"])
        // (and leaves no doubt: a doubt would have the model propose the order first)
        #expect(PlanSkeletonTests.skeleton("把标签是“旧”的笔记全列出来，然后把它们都删了")?.doubts.isEmpty == true)
    }

    /// "再把标题和简介记成笔记" starts a step: 标题 is an attribute only as "标题是/为/叫/“…”".
    @Test func aTitleIsAnAttributeOnlyWhenItNamesOne() {
        #expect(shapes("看看 https://example.org/blog 讲的是什么，再把标题和简介记成一条笔记").first == ["web.summary", "notes.create"])
        #expect(CompoundSplitter.clauses(of: "把结果记成笔记，标题“改动”") == ["把结果记成笔记，标题“改动”"])
    }

    /// "X 下面的 .log 文件" are the files in X, as "X 里的 .log 文件" are: listed first, then packed.
    @Test func filesUnderAFolderAreListedFirst() {
        let decision = decide("把 /srv/日志 下面的 .log 文件都打包成 /srv/日志.tgz")
        #expect(decision.layer == .plan, "\(RoutingSet.describe(decision))")
        #expect(decision.candidates.first?.target == "files.list")
    }

    /// A part before a comma the matcher takes ("Read F, …") covers some of the request: it goes to
    /// the planner, not out of scope (it had been declined without a model call). What nothing here
    /// can do is still declined.
    @Test func aPartBeforeACommaCoversSomeOfTheRequest() {
        let read = decide("Read /srv/orders.txt, find the order numbers (like ORD-12) and set a reminder for Monday 9am to check them")
        #expect(read.coversSomePart, "\(RoutingSet.describe(read))")
        let flight = decide("book me a flight to Paris, a hotel near the station, and a table for two")
        #expect(flight.layer == .none && !flight.coversSomePart, "\(RoutingSet.describe(flight))")
    }

    /// A webhook a clause names is notify.send's `webhook`, filled in by the planner: the parameter
    /// is a secret (a webhook's address holds its token), so the model is never shown one to fill
    /// and had dropped it. A clause naming a web address and no mail address is no mail's.
    @Test func aWebhookTheRequestNamesIsFilledIn() throws {
        let request = "append \"deploy done\" to /srv/ops/log.txt and then notify the ops webhook http://127.0.0.1:8080/hooks/ops"
        let skeleton = try #require(PlanSkeletonTests.skeleton(request))
        let notify = try #require(skeleton.slots.last?.offers.first)
        #expect(notify.name == "notify.send")
        #expect(notify.fixedValues["webhook"] == "http://127.0.0.1:8080/hooks/ops")
        let told = try #require(PlanSkeletonTests.skeleton("move /srv/a.csv into /srv/raw, after that tell me on the webhook http://127.0.0.1:8080/hooks/chat"))
        #expect(told.slots.last?.offers.first?.fixedValues["webhook"] == "http://127.0.0.1:8080/hooks/chat")
        let phone = shapes("which reminders are due before Friday? send the list to my phone through http://127.0.0.1:8080/hooks/phone")
        #expect(phone.first?.first == "reminders.list" && phone.first?.last?.hasPrefix("notify.send") == true)
        #expect(!phone.contains { $0.contains { $0.contains("mail.send") } }, "\(phone)")
    }

    /// The planner puts the webhook into the model's plan, which then passes the checks.
    @Test func thePlannerFillsTheWebhookIn() async throws {
        let request = "append \"deploy done\" to /srv/ops/log.txt and then notify the ops webhook http://127.0.0.1:8080/hooks/ops"
        let answer = #"{"steps":[{"skill":"files.write","with":{"path":"/srv/ops/log.txt","content":"deploy done","mode":"append"}},{"skill":"notify.send","with":{"message":"deploy done"}}]}"#
        let model = ScriptedModel(contents: [answer])
        let planner = Planner(client: model, checker: shippedChecker, prompt: berlinPrompt)
        let report = await planner.plan(request, choosingFrom: PlanSkeletonTests.all, matcher: shippedMatcher, clock: berlinClock)
        guard case .plan(let checked) = report.outcome else {
            Issue.record("not a plan: \(report.outcome)")
            return
        }
        #expect(checked.plan.steps.last?.with["webhook"] == "http://127.0.0.1:8080/hooks/ops")
        let asked = try #require(model.requests.first)
        #expect(!JSONText.encode(try #require(asked.responseFormat)).contains("hooks/ops"))
    }
}
