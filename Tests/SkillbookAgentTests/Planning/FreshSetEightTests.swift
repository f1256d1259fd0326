import SkillbookCore
import Testing

@testable import SkillbookAgent

/// Issue 26, classes a fourth set of fresh requests (2026-12-04, written by a helper that never saw
/// the code) showed, each in new wording.
@Suite struct FreshSetEightTests {
    private func decide(_ request: String) -> RouteDecision { shippedMatcher.decide(request, clock: berlinClock) }

    /// A path slot ends at a comma before the next clause: "复制到 /srv/备份，谢谢" is `/srv/备份`,
    /// and a second action after it is never the path's tail (the request was routed to files.copy
    /// alone, with `into: "/srv/share,复制完算校验和"`).
    @Test func aPathEndsAtTheCommaBeforeTheNextClause() {
        let one = decide("把 /srv/a.txt 复制到 /srv/备份，谢谢")
        #expect(one.layer == .skill && one.inputs["into"] == "/srv/备份", "\(RoutingSet.describe(one))")
        let two = decide("把 /srv/pics 里所有 png 文件拷贝到 /srv/out，拷贝完算一下校验和")
        #expect(two.layer == .plan, "\(RoutingSet.describe(two))")
        #expect(SkeletonReadingTests.shapes("把 /srv/pics 里所有 png 文件拷贝到 /srv/out，拷贝完算一下校验和").first?.prefix(2) == ["files.list", "files.copy"])
        // Other words than files are listed only when they are the whole request: titles after a
        // list of notes are that list's ("把标题写入 F" had become a web.summary step).
        let titles = SkeletonReadingTests.shapes("列出标签为 读书 的笔记然后把标题写入 /srv/t.txt")
        #expect(!titles.isEmpty && titles.allSatisfy { $0.first == "notes.list" && $0.last == "files.write" && !$0.contains("web.summary") }, "\(titles)")
    }

    /// 算, 挪, 运行, 标记 … start an action of their own: "把 X 打包成 Y，再算一下它的 SHA-256" is no
    /// archive alone. The same action said twice ("…完成了，标记一下") stays one.
    @Test func moreChineseVerbsStartAStep() {
        let packed = decide("把 /srv/site 打包成 /srv/site.tar.gz，再算一下它的 SHA-256")
        #expect(packed.layer == .plan, "\(RoutingSet.describe(packed))")
        #expect(SkeletonReadingTests.shapes("把 /srv/site 打包成 /srv/site.tar.gz，再算一下它的 SHA-256") == [["archive.create", "files.checksum"]])
        let again = decide("提醒 7 办完了，标记一下")
        #expect(again.layer != .plan, "\(RoutingSet.describe(again))")
    }

    /// A question ends a clause in Chinese as in English: "后天有哪些提醒？做成一条笔记…" is two.
    @Test func aChineseQuestionEndsAClause() {
        #expect(CompoundSplitter.clauses(of: "后天有哪些提醒？写成笔记") == ["后天有哪些提醒", "写成笔记"])
        #expect(SkeletonReadingTests.shapes("后天有哪些提醒？整理成一条笔记，标题叫 后天").first == ["reminders.list", "notes.create"])
    }

