import SkillbookAgent
import SkillbookCore
import Testing

/// Issue 26: a filter the model added to a query (notes.list `tag: "important"` for "list my notes").
@Suite struct InventedFilterLintTests {
    static func errors(_ steps: [Plan.Step], request: String) -> [String] {
        shippedChecker.check(Plan(steps: steps), name: "plan", description: request).diagnostics.filter { $0.severity == .error }.map(\.message)
    }

    static func plan(tag: String) -> [Plan.Step] {
        [
            Plan.Step(id: "s1", target: "notes.list", with: ["tag": .string(tag)]),
            Plan.Step(id: "s2", target: "text.join", with: ["items": "${{ steps.s1.output.items.*.title }}"]),
            Plan.Step(id: "s3", target: "files.write", with: ["path": "/tmp/titles.txt", "content": "${{ steps.s2.output.text }}"]),
        ]
    }

    @Test func aFilterWordTheRequestDoesNotNameIsAnError() {
        #expect(
            Self.errors(Self.plan(tag: "important"), request: "列出我的笔记然后把标题写入 /tmp/titles.txt") == [
                "step 's1' (notes.list) parameter 'tag' is 'important', which the request does not name; leave 'tag' out unless the request gives it"
            ])
    }

    @Test func aFilterTheRequestNamesIsFine() {
        #expect(Self.errors(Self.plan(tag: "ideas"), request: "列出标签为 ideas 的笔记然后把标题写入 /tmp/titles.txt").isEmpty)
        #expect(Self.errors(Self.plan(tag: "Ideas"), request: "list the notes tagged ideas and write their titles to /tmp/titles.txt").isEmpty)
        // A pattern is named in other words (".log files" is *.log): not judged.
        let list = Plan.Step(id: "s1", target: "files.list", with: ["root": "/tmp/logs", "glob": "*.log"])
        let move = Plan.Step(id: "s2", target: "files.move", with: ["paths": "${{ steps.s1.output.items.*.path }}", "into": "/tmp/old"])
        #expect(Self.errors([list, move], request: "find the .log files in /tmp/logs and move them into /tmp/old").isEmpty)
    }

    /// An identifier-like word ("my_note_tag") is as invented as a plain one, and the checker's
    /// fix leaves it out: the plan then passes without asking the model again.
    @Test func anInventedFilterIsLeftOutByTheFix() throws {
        let request = "列出我的笔记然后把标题写入 /tmp/titles.txt"
        #expect(
            Self.errors(Self.plan(tag: "my_note_tag"), request: request) == [
                "step 's1' (notes.list) parameter 'tag' is 'my_note_tag', which the request does not name; leave 'tag' out unless the request gives it"
            ])
        let fixed = try #require(shippedChecker.fixed(Plan(steps: Self.plan(tag: "my_note_tag")), description: request))
        #expect(fixed.steps[0].with["tag"] == nil)
        #expect(shippedChecker.check(fixed, name: "plan", description: request).passes)
    }
}
