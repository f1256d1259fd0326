import Foundation
import SkillbookCore
import SkillbookRuntime
import SkillbookSkills
import SkillbookTesting
import Testing

@testable import SkillbookCLI

/// What a renderer wrote to stderr, one entry per write: each live frame is one write.
private final class Screen: Sendable {
    let writes = Recorder<String>()

    func console(columns: Int = 100, rows: Int = 40, colors: Bool = true) -> Console {
        Console(
            writeOut: { _ in }, writeErr: { [writes] in writes.append($0) }, stderrIsTerminal: true, colors: colors,
            terminalSize: { (columns, rows) })
    }

    /// The frames drawn in place (writes that start by returning to the frame's first line), without ANSI codes.
    var frames: [[String]] {
        writes.values.filter { $0.hasPrefix("\r") && $0.contains("\u{1B}[2K") }.map(lines)
    }

    /// The last write: the final frame once the renderer finished.
    var last: [String] { writes.values.last.map(lines) ?? [] }

    func lines(_ text: String) -> [String] {
        stripANSI(text).split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
            .filter { !$0.isEmpty }
    }
}

/// Removes ANSI escape sequences (cursor movement, line clearing, colours) and carriage returns.
func stripANSI(_ text: String) -> String {
    var result = ""
    var iterator = text.unicodeScalars.makeIterator()
    while let scalar = iterator.next() {
        if scalar == "\u{1B}" {
            // CSI: ESC [ parameters… final byte in @…~
            guard iterator.next() == "[" else { continue }
            while let next = iterator.next(), !(0x40...0x7E).contains(next.value) {}
        } else if scalar != "\r" {
            result.unicodeScalars.append(scalar)
        }
    }
    return result
}

/// The line of step `id` in a frame: its symbol, then the id.
private func line(_ id: String, in frame: [String]) -> String? {
    frame.lazy.map { String($0.drop { $0 == " " }) }.first { line in
        let words = line.split(separator: " ")
        return words.count >= 2 && words[1] == id
    }
}

private func batchedSkill(body: @escaping @Sendable (Int) async throws -> Void = { _ in }) -> ClosureSkill {
    ClosureSkill.action(
        "test.batched", parameters: .object(["items": .array(.integer(), maxItems: 10)], required: ["items"]),
        run: { parameters, _ in
            guard case .array(let items)? = parameters["items"] else { throw SkillError("no items") }
            try await body(items.count)
            return ["count": .int(items.count)]
        },
        compensate: { _ in })
}

private func items(_ count: Int) -> String {
    "[" + (1...count).map(String.init).joined(separator: ", ") + "]"
}

/// A state directory with the built-in skills plus fakes, for real engine runs.
private final class Fixture {
    let state = FileManager.default.temporaryDirectory.appendingPathComponent("skillbook-live-\(UUID().uuidString)")
    let registry: SkillRegistry

    init(extra: [any Skill] = []) throws {
        registry = try SkillRegistry(BuiltinSkills.all(environment: SkillEnvironment(stateDirectory: state)) + extra)
    }

    deinit {
        try? FileManager.default.removeItem(at: state)
    }

    func load(_ yaml: String) throws -> Playbook {
        let result = PlaybookLoader(registry: registry).load(yaml, file: "test.yaml")
        #expect(!result.diagnostics.hasErrors, "\(result.diagnostics)")
        return try #require(result.playbook)
    }

    /// Its own resource locks: runs of other tests in this process write notes too.
    var engine: Engine { Engine(registry: registry, environment: .test(), resources: ResourceLocks()) }
}

@Suite @MainActor struct LiveRendererTests {
    static let playbook = """
        name: live
        steps:
          - { id: first, skill: debug.echo, with: { value: 1 } }
          - { id: many, skill: test.batched, with: { items: \(items(250)) } }
          - { id: save, skill: notes.create, with: { title: later } }
        """

