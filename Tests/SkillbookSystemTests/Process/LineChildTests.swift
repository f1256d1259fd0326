import Foundation
import SkillbookCore
import SkillbookSystem
import Testing

/// `ProcessRunner.start`: a long-lived child spoken to in lines, against real processes.
@Suite struct LineChildTests {
    let runner = ProcessRunner()

    /// The next line the child prints, or `nil` when its stdout ended.
    func nextLine(_ iterator: inout AsyncStream<String>.AsyncIterator) async -> String? {
        await iterator.next()
    }

    @Test func linesWrittenComeBackInOrderAndTheEndOfInputEndsTheChild() async throws {
        let child = try await runner.start(ProcessRequest(["cat"]))
        var lines = child.lines.makeAsyncIterator()
        try await child.write(line: "first")
        #expect(await nextLine(&lines) == "first")
        try await child.write(line: "second line, with spaces")
        try await child.write(line: "")
        #expect(await nextLine(&lines) == "second line, with spaces")
        #expect(await nextLine(&lines) == "")
        child.closeInput()
        #expect(await nextLine(&lines) == nil)
        #expect(await child.exit() == .exited(0))
        await #expect(throws: RunningProcessError.inputClosed(command: "cat")) { try await child.write(line: "late") }
    }

    @Test func aReplyingChildAnswersEachRequest() async throws {
        let script = """
            import sys
            for line in sys.stdin:
                print("echo:" + line.strip().upper(), flush=True)
                print("log " + line.strip(), file=sys.stderr, flush=True)
            """
        let child = try await runner.start(ProcessRequest(["python3", "-c", script]))
        var lines = child.lines.makeAsyncIterator()
        for word in ["alpha", "beta", "gamma"] {
            try await child.write(line: word)
            #expect(await nextLine(&lines) == "echo:" + word.uppercased())
        }
        child.closeInput()
        #expect(await nextLine(&lines) == nil)
        #expect(await child.exit() == .exited(0))
        #expect(child.errorTail == "log alpha\nlog beta\nlog gamma\n")
    }

    @Test func crlfEndingsAndALastLineWithoutABreakAreLines() async throws {
        let child = try await runner.start(ProcessRequest(["printf", "one\\r\\ntwo\\nthree"]))
        var collected: [String] = []
        for await line in child.lines { collected.append(line) }
        #expect(collected == ["one", "two", "three"])
        #expect(await child.exit() == .exited(0))
    }

    @Test func aLongLineIsCutAtTheLimit() async throws {
        let child = try await runner.start(ProcessRequest(["sh", "-c", "printf '%0100d\\nshort\\n' 0"], outputLimit: 10))
        var collected: [String] = []
        for await line in child.lines { collected.append(line) }
        #expect(collected == [String(repeating: "0", count: 10), "short"])
    }

    @Test func terminateStopsAChildThatIgnoresItsInput() async throws {
        let started = Date()
        let child = try await runner.start(ProcessRequest(["sleep", "30"]))
        child.terminate()
        #expect(await child.exit() == .signalled(SIGTERM))
        #expect(Date().timeIntervalSince(started) < 10)
        await #expect(throws: RunningProcessError.inputClosed(command: "sleep")) { try await child.write(line: "x") }
    }

    @Test func whatIgnoresSigtermIsKilledAfterTheGracePeriod() async throws {
        let child = try await runner.start(
            ProcessRequest(["sh", "-c", "trap '' TERM; echo ready; while :; do sleep 0.05; done"], killGracePeriod: 0.2))
        var lines = child.lines.makeAsyncIterator()
        #expect(await nextLine(&lines) == "ready")
        child.terminate()
        #expect(await child.exit() == .signalled(SIGKILL))
    }

    @Test func cancellingTheWaitStopsTheChild() async throws {
        let child = try await runner.start(ProcessRequest(["sleep", "30"]))
        let waiter = Task { await child.exit() }
        waiter.cancel()
        #expect(await waiter.value == .signalled(SIGTERM))
    }

    @Test func aMissingCommandIsNotStarted() async {
        await #expect(throws: ProcessRunnerError.commandNotFound("no-such-command-xyz", searchPath: runner.searchPath)) {
            _ = try await runner.start(ProcessRequest(["no-such-command-xyz"]))
        }
    }
}