    /// A tag, a subject, a mail server or a sender said after a comma belongs to the clause before.
    @Test func attributesAfterACommaStayWithTheirClause() {
        #expect(CompoundSplitter.clauses(of: "再建一条笔记“买菜”，标签 家务") == ["建一条笔记“买菜”，标签 家务"])
        #expect(
            CompoundSplitter.clauses(of: "把结果发给 li@example.com，主题写“周报”，走 smtp://mail.example.org:587")
                == ["把结果发给 li@example.com，主题写“周报”，走 smtp://mail.example.org:587"])
        #expect(
            CompoundSplitter.clauses(of: "mail it to li@example.com, server smtp://mail.example.org:587, from me@example.org, subject Report")
                == ["mail it to li@example.com, server smtp://mail.example.org:587, from me@example.org, subject Report"])
    }

    /// "put it in a note", "整理成一条笔记", "what reminders do I have on friday".
    @Test func notesAndReminderListsInOtherWords() {
        #expect(SkeletonReadingTests.shapes("which reminders are due on friday? put the list in a note called Friday").first == ["reminders.list", "notes.create"])
        #expect(decide("下周一有哪些提醒").target == "reminders.list")
    }

    /// 拷贝 is 复制 and 挪到 is 移到; "挪到 X 去" ends at X; pictures (图片, 照片) of a kind in a folder are
    /// listed first.
    @Test func chineseSynonymsAndPicturesOfAKind() {
        #expect(SkeletonReadingTests.shapes("把 /srv/相册 里的 jpg 照片都挪到 /srv/旧照片 去").first == ["files.list", "files.move"])
        let copy = decide("把 /srv/a.txt 拷贝到 /srv/b")
        #expect(copy.target == "files.copy" && copy.inputs["into"] == "/srv/b", "\(RoutingSet.describe(copy))")
    }

    /// "after you've fetched X, write it to F": the fetch first, then the write.
    @Test func anActionAfterYouHaveDoneAnotherComesSecond() {
        #expect(
            CompoundSplitter.clauses(of: "once you've downloaded https://example.org/a.csv, copy it to /srv/a.csv")
                == ["download https://example.org/a.csv", "copy it to /srv/a.csv"])
        #expect(
            CompoundSplitter.clauses(of: "after you have saved the page to /srv/p.html, notify me")
                == ["save the page to /srv/p.html", "notify me"])
        #expect(CompoundSplitter.presentForm(of: "copied") == "copy")
        #expect(CompoundSplitter.presentForm(of: "zipped") == "zip")
        #expect(CompoundSplitter.presentForm(of: "wanted") == nil)
        #expect(CompoundSplitter.clauses(of: "after you've a moment, list /srv") == ["after you've a moment, list /srv"])
    }

    /// An action that takes a text reads the file the clause names as where the text comes from
    /// ("the contents of F", "F 的内容") first; a path it names otherwise is no read.
    @Test func anActionsTextFromAFileIsReadFirst() {
        #expect(
            SkeletonReadingTests.shapes("mail ops@example.org the contents of /srv/report.txt via smtp://mail.example.org:587").first
                == ["files.read", "mail.send"])
        #expect(PlanSkeleton.namesASource("/srv/a.txt", in: "把 /srv/a.txt 的内容发给 li@example.org"))
        #expect(PlanSkeleton.namesASource("/srv/a.txt", in: "email the text in /srv/a.txt to li@example.org"))
        #expect(!PlanSkeleton.namesASource("/srv/big.iso", in: "let me know when /srv/big.iso is copied"))
    }

    /// A question about a repository then a request to send its status is two actions, not a
    /// choice between two skills; a list in parentheses is no clause; a query "into a note" is
    /// the query and a note.
    @Test func aQuestionThenAnActionParenthesesAndIntoANote() {
        let status = decide("is the repo at /srv/app clean? send its git status to the webhook https://hooks.example.org/x as a notification")
        #expect(status.layer == .plan, "\(RoutingSet.describe(status))")
        #expect(CompoundSplitter.clauses(of: "summarise https://example.org/a into a note (title, description, first paragraph)").count == 1)
        #expect(
            SkeletonReadingTests.shapes("summarise https://example.org/a into a note (title, description), tag it reading").first?.first
                == "web.summary")
        #expect(
            PlanSkeleton.destinationParts("summarise https://example.org/a into a note, tag it reading", best: shippedOffers["web.summary"])
                == ["summarise https://example.org/a", "save it as a note, tag it reading"])
    }

    /// A filler or greeting before a comma is no clause: "嗯，看一下 X 占了多少空间，然后发个通知给我" is
    /// two steps, not three with an empty one the model could not fill.
    @Test func aFillerBeforeACommaIsNoClause() {
        #expect(CompoundSplitter.clauses(of: "嗯，看一下 /srv/data 占了多少空间，然后发个通知给我") == ["看一下 /srv/data 占了多少空间", "发个通知给我"])
        #expect(CompoundSplitter.clauses(of: "早上好，列出 /srv 然后通知我") == ["列出 /srv", "通知我"])
        // "设好之后": only that the step before is done.
        #expect(CompoundSplitter.clauses(of: "明天9点提醒我交报告，设好之后通知我") == ["明天9点提醒我交报告", "通知我"])
        #expect(SkeletonReadingTests.shapes("嗯，看一下 /srv/data 占了多少空间，然后发个通知给我").first == ["disk.usage", "notify.send"])
    }

    /// The action of the clause before said again with nothing new is one step, not two.
    @Test func anActionSaidAgainIsOneStep() {
        #expect(SkeletonReadingTests.shapes("提醒 7 已经办完了，标记为完成，然后通知我").first?.suffix(1) == ["notify.send"])
        #expect(SkeletonReadingTests.shapes("提醒 7 已经办完了，标记为完成，然后通知我").first?.count == 2)
        // (with a value of its own it is a step of its own)
        #expect(PlanSkeleton.holdsNoValue("标记为完成") && !PlanSkeleton.holdsNoValue("标记 8 为完成"))
    }
}