    @Test func framesShowTheSpinnerElapsedTimeAndAProgressBar() throws {
        let fixture = try Fixture(extra: [batchedSkill()])
        let playbook = try fixture.load(Self.playbook)
        let clock = ManualClock()
        let screen = Screen()
        let renderer = LiveRenderer(session: RunSession(playbook: playbook, clock: clock), console: screen.console(), clock: clock)

        renderer.handle(.runStarted(runID: "r1", playbook: "live", inputs: ValueObject()))
        #expect(stripANSI(screen.writes.values.joined()).contains("▶ live (run r1)"))
        let pending = try #require(screen.frames.last)
        #expect(pending.count == 3)
        #expect(line("first", in: pending)?.hasPrefix("· first") == true)

        renderer.handle(.stepStarted(step: "first", target: .skill("debug.echo"), attempt: 1, parameters: ValueObject()))
        clock.advance(0.2)
        renderer.handle(.stepSucceeded(step: "first", output: .null, duration: 0.2))
        renderer.handle(.stepStarted(step: "many", target: .skill("test.batched"), attempt: 1, parameters: ValueObject()))
        clock.advance(1.2)
        renderer.handle(.stepProgress(step: "many", completed: 13, total: 25))

        let frame = try #require(screen.frames.last)
        #expect(frame.count == 3)
        #expect(line("first", in: frame)?.hasPrefix("✓ first") == true)
        #expect(line("first", in: frame)?.contains("succeeded in 0.2s") == true)
        let many = try #require(line("many", in: frame))
        #expect(LiveRenderer.spinner.contains(many.first!), "\(many)")
        #expect(many.contains("test.batched"))
        #expect(many.contains("1.2s"))
        #expect(many.contains("[######......] 13/25"))
        #expect(line("save", in: frame)?.hasPrefix("· save") == true)

        // The spinner turns as time passes, without events.
        clock.advance(0.1)
        renderer.tick()
        let next = try #require(line("many", in: screen.frames.last ?? []))
        #expect(next.first != many.first)
        #expect(next.contains("1.3s"))
    }

    @Test func redrawsAreThrottled() throws {
        let fixture = try Fixture(extra: [batchedSkill()])
        let clock = ManualClock()
        let screen = Screen()
        let renderer = LiveRenderer(
            session: RunSession(playbook: try fixture.load(Self.playbook), clock: clock), console: screen.console(), clock: clock)
        renderer.handle(.runStarted(runID: "r1", playbook: "live", inputs: ValueObject()))
        renderer.handle(.stepStarted(step: "many", target: .skill("test.batched"), attempt: 1, parameters: ValueObject()))
        let before = screen.frames.count
        for done in 1...25 {
            renderer.handle(.stepProgress(step: "many", completed: done, total: 25))
            clock.advance(0.001)
        }
        #expect(screen.frames.count == before, "25 events in 25 ms draw nothing new")
        clock.advance(0.1)
        renderer.tick()
        #expect(screen.frames.count == before + 1)
        #expect(line("many", in: screen.frames.last ?? [])?.contains("[############] 25/25") == true)
        renderer.tick()
        #expect(screen.frames.count == before + 1, "a tick right after a frame waits")
    }

    @Test func aRealBatchedRunDrawsItsProgressAndEveryStepAtTheEnd() async throws {
        let clock = ManualClock()
        let handled = Recorder<Int>()
        let calls = Recorder<Int>()
        // Each batch waits until the previous one is drawn, then lets 0.2 s pass: every batch gets a frame.
        let skill = batchedSkill { _ in
            calls.append(1)
            let number = calls.values.count
            while (handled.values.last ?? 0) < number - 1 { try await Task.sleep(nanoseconds: 1_000_000) }
            clock.advance(0.2)
        }
        let fixture = try Fixture(extra: [skill])
        let playbook = try fixture.load(Self.playbook)
        let screen = Screen()
        let renderer = LiveRenderer(session: RunSession(playbook: playbook, clock: clock), console: screen.console(), clock: clock)
        let handle = fixture.engine.events(playbook, inputs: ValueObject())
        for await event in handle.events {
            renderer.handle(event)
            if case .stepProgress(_, let completed, _) = event { handled.append(completed) }
        }
        #expect(await handle.result.value.status == .succeeded)
        #expect(calls.values.count == 25)

        let bars = screen.frames.compactMap { line("many", in: $0) }.filter { $0.contains("[") }
        #expect(bars.contains { $0.contains("[######......] 13/25") }, "\(bars)")
        #expect(bars.contains { $0.contains("[############] 25/25") || $0.contains("] 24/25") })
        #expect(bars.allSatisfy { LiveRenderer.spinner.contains($0.first!) })
        #expect(bars.allSatisfy { $0.range(of: #"\d+\.\ds"#, options: .regularExpression) != nil }, "elapsed time")

        let final = screen.last
        #expect(line("first", in: final)?.hasPrefix("✓ first") == true)
        #expect(line("many", in: final)?.contains("succeeded in 0.0s  25/25") == true, "\(final)")
        #expect(line("save", in: final)?.contains("succeeded") == true)
        #expect(final.last?.hasPrefix("live succeeded in ") == true)
        #expect(final.count == 4)
    }

