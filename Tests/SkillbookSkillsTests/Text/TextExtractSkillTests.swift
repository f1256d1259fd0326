import SkillbookTesting
import Foundation
import SkillbookCore
import SkillbookSQLite
@testable import SkillbookSkills
import Testing

@Suite struct TextExtractSkillTests {
    @Test func returnsEveryMatchInOrder() async throws {
        try await withHarness { (harness) async throws in
            let output = try await harness.run(
                "text.extract", ["text": "Write to anna@example.com or bob.smith+x@mail.example.org today.",
                                 "regex": #"[\w.+-]+@[\w-]+\.[\w.]+\b"#])
            #expect(output == ["matches": ["anna@example.com", "bob.smith+x@mail.example.org"], "count": 2])
        }
    }

    @Test func groupPicksACaptureGroupAndSkipsMatchesWithoutIt() async throws {
        try await withHarness { (harness) async throws in
            let text = "Invoice #12 paid; invoice #345 open; INVOICE # none"
            let output = try await harness.run("text.extract", ["text": .string(text), "regex": #"(?i)invoice #(\d+)?"#, "group": 1])
            #expect(output == ["matches": ["12", "345"], "count": 2])
            let whole = try await harness.run("text.extract", ["text": .string(text), "regex": #"(?i)invoice #(\d+)"#])
            #expect(whole["matches"] == ["Invoice #12", "invoice #345"])
        }
    }

    @Test func noMatchesIsAnEmptyList() async throws {
        try await withHarness { (harness) async throws in
            #expect(try await harness.run("text.extract", ["text": "abc", "regex": #"\d"#]) == ["matches": [], "count": 0])
            #expect(try await harness.run("text.extract", ["text": "", "regex": "x"]) == ["matches": [], "count": 0])
        }
    }

    @Test func multilineAndUnicodeText() async throws {
        try await withHarness { (harness) async throws in
            let text = "TODO: buy milk\nnote: ok\nTODO: call 安娜 😀\n"
            let output = try await harness.run("text.extract", ["text": .string(text), "regex": "(?m)^TODO: (.*)$", "group": 1])
            #expect(output["matches"] == ["buy milk", "call 安娜 😀"])
            let emoji = try await harness.run("text.extract", ["text": "a😀b😀", "regex": "😀"])
            #expect(emoji["count"] == 2)
        }
    }

    @Test func aBadPatternIsAClearErrorNamingIt() async throws {
        try await withHarness { (harness) async throws in
            let skill = try harness.skill("text.extract")
            for (pattern, reason) in [("(abc", "expected ')'"), ("[z-a]", "'z'"), ("*x", "quantifier")] {
                let error = await #expect(throws: SkillError.self) {
                    _ = try await skill.run(["text": "abc", "regex": .string(pattern)], context: harness.context)
                }
                let message = try #require(error?.message)
                #expect(message.hasPrefix("regex '\(pattern)' is not a valid regular expression: "), "\(message)")
                #expect(message.contains(reason), "\(message)")
            }
        }
    }

    @Test func aGroupThePatternDoesNotHaveIsAClearError() async throws {
        try await withHarness { (harness) async throws in
            let skill = try harness.skill("text.extract")
            await #expect(
                throws: SkillError(
                    "regex '(a)(b)' has 2 capture groups, so there is no group 3; use 0 for the whole match or add "
                        + "parentheses around the part you want")
            ) {
                _ = try await skill.run(["text": "ab", "regex": "(a)(b)", "group": 3], context: harness.context)
            }
            await #expect(throws: SkillError.self) {
                _ = try await skill.run(["text": "ab", "regex": "ab", "group": 1], context: harness.context)
            }
        }
    }

    @Test func aRunawayPatternGivesUpWhenTheCallIsCancelled() async throws {
        try await withHarness { (harness) async throws in
            let skill = try harness.skill("text.extract")
            let context = harness.context
            // Exponential backtracking: a few seconds of matching that cannot be interrupted. Without
            // giving up on it the call would return (no matches) when it ends, not throw.
            let text = String(repeating: "a", count: 24) + "c"
            let task = Task { try await skill.run(["text": .string(text), "regex": "(a+)+b"], context: context) }
            try await Task.sleep(nanoseconds: 100_000_000)
            task.cancel()
            await #expect(throws: CancellationError.self) { _ = try await task.value }
        }
    }

    @Test func abandonedWorkIsNotWaitedFor() async throws {
        let started = Shared(false)
        let release = Shared(false)
        let finished = Shared(false)
        let task = Task {
            try await Abandonable.run { _ in
                started.withLock { $0 = true }
                while !release.withLock({ $0 }) { usleep(1000) }  // work that ignores cancellation
                finished.withLock { $0 = true }
                return 1
            }
        }
        while !started.withLock({ $0 }) { try await Task.sleep(nanoseconds: 1_000_000) }
        task.cancel()
        await #expect(throws: CancellationError.self) { _ = try await task.value }
        #expect(!finished.withLock { $0 })  // returned while the work was still running
        release.withLock { $0 = true }
        while !finished.withLock({ $0 }) { try await Task.sleep(nanoseconds: 1_000_000) }
    }

    @Test func cancelledBeforeItStartsTheWorkNeverRuns() async throws {
        let ran = Shared(false)
        let task = Task {
            while !Task.isCancelled { await Task.yield() }
            return try await Abandonable.run { _ in ran.withLock { $0 = true } }
        }
        task.cancel()
        await #expect(throws: CancellationError.self) { _ = try await task.value }
        #expect(!ran.withLock { $0 })
    }

    @Test func workThatFinishesReturnsItsResult() async throws {
        let value = try await Abandonable.run { stopped in stopped() ? -1 : 42 }
        #expect(value == 42)
    }
}
