import SkillbookCore
import Testing

@testable import SkillbookAgent

/// Issue 26, classes a sixth set of fresh requests (2026-12-04, written by a helper that never saw
/// the agent's code or tests) showed, each in new wording.
@Suite struct FreshSetTenTests {
    private func decide(_ request: String) -> RouteDecision { shippedMatcher.decide(request, clock: berlinClock) }
    private func shapes(_ request: String) -> [[String]] { SkeletonReadingTests.shapes(request) }

    /// "完了以后…" / "弄好了之后…" only say the step before is done: the next action is a step of
    /// its own (the reminder's title had swallowed it).
    @Test func doneThenStartsAStep() {
        #expect(CompoundSplitter.clauses(of: "明早九点提醒我交水费，完了以后把所有提醒汇总成一条笔记") == ["明早九点提醒我交水费", "把所有提醒汇总成一条笔记"])
        #expect(CompoundSplitter.isFillerAlone("完了") && CompoundSplitter.isFillerAlone("弄好了"))
        let decision = decide("明早九点提醒我交水费，完了以后把所有提醒汇总成一条笔记")
        #expect(decision.layer == .plan, "\(RoutingSet.describe(decision))")
        // ("and" is no word of order: "tell her" is the reminder's)
        let anna = decide("remind me tomorrow at 5pm to call Anna and tell her the news")
        #expect(anna.layer == .skill && anna.target == "reminders.create", "\(RoutingSet.describe(anna))")
    }