    @Test func theFinalFrameListsEveryStepWithItsFinalState() async throws {
        let fixture = try Fixture()
        let notes = (1...120).map { "{ title: \"note \($0)\" }" }.joined(separator: ", ")
        let playbook = try fixture.load(
            """
            name: undone
            steps:
              - { id: look, skill: notes.list }
              - { id: many, skill: notes.create_many, with: { notes: [\(notes)] } }
              - { id: skip, skill: debug.echo, when: "${{ false }}", with: { value: 1 } }
              - { id: boom, skill: debug.fail, with: { message: "it broke" } }
              - { id: never, skill: debug.echo, with: { value: 1 } }
            """)
        let screen = Screen()
        let clock = ManualClock()
        let renderer = LiveRenderer(session: RunSession(playbook: playbook, clock: clock), console: screen.console(), clock: clock)
        let handle = fixture.engine.events(playbook, inputs: ValueObject())
        await renderer.run(handle.events)
        #expect(await handle.result.value.status == .rolledBack)
        #expect(renderer.isFinished)

        let final = screen.last
        #expect(final.count == 7, "\(final)")
        #expect(line("look", in: final)?.hasPrefix("✓ look") == true)
        #expect(line("look", in: final)?.contains("succeeded") == true)
        #expect(line("many", in: final)?.hasPrefix("↶ many") == true)
        #expect(line("many", in: final)?.contains("rolled back") == true)
        #expect(line("skip", in: final)?.hasSuffix("skipped") == true)
        #expect(line("boom", in: final)?.hasPrefix("✗ boom") == true)
        #expect(line("boom", in: final)?.hasSuffix("failed in 0.0s: it broke") == true)
        #expect(line("never", in: final)?.hasSuffix("not run") == true)
        #expect(final[5].hasPrefix("undone rolled_back in "))
        #expect(final[6] == "  step 'boom' failed: it broke")
        #expect(screen.writes.values.last?.contains("\u{1B}[") == true, "the final frame is coloured on a colour terminal")
        // Written once: nothing after it, and no earlier write carries the summary.
        #expect(screen.writes.values.filter { stripANSI($0).contains("rolled_back in") }.count == 1)
    }

