import SkillbookAgent
import SkillbookCore
import Testing

/// A one-clause request whose content names what a list query gives ("write my reminders for
/// tomorrow to F") is that query and the action, not the action writing those words.
@Suite struct ListedObjectTests {
    @Test func wordsNamingAListAreThatListsOutput() throws {
        let english = try #require(shippedMatcher.listedObject(in: "write my reminders for tomorrow to /tmp/r.txt", clock: berlinClock))
        #expect(english.list == "list my reminders for tomorrow")
        #expect(english.rest == "write them to /tmp/r.txt")
        #expect(english.query == "reminders.list")
        let chinese = try #require(shippedMatcher.listedObject(in: "把标签为 读书 的笔记写入 /tmp/读书.txt", clock: berlinClock))
        #expect(chinese.list == "列出标签为 读书 的笔记")
        #expect(chinese.rest == "把它们写入 /tmp/读书.txt")
        #expect(chinese.query == "notes.list")
    }

    @Test func theRequestIsPlannedAsAListAndTheAction() {
        let decision = shippedMatcher.decide("save the notes tagged work to /tmp/w.txt", clock: berlinClock)
        #expect(decision.layer == .plan)
        #expect(decision.clauses == ["list the notes tagged work", "save them to /tmp/w.txt"])
        #expect(
            PlanSkeletonTests.shapes(PlanSkeletonTests.skeleton("write my reminders for tomorrow to /tmp/r.txt"))
                == [["reminders.list", "files.write"]])
        #expect(
            PlanSkeletonTests.shapes(PlanSkeletonTests.skeleton("把标签为 读书 的笔记写入 /tmp/读书.txt"))
                == [["notes.list", "files.write"], ["notes.list", "text.join", "files.write"]])
    }

    @Test func filesDescribedForAPathParameterAreListedFirst() throws {
        let english = try #require(shippedMatcher.listedObject(in: "move all .tmp files from /tmp/cache to /tmp/trash-bin", clock: berlinClock))
        #expect(english.list == "list all .tmp files from /tmp/cache")
        #expect(english.rest == "move them to /tmp/trash-bin")
        #expect(english.query == "files.list")
        let chinese = try #require(shippedMatcher.listedObject(in: "把 /tmp/照片 里所有 jpg 文件复制到 /tmp/备份", clock: berlinClock))
        #expect(chinese.list == "列出/tmp/照片 里所有 jpg 文件")
        #expect(chinese.query == "files.list")
        // "都" before the verb, "里的"/"里所有的", and a delete said with 删除 alone.
        for (request, glob, action) in [
            ("帮我把 /tmp/截图 里的 png 文件都移动到 /tmp/图片", "*.png", "files.move"), ("删除 /tmp/临时 里所有的 log 文件", "*.log", "files.delete"),
        ] {
            let decision = shippedMatcher.decide(request, clock: berlinClock)
            #expect(decision.layer == .plan && decision.candidates.map(\.target) == ["files.list", action], "\(RoutingSet.describe(decision))")
            #expect(decision.candidates.first?.inputs["glob"] == .string(glob))
        }
        let decision = shippedMatcher.decide("move all .tmp files from /tmp/cache to /tmp/trash-bin", clock: berlinClock)
        #expect(decision.layer == .plan)
        #expect(decision.candidates.map(\.target) == ["files.list", "files.move"])
        // A path, even one with a space in it, is a path.
        #expect(shippedMatcher.listedObject(in: "move /tmp/old report.pdf into /tmp/x", clock: berlinClock) == nil)
        #expect(shippedMatcher.listedObject(in: "copy /tmp/a.txt to /tmp/b", clock: berlinClock) == nil)
    }

    @Test func wordsToWriteStayTheContent() {
        #expect(shippedMatcher.listedObject(in: "write hello world to /tmp/x.txt", clock: berlinClock) == nil)
        let decision = shippedMatcher.decide("write hello world to /tmp/x.txt", clock: berlinClock)
        #expect(decision.target == "files.write")
        #expect(decision.inputs["content"] == "hello world")
        // A list query itself, and a short label (a note's title), are not read so.
        #expect(shippedMatcher.listedObject(in: "list my notes tagged work", clock: berlinClock) == nil)
        #expect(shippedMatcher.listedObject(in: "create a note called my reminders for tomorrow", clock: berlinClock) == nil)
    }
}
