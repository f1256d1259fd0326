import Foundation
import SkillbookCore
import Testing

@testable import SkillbookAgent

/// The failure classes the routing set's tuning half showed, each on the shipped targets.
@Suite struct GeneralisationTests {
    func decide(_ request: String) -> RouteDecision { shippedMatcher.decide(request, clock: berlinClock) }

    @Test func aRelativePathKeepsItsDotsAndAPathMayGoOnInChinese() {
        #expect(decide("tidy up ./scratch").inputs == ["folder": "./scratch"])
        #expect(decide("backup ../shared").inputs == ["folder": "../shared"])
        #expect(decide("tidy up /tmp/x").inputs == ["folder": "/tmp/x"])
        #expect(decide("整理~/桌面").inputs == ["folder": "~/桌面"])
        #expect(decide("~/下载里有什么文件").inputs == ["root": "~/下载"])
        let copy = decide("把/tmp/数据.csv复制到~/备份")
        #expect(copy.target == "files.copy")
        #expect(copy.inputs == ["paths": ["/tmp/数据.csv"], "into": "~/备份"])
    }

    /// Class 6/8 of issue 26 as the plan set's tuning half showed it: two actions are never a near
    /// tie between two skills, and a Chinese clause of its own starts with its verb.
    @Test func twoActionsArePlanShapedEvenAsANearTieOrInChinese() {
        let logs = decide("find the .tmp files in /srv/cache and move them into /srv/old")
        #expect(logs.layer == .plan && logs.question == nil, "\(RoutingSet.describe(logs))")
        let mkdir = decide("新建文件夹 /tmp/相册 然后把 /tmp/a.jpg 移进去")
        #expect(mkdir.layer == .plan, "\(RoutingSet.describe(mkdir))")
        // One action stays one skill's, its clause text and all.
        #expect(decide("remind me to call Anna and tell her hi").target == "reminders.create")
        // …but telling the person asking is an action of its own, not the reminder's title.
        let told = decide("make a reminder for friday at 3pm to renew the passport and tell me when it's saved")
        #expect(told.layer == .plan && told.clauses.count == 2, "\(RoutingSet.describe(told))")
        #expect(decide("提醒我明天交房租，然后通知我").layer == .plan)
        #expect(CompoundSplitter.addressesUser("then let me know"))
        #expect(!CompoundSplitter.addressesUser("tell her hi"))
        #expect(CompoundSplitter.startsWithVerb("把 /tmp/a.jpg 移进去"))
        #expect(CompoundSplitter.startsWithVerb("再写入 /tmp/b.txt"))
        #expect(!CompoundSplitter.startsWithVerb("明天上午"))
    }

    /// Requests written after the sets were tuned (40, wordings none of them has: "after that",
    /// "first …", "先…再…", "grab", "zip", "look up", "看看"): 29 reached the planner before these
    /// fixes, 37 after. Now tuned on, so no figure: a guard that those 37 keep reaching it. (Left:
    /// "tell me what's at URL and then save …", "save URL into a note tagged docs" — a fetch the
    /// request does not say —, "删除 /tmp/缓存 里所有的 .tmp 文件", one action over a pattern.)
    static let freshCompounds = [
        "please download https://example.com/notes.txt and then save it as a note",
        "could you fetch https://example.org/feed.txt and write it to /tmp/feed.txt?",
        "first make the directory /tmp/pics, then move /tmp/a.jpg into it",
        "grab the page https://swift.org and notify me with its title",
        "summarise https://example.com and put it in a note",
        "read /tmp/todo.txt and remind me about it tomorrow at 8am",
        "list every .txt file in /tmp/docs and zip them into /tmp/docs.tar.gz",
        "copy /tmp/a.txt to /tmp/backup, after that notify me",
        "look up my notes tagged work and write them to /tmp/work.txt",
        "find all the .tmp files under /tmp/cache and delete them",
        "get the checksum of /tmp/big.iso and save it as a note",
        "show my reminders for today and send me a notification with them",
        "create a note called Groceries with milk and eggs, then remind me at 5pm to go shopping",
        "read /tmp/app.log, extract the IP addresses and save them to /tmp/ips.txt",
        "fetch https://example.com/page and pull out all the links",
        "archive /tmp/photos as /tmp/photos.tar.gz and notify me when done",
        "download https://example.com/report.csv to /tmp/report.csv and compute its checksum",
        "read /tmp/mail.txt and find every email address in it",
        "make a folder /tmp/2026 and copy /tmp/plan.txt and /tmp/budget.txt into it",
        "list the files in /tmp/inbox, then move them to /tmp/archive",
        "summarize https://example.com/news and remind me on Friday at 10am to read it",
        "read the file /tmp/prices.txt and extract the prices",
        "先下载 https://example.com/a.txt 再保存为笔记",
        "把 /tmp/a.txt 复制到 /tmp/b 之后通知我",
        "读取 /tmp/日志.txt，提取所有的 IP 地址，然后写入 /tmp/ip.txt",
        "列出 /tmp/照片 里的 jpg 文件并且移动到 /tmp/相册",
        "总结一下 https://swift.org 并保存为笔记",
        "新建目录 /tmp/项目 接着把 /tmp/说明.txt 复制进去",
        "读取 /tmp/联系人.txt 然后找出所有电话号码",
        "获取 https://example.com 的标题然后通知我",
        "帮我下载 https://example.com/x.txt，然后追加到 /tmp/x.txt",
        "列出标签为 工作 的笔记，然后写入 /tmp/工作.txt",
        "计算 /tmp/a.iso 的校验和并保存为笔记",
        "把 /tmp/文档 打包成 /tmp/文档.tar.gz 然后发通知",
        "读取 /tmp/发票.txt，找出日期，然后提醒我明天上午10点付款",
        "总结 https://example.com/博客 然后明天早上8点提醒我看",
        "看看今天有哪些提醒，然后发通知给我",
    ]