    @Test func aStepThatCouldNotBeUndoneSaysWhy() throws {
        let screen = Screen()
        let renderer = LiveRenderer(session: RunSession(), console: screen.console(colors: false))
        let start = Date(timeIntervalSince1970: 0)
        renderer.handle(.runStarted(runID: "r", playbook: "p", inputs: ValueObject()))
        renderer.handle(.stepStarted(step: "mail", target: .skill("test.oneway"), attempt: 1, parameters: ValueObject()))
        renderer.handle(.stepSucceeded(step: "mail", output: .null, duration: 0.25))
        renderer.handle(.stepStarted(step: "boom", target: .skill("debug.fail"), attempt: 1, parameters: ValueObject()))
        renderer.handle(.stepFailed(step: "boom", error: "broke", kind: .skill, willContinue: false))
        renderer.handle(.compensationFailed(step: "mail", error: "skill 'test.oneway' cannot be undone"))
        var reports = [StepReport(id: "mail", skill: "test.oneway", status: .notCompensated)]
        reports[0].compensationError = "skill 'test.oneway' cannot be undone"
        reports.append(StepReport(id: "boom", skill: "debug.fail", status: .failed))
        renderer.handle(
            .runFinished(
                RunResult(
                    runID: "r", playbook: "p", status: .rollbackIncomplete, steps: reports, error: "step 'boom' failed: broke",
                    started: start, finished: start.addingTimeInterval(1))))
        #expect(
            screen.last == [
                "  ! mail  test.oneway  not rolled back: skill 'test.oneway' cannot be undone",
                "  ✗ boom  debug.fail   failed in 0.0s: broke",
                "p rollback_incomplete in 1.00s",
                "  step 'boom' failed: broke",
            ])
        #expect(!screen.writes.values.joined().contains("\u{1B}[3"), "no colours when the console has none")
    }

    @Test func rollingBackIsShownUnderTheSteps() throws {
        let screen = Screen()
        let clock = ManualClock()
        let renderer = LiveRenderer(session: RunSession(clock: clock), console: screen.console(), clock: clock)
        renderer.handle(.runStarted(runID: "r", playbook: "p", inputs: ValueObject()))
        renderer.handle(.stepStarted(step: "save", target: .skill("notes.create"), attempt: 1, parameters: ValueObject()))
        renderer.handle(.stepSucceeded(step: "save", output: .null, duration: 0.1))
        clock.advance(1)
        renderer.handle(.compensationStarted(step: "save"))
        #expect(screen.frames.last?.last == "  ↶ rolling back: undoing save")
    }

    @Test func aLongPlaybookShowsAWindowThatFitsTheTerminal() throws {
        let steps = (1...40).map { "  - { id: step_\($0), skill: debug.echo, with: { value: \"a rather long value for step \($0)\" } }" }
        let fixture = try Fixture()
        let playbook = try fixture.load("name: long\nsteps:\n" + steps.joined(separator: "\n"))
        let clock = ManualClock()
        let screen = Screen()
        let renderer = LiveRenderer(
            session: RunSession(playbook: playbook, clock: clock), console: screen.console(columns: 30, rows: 12), clock: clock)
        renderer.handle(.runStarted(runID: "r", playbook: "long", inputs: ValueObject()))
        for number in 1...20 {
            clock.advance(0.5)
            renderer.handle(.stepStarted(step: StepPath(step: "step_\(number)"), target: .skill("debug.echo"), attempt: 1, parameters: ValueObject()))
            if number < 20 { renderer.handle(.stepSucceeded(step: StepPath(step: "step_\(number)"), output: .null, duration: 0.5)) }
        }
        let frame = try #require(screen.frames.last)
        #expect(frame.count <= 10, "\(frame)")
        #expect(frame.allSatisfy { $0.count <= 29 }, "\(frame)")
        #expect(frame.first == "  ⋯ 17 more")
        #expect(frame.last == "  ⋯ 15 more")
        #expect(frame.contains { $0.contains("step_20") }, "the running step stays in view")
    }

    @Test func pausingClearsTheFrameAndDrawsNothingUntilResumed() throws {
        let screen = Screen()
        let clock = ManualClock()
        let renderer = LiveRenderer(session: RunSession(clock: clock), console: screen.console(), clock: clock)
        renderer.handle(.runStarted(runID: "r", playbook: "p", inputs: ValueObject()))
        clock.advance(1)
        renderer.handle(.stepStarted(step: "drop", target: .skill("notes.delete"), attempt: 1, parameters: ValueObject()))
        renderer.pause()
        #expect(screen.writes.values.last == "\r\u{1B}[1A\u{1B}[J", "the frame is cleared for the prompt")
        let written = screen.writes.values.count
        clock.advance(1)
        renderer.tick()
        renderer.handle(.confirmationAnswered(step: "drop", answer: .approved))
        #expect(screen.writes.values.count == written)
        renderer.resume()
        let resumed = try #require(screen.writes.values.last)
        #expect(!resumed.contains("\u{1B}[1A"), "the new frame starts below the prompt instead of over it")
        #expect(stripANSI(resumed).contains("drop"))
    }

    @Test func aLinePrintedAboveMovesTheFrameDown() throws {
        let screen = Screen()
        let renderer = LiveRenderer(session: RunSession(), console: screen.console())
        renderer.handle(.runStarted(runID: "r", playbook: "p", inputs: ValueObject()))
        renderer.handle(.stepStarted(step: "nap", target: .skill("debug.sleep"), attempt: 1, parameters: ValueObject()))
        renderer.printAbove("skillbook: interrupted; rolling back")
        let text = screen.writes.values.suffix(3).joined()
        let stripped = stripANSI(text)
        #expect(stripped.contains("skillbook: interrupted; rolling back\n"))
        #expect(stripped.hasSuffix("nap  debug.sleep  0.0s\n"), "\(stripped)")
    }

    @Test func aDryRunEndsWithThePlanOfEachStep() async throws {
        let fixture = try Fixture()
        let playbook = try fixture.load(
            """
            name: planned
            steps:
              - { id: look, skill: notes.list }
              - { id: save, skill: notes.create, with: { title: only planned } }
            """)
        let screen = Screen()
        let renderer = LiveRenderer(session: RunSession(playbook: playbook), console: screen.console(colors: false))
        await renderer.run(fixture.engine.events(playbook, inputs: ValueObject(), dryRun: true).events)
        #expect(screen.last.count == 3, "\(screen.last)")
        #expect(line("look:", in: screen.last)?.hasPrefix("✓ look: notes.list (query) · ran (read-only)") == true)
        #expect(line("save:", in: screen.last)?.hasPrefix("○ save: notes.create (action) · would run") == true)
    }

    @Test func theRunCommandDrawsLiveOnATerminalAndPlainLinesOtherwise() async throws {
        let directory = TemporaryDirectory()
        directory.write(
            "Playbooks/live.yaml",
            """
            name: live
            steps:
              - { id: hello, skill: debug.echo, with: { value: hi } }
              - { id: save, skill: notes.create, with: { title: from the live test } }
            outputs:
              said: "${{ steps.hello.output.value }}"
            """)
        func run(terminal: Bool, json: Bool = false, term: String? = nil) async -> (code: Int32, out: String, err: String) {
            let captured = CapturedOutput()
            var console = captured.console
            console.stderrIsTerminal = terminal
            let code = await SkillbookCLI.run(
                ["run", "live"] + (json ? ["--json"] : []) + ["--state", directory.state.path, "--playbooks", directory.playbooks.path],
                console: console, environment: term.map { ["TERM": $0] } ?? [:], currentDirectory: directory.url)
            return (code, captured.out, captured.err)
        }

        let live = await run(terminal: true)
        #expect(live.code == 0)
        let final = stripANSI(live.err)
        #expect(final.contains("▶ live (run "))
        #expect(final.contains("✓ hello  debug.echo    succeeded in "), "\(final)")
        #expect(final.contains("✓ save   notes.create  succeeded in "))
        #expect(final.contains("live succeeded in "))
        #expect(live.err.contains("\u{1B}[2K"), "drawn in place")
        #expect(!final.contains("… hello (debug.echo)"), "no plain event lines")
        #expect(live.out.contains("\"said\": \"hi\""))

        let plain = await run(terminal: false)
        #expect(plain.code == 0)
        #expect(plain.err.contains("  … hello (debug.echo)"))
        #expect(!plain.err.contains("\u{1B}["))

        let dumb = await run(terminal: true, term: "dumb")
        #expect(dumb.err.contains("  … hello (debug.echo)"), "a dumb terminal cannot redraw: plain lines")
        #expect(!dumb.err.contains("\u{1B}[2K"))

        let json = await run(terminal: true, json: true)
        #expect(json.code == 0)
        #expect(json.err.isEmpty)
        #expect(json.out.split(separator: "\n").allSatisfy { $0.hasPrefix("{\"type\":") })
    }
}