    /// "once that's done" starts a clause as "then" does: no word of its action's.
    @Test func onceThatsDoneIsAWordOfOrder() {
        #expect(shapes("PUT {\"ok\": true} to http://127.0.0.1:9000/api/runs/7, and once that's done remind me in 2 days to check it")
            .first == ["web.request", "reminders.create"])
    }

    /// "fetch the JSON at URL with my bearer token" is web.fetch's (it takes a token).
    @Test func aJSONWithATokenIsFetched() {
        #expect(shapes("can you pull the JSON at http://127.0.0.1:9000/api/stats using my bearer token t0k and save the response to /srv/stats.json")
            .first?.first == "web.fetch")
    }

    /// Files said by what they hold beside an extension ("所有 .gz 日志", "the .epub books") are
    /// files of that kind: listed first. "shift" moves.
    @Test func filesOfAKindSaidByWhatTheyHold() {
        let logs = decide("把 /srv/logs/nginx 下面（含子目录）所有 .gz 日志挪到 /srv/logs/冷存储")
        #expect(logs.layer == .plan && logs.candidates.first?.target == "files.list", "\(RoutingSet.describe(logs))")
        let books = decide("move the .epub books in /srv/downloads to /srv/books")
        #expect(books.layer == .plan && books.candidates.first?.target == "files.list", "\(RoutingSet.describe(books))")
        #expect(!Matcher.namesFiles("/srv/logs 日志"))  // (no extension: a folder's name)
        #expect(decide("shift the .epub books in /srv/downloads over to /srv/books").candidates.first?.target == "files.move")
        #expect(shapes("看一下 /srv/项目 这个仓库的状态，然后把整个仓库打包到 /srv/备份/项目.tar.gz").first == ["git.status", "archive.create"])
    }

    /// A comma inside quotes splits nothing ("with the text 'milk, eggs, bread'"); an apostrophe
    /// opens no quote.
    @Test func commasInsideQuotesSplitNothing() {
        #expect(CompoundSplitter.commaParts("make /srv/a, write b.md with the text 'milk, eggs, bread', then stop")
            == ["make /srv/a", "write b.md with the text 'milk, eggs, bread'", "then stop"])
        #expect(CompoundSplitter.commaParts("it's done, then go") == ["it's done", "then go"])
        #expect(CompoundSplitter.commaParts("say \"a, b\", then go") == ["say \"a, b\"", "then go"])
        #expect(TextFolding.withoutQuotedTexts("note 'milk and eggs' tagged 'shop'") == "note  tagged shop ")
    }

    /// A greeting and its dash before the first clause are no part of it.
    @Test func aGreetingBeforeTheFirstClauseIsDropped() {
        #expect(CompoundSplitter.withoutGreeting("Hiya — make a folder /srv/x") == "make a folder /srv/x")
        #expect(CompoundSplitter.withoutGreeting("hiking boots") == "hiking boots")
    }

    /// A mail's sender and server said as "Send it from … through smtp://…" stay with the mail; a
    /// timeout ("超时设成 300 秒") stays with its command; "跑完把输出写到 F" starts a step.
    @Test func moreThatSaysMoreAboutAClause() {
        #expect(shapes("check what's changed in the repo at /srv/repo and mail the output to ops@example.org? Send it from ci@example.org through smtp://127.0.0.1:2525")
            .first == ["git.status", "mail.send"])
        #expect(CompoundSplitter.clauses(of: "在 /srv/app 目录下跑一下 ./x.sh，超时设成 300 秒，跑完把输出写到 /srv/out.log")
            == ["在 /srv/app 目录下跑一下 ./x.sh，超时设成 300 秒", "跑完把输出写到 /srv/out.log"])
        #expect(CompoundSplitter.startsWithVerb("跑完把输出写到 /srv/out.log"))
        #expect(shapes("帮我查一下下周一早上九点之前到期的提醒，然后把结果发邮件给 li@example.org，发件人 me@example.org，服务器 smtp://127.0.0.1:2525")
            .first == ["reminders.list", "mail.send"])
    }

    /// A clause naming a mail address near mail.send covers that part of the request: the planner
    /// gets it (it had been declined as out of scope without a model call).
    @Test func aClauseToAMailAddressCoversSomeOfTheRequest() {
        let decision = decide("Hello! Look through my 5 newest notes, keep the ones whose title starts with \"Plan\", and mail them to li@example.org from li@example.org via smtp://127.0.0.1:2525")
        #expect(decision.coversSomePart, "\(RoutingSet.describe(decision))")
    }

    /// The one quoted span of a text, when it has one (an apostrophe opens none).
    @Test func theOnlyQuotedSpan() {
        #expect(QuotedValueLint.onlyQuoted(in: "it's 'a' and 'b'") == nil)
        #expect(QuotedValueLint.onlyQuoted(in: "say \"hi there\" now") == "hi there")
        #expect(QuotedValueLint.onlyQuoted(in: "it's done") == nil)
    }

    /// A query the person asked to see ("first tell me how big X is, then …", "看一下 X 的状态，然后
    /// …") needs no later step to use it: a plan's run prints it. Another unused query is still an
    /// error.
    @Test func aQueryThePersonAskedToSeeIsForThem() {
        let size = Plan.Step(id: "s1", target: "disk.usage", with: ["paths": ["/srv/videos"]])
        let pack = Plan.Step(id: "s2", target: "archive.create", with: ["archive": "/srv/archive/holiday.tgz", "paths": ["/srv/videos/holiday"]])
        let asked = "First tell me how big /srv/videos is, then pack /srv/videos/holiday into /srv/archive/holiday.tgz"
        #expect(!shippedChecker.check(Plan(steps: [size, pack]), name: "plan", description: asked).diagnostics.contains { $0.message.contains("no later step uses") })
        let status = Plan.Step(id: "s1", target: "git.status", with: ["repository": "/srv/app"])
        let chinese = "看一下 /srv/app 这个仓库的状态，然后把整个仓库打包到 /srv/app.tar.gz"
        let packChinese = Plan.Step(id: "s2", target: "archive.create", with: ["archive": "/srv/app.tar.gz", "paths": ["/srv/app"]])
        #expect(!shippedChecker.check(Plan(steps: [status, packChinese]), name: "plan", description: chinese).diagnostics.contains { $0.message.contains("no later step uses") })
        let unasked = "measure /srv/videos and pack /srv/videos/holiday into /srv/archive/holiday.tgz"
        #expect(shippedChecker.check(Plan(steps: [size, pack]), name: "plan", description: unasked).diagnostics.contains { $0.message.contains("no later step uses") })
    }
}