    @Test(arguments: freshCompounds)
    func aCompoundRequestWordedAnewIsPlanShaped(_ request: String) {
        let decision = decide(request)
        #expect(decision.layer == .plan, "\(RoutingSet.describe(decision))")
    }

    /// Words of order start a clause ("first …", "先…", "最后…") but never a captured text.
    @Test func wordsOfOrderAreDroppedFromAClauseNotFromATitle() {
        #expect(FoldedText("first make the directory /tmp/pics").lowerText == "make the directory /tmp/pics")
        #expect(FoldedText("先下载 https://example.com/a.txt").lowerText == "下载 https://example.com/a.txt")
        #expect(FoldedText.capture("first day of school") == "first day of school")
        #expect(FoldedText.capture("先生的生日") == "先生的生日")
        #expect(CompoundSplitter.clauses(of: "copy /tmp/a.txt to /tmp/backup, after that notify me") == ["copy /tmp/a.txt to /tmp/backup", "notify me"])
    }

    @Test func shortNoteFormsLeaveNoVerbInTheTitle() {
        #expect(decide("note: buy eggs").inputs == ["title": "buy eggs"])
        #expect(decide("jot down call the plumber").inputs == ["title": "call the plumber"])
        #expect(decide("new note: ideas for the talk").target == "notes.create")
        #expect(decide("make a note that the wifi password changed").inputs == ["title": "the wifi password changed"])
        #expect(decide("记录：周五交报告").inputs == ["title": "周五交报告"])
    }

    @Test func aPartOfTheDayBeforeTheHourGivesTheTime() {
        let decision = decide("remind me tomorrow evening at 7 to call mom")
        #expect(decision.target == "reminders.create")
        #expect(decision.inputs == ["due": "2026-12-02T19:00:00+01:00", "title": "call mom"])
        #expect(TextFolding.partOfDay("tonight at 9") == "today at 9pm")
        #expect(TextFolding.partOfDay("tomorrow at 9") == nil)
    }

    @Test func aLiteralBeforeASlotEndsAtAWordBoundary() {
        // `remind me to ` must not take `to` from `tomorrow`.
        let matcher = Matcher(targets: [
            MatcherTests.skill("r", "Remind", examples: ["remind me to {title}"], inputs: [("title", .string())], required: ["title"])
        ])
        #expect(matcher.decide("remind me tomorrow", clock: berlinClock).inputs["title"] == nil)
    }

    @Test func britishSpellingsAreFoldedOnce() {
        let decision = decide("summarise https://example.com/blog")
        #expect(decision.target == "web.summary")
        #expect(decision.inputs == ["url": "https://example.com/blog"])
        #expect(TextFolding.tokens("colour organise") == TextFolding.tokens("color organize"))
    }

    @Test func aGreetingBeforeARequestIsDroppedAndAGreetingAloneIsRefused() {
        #expect(decide("你好，开始今天的日记").target == "daily-journal")
        #expect(decide("早上好，列出~/照片里的文件").inputs == ["root": "~/照片"])
        #expect(decide("hi, what are my reminders").target == "reminders.list")
        #expect(decide("hello").layer == .none)
        #expect(decide("good morning").layer == .none)
        #expect(decide("say hello to Ada").inputs == ["name": "Ada"])
    }

    @Test func aQuestionFollowedByAnotherClauseIsPlanShaped() {
        #expect(decide("what changed in the repository? save that as a note").layer == .plan)
        #expect(decide("summarise https://example.com/news and save it as a note").layer == .plan)
        // Only one clause is covered here, but two actions are never one skill's.
        #expect(decide("git status and upload it to the wiki").layer == .plan)
        #expect(decide("list the files in /tmp and email the list to Bob").layer != .skill)
        #expect(decide("remind me to call Anna and tell her hi").inputs == ["title": "call Anna and tell her hi"])
    }

    /// "the pdf files", "all .tmp files", "所有 jpg 文件": files of that extension, not a file named "pdf".
    @Test func aKindOfFileIsTheGlobOfItsExtension() {
        #expect(decide("find the pdf files in /tmp/x").inputs == ["glob": "*.pdf", "root": "/tmp/x"])
        #expect(decide("列出 /tmp/x 里所有 jpg 文件").inputs == ["glob": "*.jpg", "root": "/tmp/x"])
        #expect(Matcher.globOfKind(".tmp") == "*.tmp")
        #expect(Matcher.globOfKind("2024-*.csv") == "2024-*.csv")
        #expect(Matcher.globOfKind("report") == "report")
        #expect(Matcher.globOfKind("123") == "123")
    }

    @Test func parametersOnceDroppedAreCaptured() {
        #expect(decide("list notes tagged today").inputs == ["tag": "today"])
        #expect(decide("wait for 20 seconds").inputs == ["seconds": 20])
        #expect(decide("git status of ~/src/app").inputs == ["repository": "~/src/app"])
        #expect(decide("pack the docs folder into docs.tar.gz").inputs == ["paths": ["docs"], "archive": "docs.tar.gz"])
        #expect(decide("what's the weather like").layer == .none)
        #expect(decide("remove ~/junk.txt").inputs == ["paths": ["~/junk.txt"]])
        #expect(decide("把报告.pdf移到文档").inputs == ["paths": ["报告.pdf"], "into": "文档"])
        #expect(decide("remove milk").inputs["paths"] == nil)
    }
}
