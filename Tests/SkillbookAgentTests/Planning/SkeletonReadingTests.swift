import SkillbookCore
import Testing

@testable import SkillbookAgent

/// Issue 26, the classes the plan set's tuning half showed after the skeleton and the doubts:
/// what the matcher reads off a compound request, each class in new wording.
@Suite struct SkeletonReadingTests {
    static func shapes(_ request: String) -> [[String]] {
        PlanSkeletonTests.shapes(PlanSkeletonTests.skeleton(request))
    }

    /// More objects after "and" ("copy A and B into it", "milk and eggs") are no step of their own.
    @Test func objectsCutOffByAndStayWithTheirClause() {
        #expect(
            Self.shapes("make a folder /srv/2026 and copy /srv/plan.txt and /srv/budget.txt into it")
                == [["files.mkdir|archive.create", "files.copy"]])
        #expect(
            Self.shapes("create a note called Groceries with milk and eggs, then remind me at 5pm to go shopping")
                == [["notes.create", "reminders.create"]])
    }

    /// A label the matcher captured from a clause it is sure of is named beside the clause; a
    /// pointing-back text, a content or a pattern is not.
    @Test func aCapturedTitleIsGivenBesideItsClause() throws {
        let skeleton = try #require(PlanSkeletonTests.skeleton("提醒我下周五下午3点交报告然后通知我"))
        #expect(skeleton.slots.map(\.hints) == [["title": "交报告"], [:]])
        let shape = try #require(PlanSchema.shape(skeleton))
        #expect(berlinPrompt.order(shape.sequences) == "Steps in order: s1 reminders.create ('提醒我下周五下午3点交报告': title \"交报告\"), s2 notify.send ('通知我').\n")
        let back = try #require(PlanSkeletonTests.skeleton("summarize https://example.com/blog and remind me tomorrow at 9am to read it"))
        #expect(back.slots.map(\.hints.count) == [0, 0])
        let list = try #require(PlanSkeletonTests.skeleton("find the .log files in /srv/logs and move them into /srv/old"))
        #expect(list.slots.map(\.hints.count) == [0, 0])
    }

    /// Fetching an address writes no file: a download into one is a fetch and a write.
    @Test func aDownloadIntoAFileIsAFetchAndAWrite() {
        #expect(
            PlanSkeleton.downloadParts("download https://example.org/k.txt into /srv/k.txt")
                == ["download https://example.org/k.txt", "save it to /srv/k.txt"])
        #expect(PlanSkeleton.downloadParts("下载 https://example.org/k.txt 到 /srv/k.txt") == ["下载 https://example.org/k.txt", "保存到 /srv/k.txt"])
        // No file named after "to", or no address: one action.
        #expect(PlanSkeleton.downloadParts("download https://example.org/k.txt to my laptop") == ["download https://example.org/k.txt to my laptop"])
        #expect(PlanSkeleton.downloadParts("get the checksum of /srv/a to /srv/b") == ["get the checksum of /srv/a to /srv/b"])
        #expect(
            Self.shapes("download https://example.org/keys.txt into /srv/keys.txt and then compute its checksum")
                == [["web.fetch", "files.write", "files.checksum"]])
        // Saving an address into a file downloads it too.
        #expect(
            PlanSkeleton.downloadParts("save the text of https://example.org/k.txt to /srv/k.txt")
                == ["download https://example.org/k.txt", "save it to /srv/k.txt"])
        #expect(PlanSkeleton.downloadParts("把 https://example.org/k.txt 保存到 /srv/k.txt") == ["下载 https://example.org/k.txt", "保存到 /srv/k.txt"])
        let saved = Self.shapes("save the text of https://example.org/readme.txt to /srv/readme.txt and then make a note titled Readme with it")
        #expect(saved.first?.prefix(2) == ["web.fetch", "files.write"])
        #expect(saved.first?.last?.contains("notes.create") == true)
    }

    /// A query that takes no path, told to put its result into a file, is the query and a write;
    /// one that finds things in a text, told a file to look in, is a read and the query.
    @Test func aPathAQueryCannotTakeIsAWriteAfterItOrAReadBeforeIt() {
        #expect(
            Self.shapes("list my notes tagged recipes and join their titles into /srv/recipes.txt")
                == [["notes.list", "text.join", "files.write"]])
        let written = Self.shapes("列出标签为 旅行 的笔记，并把标题写到 /srv/旅行.txt")
        #expect(!written.isEmpty && written.allSatisfy { $0.first == "notes.list" && $0.last == "files.write" })
        for request in ["从 /srv/日志.txt 中找出所有包含 ERROR 的行，并发通知给我", "find the lines with 404 in /srv/access.log and notify me"] {
            let shapes = Self.shapes(request)
            #expect(!shapes.isEmpty && shapes.allSatisfy { $0.prefix(2) == ["files.read", "text.extract"] && $0.last == "notify.send" }, "\(request)")
        }
        // A file the clause before reads is not read again; a query that takes the path keeps it.
        let readOnce = Self.shapes("read /srv/a.log, then find the lines with ERROR in /srv/a.log")
        #expect(!readOnce.isEmpty && readOnce.allSatisfy { $0.filter { $0 == "files.read" }.count == 1 })
        #expect(Self.shapes("check the disk usage of /srv/photos and write the result to /srv/usage.txt") == [["disk.usage", "files.write"]])
        #expect(PlanSkeleton.destinationParts("copy /srv/a to /srv/b", best: nil) == ["copy /srv/a to /srv/b"])
    }

    /// A clause that names a web address and reads as a query that takes none gives way to the
    /// ranked queries that take one.
    @Test func aWebAddressGoesToAQueryThatTakesOne() {
        let pulled = Self.shapes("pull the page https://example.com/news and save its first paragraph as a note called News")
        #expect(pulled == [["web.fetch|web.summary", "notes.create"]])
        // An action keeps the address as its words ("remind me to read https://…").
        let reminded = Self.shapes("remind me tomorrow at 9am to read https://example.com/a and then notify me")
        #expect(!reminded.isEmpty && reminded.allSatisfy { $0.first == "reminders.create" })
    }

    @Test func savingToAFileIsAFileWriteInEitherLanguage() {
        #expect(Self.shapes("fetch https://example.org/feed.xml and save it to /tmp/feed.xml") == [["web.fetch", "files.write"]])
        #expect(Self.shapes("read /srv/app/today.log and append it to /srv/app/all.log") == [["files.read", "files.write"]])
        #expect(Self.shapes("读取 /srv/a.txt 然后追加到 /srv/全部.txt") == [["files.read", "files.write"]])
        #expect(Self.shapes("抓取 https://example.org/价格.csv 然后保存到 /srv/价格.csv") == [["web.fetch", "files.write"]])
        // "save it as a note" is still a note.
        #expect(Self.shapes("read /srv/a.txt and save it as a note") == [["files.read", "notes.create"]])
    }

    @Test func aClauseOfTwoActionsThatEachMatchIsTwoSteps() {
        let request = "read /srv/app.log, pull out the lines with WARN and write them to /srv/warn.txt"
        #expect(
            Self.shapes(request) == [
                ["files.read", "text.extract", "files.write"], ["files.read", "text.extract", "text.join", "files.write"],
            ])
        // The free plan has room for the adapter too: three actions and one more.
        #expect(Planner.maxSteps(for: request, cap: 8) == 4)
    }

    @Test func deletingThemDeletesWhatTheStepBeforeListed() {
        #expect(Self.shapes("list my reminders for Friday and delete them") == [["reminders.list", "reminders.delete"]])
        #expect(Self.shapes("列出标签为 old 的笔记然后删掉它们") == [["notes.list", "notes.delete"]])
        // Files listed are deleted as files; "save them" makes something new of any family.
        #expect(Self.shapes("list the files in /srv/tmp and delete them") == [["files.list", "files.delete"]])
        #expect(Self.shapes("list my reminders for Friday and save them as a note")[0] == ["reminders.list", "notes.create|notes.create_many"])
    }

    @Test func theListSavedAsANoteIsOneNote() {
        #expect(
            Self.shapes("list the files in /srv/www and save the list as a note") == [
                ["files.list", "notes.create"], ["files.list", "text.join", "notes.create"],
            ])
    }

    @Test func theTitleOfAPageIsItsSummary() {
        #expect(Self.shapes("get the title of https://example.org/news and send me a notification with it") == [["web.summary", "notify.send"]])
    }

    @Test func whatSaysMoreAboutAClauseStaysInIt() {
        #expect(
            PromptBuilder.clauses(of: "抓取 https://example.org/a.txt 然后保存为笔记，标题为 摘录")
                == ["抓取 https://example.org/a.txt", "保存为笔记，标题为 摘录"])
        // 合并 (join) holds 并 (and) without chaining anything.
        #expect(PromptBuilder.clauses(of: "读取 /srv/a.txt，把每行合并成一段文本，然后通知我") == ["读取 /srv/a.txt", "把每行合并成一段文本", "通知我"])
        #expect(Self.shapes("抓取 https://example.org/a.txt 然后保存为笔记，标签为 摘录") == [["web.fetch", "notes.create"]])
    }

    /// A search is no longer taken for the deletion its words resemble: the list is first, and
    /// alone it is no sure route to files.delete.
    @Test func aSearchIsFirstOfAllAList() {
        let decision = shippedMatcher.decide("search /srv/app for old .log files", clock: berlinClock)
        #expect(decision.candidates.first?.target == "files.list")
        #expect(decision.target != "files.delete")
        #expect(Self.shapes("search /srv/app for old .log files and move them to /srv/old")[0] == ["files.list", "files.move"])
    }

    /// The plan along that reading passes: the clause's own words (files.delete) are not required
    /// of it as a clause the matcher is sure of would be.
    @Test func aPlanThatDeletesWhatWasListedPasses() async throws {
        let plan = #"{"steps":[{"skill":"reminders.list","with":{"due_on":"2026-12-04"}},{"skill":"reminders.delete","with":{"ids":"${{ steps.s1.output.items.*.id }}"}}]}"#
        let model = ScriptedModel(contents: [plan])
        let planner = Planner(client: model, checker: shippedChecker, prompt: berlinPrompt)
        let report = await planner.plan(
            "list my reminders for Friday and delete them", choosingFrom: PlanSkeletonTests.all, matcher: shippedMatcher, clock: berlinClock)
        guard case .plan(let checked) = report.outcome else {
            Issue.record("not a plan: \(report.outcome)")
            return
        }
        #expect(checked.plan.steps.map(\.target) == ["reminders.list", "reminders.delete"])
        #expect(report.calls == 1)
    }

    /// Fresh requests of 2026-12-04 (second set): a clause asking to be told is a notification, the
    /// words before a colon are a heading, a path without an address is no web request's, and
    /// "make PATH" makes a folder.
    @Test func headingsNotificationsAndPathsDecideTheSteps() {
        #expect(
            Self.shapes("pack /tmp/site into /tmp/site.tar.gz, checksum it and notify me with the checksum")
                == [["archive.create", "files.checksum", "notify.send"]])
        #expect(
            Self.shapes("organise /tmp/desk: make /tmp/desk/images and move /tmp/desk/a.png into it") == [["files.mkdir", "files.move"]])
        #expect(
            CompoundSplitter.clauses(of: "organise /tmp/desk: make /tmp/desk/images and move /tmp/desk/a.png into it")
                == ["make /tmp/desk/images", "move /tmp/desk/a.png into it"])
        // One action after a colon, or none: the request as it is.
        #expect(CompoundSplitter.clauses(of: "note: buy milk and eggs").first?.hasPrefix("note:") == true)
        #expect(CompoundSplitter.clauses(of: "todo: move /tmp/a to /tmp/b") == ["todo: move /tmp/a to /tmp/b"])
        #expect(
            Self.shapes("grab all the urls from /tmp/bookmarks.html and save them as a note called Links").first?.prefix(2)
                == ["files.read", "text.extract"])
        #expect(Self.shapes("copy /tmp/report.docx into /tmp/shared and let me know when it's copied") == [["files.copy", "notify.send"]])
        #expect(Self.shapes("write \"hello world\" to /tmp/hi.txt and then read it back") == [["files.write", "files.read"]])
        let groceries = PlanSkeletonTests.skeleton("make a note called Groceries with milk, eggs and bread, then remind me tomorrow at 6pm to buy them")
        #expect(groceries?.slots.map(\.names) == [["notes.create"], ["reminders.create"]])
        #expect(groceries?.doubts.isEmpty == true)
        let posted = PlanSkeletonTests.skeleton("post {\"event\":\"deploy\"} to https://example.com/hooks/deploy and notify me of the status")
        #expect(posted?.slots.map(\.names) == [["web.request"], ["notify.send"]])
        #expect(posted?.doubts.isEmpty == true)
        // "，服务器 X" says which server the mail goes through: no step of its own.
        #expect(
            Self.shapes("查一下 /tmp/代码 的 git 状态并发邮件给 dev@example.com，服务器 smtp://127.0.0.1:2525") == [["git.status", "mail.send"]])
        // A path beside a mail server and recipient: still mail.send (its server is an address).
        let mailed = PlanSkeletonTests.skeleton(
            "check the git status of /tmp/app and email /tmp/app/CHANGES.md to ana@example.com via smtp://127.0.0.1:2525")
        #expect(mailed?.slots.last?.names == ["mail.send"])
        #expect(CompoundSplitter.asksToBeTold("then let me know when it's done"))
        #expect(CompoundSplitter.asksToBeTold("最后通知我"))
        #expect(!CompoundSplitter.asksToBeTold("email me the list"))
        #expect(!CompoundSplitter.asksToBeTold("tell Anna"))
    }

    /// "X after doing Y" is Y, then X.
    @Test func anActionAfterAGerundComesSecond() {
        #expect(
            CompoundSplitter.clauses(of: "delete the notes tagged scratch after listing them")
                == ["list the notes tagged scratch", "delete them"])
        let listed = Self.shapes("delete the notes tagged scratch after listing them")
        #expect(listed.first?.first?.contains("notes.list") == true && listed.first?.last == "notes.delete", "\(listed)")
        #expect(
            CompoundSplitter.clauses(of: "notify me after saving the page to /tmp/p.html")
                == ["save the page to /tmp/p.html", "notify me"])
        // Not a verb, or no action before it: as it is.
        #expect(CompoundSplitter.clauses(of: "remind me after the meeting") == ["remind me after the meeting"])
        #expect(CompoundSplitter.clauses(of: "the day after landing") == ["the day after landing"])
    }

    /// Fresh requests of 2026-12-04 (third set): "let me know" after a captured path, "统计 X 的大小".
    @Test func aSecondClauseToldToThePersonOrCountingSizeIsAStep() {
        let status = shippedMatcher.decide("check the git status of /tmp/lib and let me know what it says", clock: berlinClock)
        #expect(status.layer == .plan, "\(RoutingSet.describe(status))")
        let size = shippedMatcher.decide("统计 /tmp/视频 的大小，并保存为笔记", clock: berlinClock)
        #expect(size.layer == .plan, "\(RoutingSet.describe(size))")
        #expect(Self.shapes("统计 /tmp/视频 的大小，并保存为笔记").first?.first == "disk.usage")
        let everything = shippedMatcher.decide("list everything in /tmp/inbox, then copy it all to /tmp/inbox-copy", clock: berlinClock)
        #expect(everything.layer == .plan && everything.candidates.map(\.target) == ["files.list", "files.copy"], "\(RoutingSet.describe(everything))")
    }

    /// A path literal is a named path or goes on from one after a separator: `/tmp/photos.tar.gz`,
    /// `/tmp/photos/a`, not `/tmp/photost`.
    @Test func aNamedPathIsNotRunOn() throws {
        let pattern = try Regex(PlanSchema.startPattern(["/tmp/photos", "https://example.com"]))
        for good in ["/tmp/photos", "/tmp/photos.tar.gz", "/tmp/photos/2025", "/tmp/photos-old", "https://example.com/a?b=1", "https://example.com?x"] {
            #expect(good.wholeMatch(of: pattern) != nil, "\(good)")
        }
        for bad in ["/tmp/photost", "/tmp/photo", "https://example.community", "/tmp/photos\"x"] {
            #expect(bad.wholeMatch(of: pattern) == nil, "\(bad)")
        }
    }

    /// A date a weakly matched clause names is fixed too ("create a reminder for DATE titled T" is
    /// worded like no example).
    @Test func aCalendarDayInAReminderClauseIsFixed() throws {
        let skeleton = try #require(
            PlanSkeletonTests.skeleton("fetch https://example.com/todo.txt and create a reminder for december 20 at 10am titled Review todo"))
        let reminder = try #require(skeleton.slots.last?.offers.first { $0.name == "reminders.create" })
        #expect(reminder.fixedValues["due"] == "2026-12-20T10:00:00+01:00")
    }
}
