import Foundation
import SkillbookAgent
import SkillbookCore
import SkillbookTesting
import Testing

/// The executing judge on hand-made plans: one right, and one of each wrong kind.
@Suite struct PlanRunJudgeTests {
    func judge(_ request: String, _ steps: (String, ValueObject)...) async throws -> PlanRunJudge.Verdict {
        let reference = try PlanJudgeTests.reference(request)
        let plan = Plan(steps: steps.enumerated().map { Plan.Step(id: "step\($0.offset + 1)", target: $0.element.0, with: $0.element.1) })
        return await sharedRunJudge.judge(.plan(plan), against: reference)
    }

    static let errors = "read /tmp/server.log, find the lines that start with ERROR and save them to /tmp/errors.txt"

    @Test func aRightPlanRunsAndIsCorrect() async throws {
        let verdict = try await judge(
            Self.errors,
            ("files.read", ["path": "/tmp/server.log"]),
            ("text.extract", ["text": "${{ steps.step1.output.content }}", "regex": "(?m)^ERROR[^\\n]*"]),
            ("text.join", ["items": "${{ steps.step2.output.matches }}", "separator": "\n"]),
            ("files.write", ["path": "/tmp/errors.txt", "content": "${{steps.step3.output.text}}"]))
        #expect(verdict == PlanRunJudge.Verdict(verdict: .right, ran: true))
    }

    @Test func aRegexThatFindsNothingInTheFixtureIsWrong() async throws {
        // A regex no lint can fault that matches no line of the fixture.
        let nothing = try await judge(
            Self.errors,
            ("files.read", ["path": "/tmp/server.log"]),
            ("text.extract", ["text": "${{ steps.step1.output.content }}", "regex": "(?m)^FATAL.*$"]),
            ("text.join", ["items": "${{ steps.step2.output.matches }}"]),
            ("files.write", ["path": "/tmp/errors.txt", "content": "${{ steps.step3.output.text }}"]))
        #expect(nothing.reason == #"step 2: "(?m)^FATAL.*$" finds nothing in the fixture (the reference finds 2)"#)
        #expect(nothing.ran)
    }

    @Test func aRegexTheLintFaultsIsWrongBeforeItRuns() async throws {
        // ^ and $ without (?m): only at the start and end of the whole text (PlanLint's RegexLint).
        let anchored = try await judge(
            Self.errors,
            ("files.read", ["path": "/tmp/server.log"]),
            ("text.extract", ["text": "${{ steps.step1.output.content }}", "regex": "^ERROR.*$"]),
            ("text.join", ["items": "${{ steps.step2.output.matches }}"]),
            ("files.write", ["path": "/tmp/errors.txt", "content": "${{ steps.step3.output.text }}"]))
        #expect(anchored.reason.hasPrefix("the plan does not check: "), "\(anchored.reason)")
        #expect(anchored.reason.contains("start it with (?m)"), "\(anchored.reason)")
        // \b written as a backspace (U+0008) by a JSON escape.
        let backspace = try await judge(
            "read /tmp/server.log, find the IP addresses and write them to /tmp/ips.txt",
            ("files.read", ["path": "/tmp/server.log"]),
            ("text.extract", ["text": "${{ steps.step1.output.content }}", "regex": "\u{8}\\d+\\.\\d+\\.\\d+\\.\\d+\u{8}"]),
            ("text.join", ["items": "${{ steps.step2.output.matches }}"]),
            ("files.write", ["path": "/tmp/ips.txt", "content": "${{ steps.step3.output.text }}"]))
        #expect(backspace.reason.hasPrefix("the plan does not check: "), "\(backspace.reason)")
        #expect(backspace.reason.lowercased().contains("backspace"), "\(backspace.reason)")
    }

    @Test func aPlanWhoseRunFailsIsWrong() async throws {
        // tar cannot change into a folder that does not exist.
        let verdict = try await judge(
            "list the files in /tmp/reports and archive them into /tmp/reports.tar.gz",
            ("files.list", ["root": "/tmp/reports"]),
            ("archive.create", ["archive": "/tmp/reports.tar.gz", "paths": "${{ steps.step1.output.items.*.path }}", "directory": "/tmp/nowhere"]))
        #expect(verdict.reason.hasPrefix("the plan's run rolled_back at step step2: "), "\(verdict.reason)")
        #expect(!verdict.reason.contains("skillbook-plan-scene"), "the scratch folder is not shown")
    }

    @Test func aPlanThatLeavesTheWorldOtherwiseIsWrong() async throws {
        // Only the first of the two PDFs is listed, so only it is copied.
        let verdict = try await judge(
            "list the pdf files in /tmp/downloads and copy them into /tmp/documents",
            ("files.list", ["root": "/tmp/downloads", "glob": "*.pdf", "limit": 1]),
            ("files.copy", ["paths": "${{ steps.step1.output.items.*.path }}", "into": "/tmp/documents"]))
        #expect(verdict.reason == "/tmp/documents/d.pdf is missing afterwards")
    }

    @Test func staticMistakesAreWrongBeforeAnythingRuns() async throws {
        let pack = "create the folder /tmp/release and pack /tmp/project into /tmp/release/project.tar.gz"
        let wired = try await judge(
            pack, ("files.mkdir", ["path": "/tmp/release"]),
            ("archive.create", ["archive": "/tmp/release/project.tar.gz", "paths": ["${{ steps.step1.output.path }}"]]))
        #expect(wired.reason.hasPrefix("step 2 paths: the reference"))
        #expect(!wired.ran)
        let order = try await judge(
            pack, ("archive.create", ["archive": "/tmp/release/project.tar.gz", "paths": ["/tmp/project"]]),
            ("files.mkdir", ["path": "/tmp/release"]))
        #expect(order.reason == #"skills ["archive.create", "files.mkdir"], expected ["files.mkdir", "archive.create"]"#)
        let late = try await judge(
            "list my reminders for next Friday and save them as a note titled Friday",
            ("reminders.list", ["due_on": "2026-12-05"]), ("notes.create", ["title": "Friday", "body": "${{ steps.step1.output.text }}"]))
        #expect(late.reason == #"step 1 due_on: "2026-12-05", expected "2026-12-04""#)
        let decline = try PlanJudgeTests.reference("play some jazz and dim the lights")
        let planned = await sharedRunJudge.judge(.plan(Plan(steps: [Plan.Step(id: "a", target: "notify.send", with: ["message": "jazz"])])), against: decline)
        #expect(planned.reason == #"planned ["notify.send"] instead of declining"#)
    }

    @Test func webStepsReadTheLocalPagesAndNotesAreCounted() async throws {
        let right = try await judge(
            "summarize https://example.com/post, then save its first paragraph to /tmp/post.txt",
            ("web.summary", ["url": "https://example.com/post"]),
            ("files.write", ["path": "/tmp/post.txt", "content": "${{ steps.step1.output.first_paragraph }}"]))
        #expect(right == PlanRunJudge.Verdict(verdict: .right, ran: true))
        // A note list cut to one: only one of the two notes tagged work is deleted.
        let one = try await judge(
            "list my notes tagged work and delete them",
            ("notes.list", ["tag": "work", "limit": 1]), ("notes.delete", ["ids": "${{ steps.step1.output.items.*.id }}"]))
        #expect(one.reason == "4 notes afterwards, expected 3")
    }
}
