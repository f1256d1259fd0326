import Foundation
import SkillbookCore
import SkillbookRuntime
import Testing

@testable import SkillbookCLI

@Suite struct EventPrinterTests {
    static let plan = StepPlan(
        step: "save", skill: "notes.create_many", kind: .action, ran: false, parameters: ["notes": [["title": "a"]]],
        batches: 3, confirm: true, reversible: true)

    /// One of every kind of event, with the line it prints.
    static let cases: [(RunEvent, String)] = {
        let start = Date(timeIntervalSince1970: 0)
        var report = StepReport(id: "mail", skill: "test.oneway", status: .notCompensated)
        report.compensationError = "cannot be undone"
        let result = RunResult(
            runID: "r1", playbook: "demo", status: .rollbackIncomplete, steps: [report], error: "step 'boom' failed: broke",
            started: start, finished: start.addingTimeInterval(1.5))
        return [
            (.runStarted(runID: "r1", playbook: "demo", inputs: ValueObject()), "▶ demo (run r1)"),
            (.stepStarted(step: "save", target: .skill("notes.create"), attempt: 1, parameters: ValueObject()), "  … save (notes.create)"),
            (.stepStarted(step: "save", target: .skill("notes.create"), attempt: 2, parameters: ValueObject()), "  … save (notes.create), attempt 2"),
            (.stepProgress(step: "save", completed: 2, total: 13, unit: .batches(items: 200, of: 1300)), "    save: batch 2/13 (200/1,300 items)"),
            (.stepProgress(step: "pages", completed: 3, total: 10, unit: .iterations), "    pages: item 3/10"),
            (.stepSkipped(step: "save", reason: "'when' is false"), "  - save skipped: 'when' is false"),
            (.stepRetrying(step: "save", attempt: 1, error: "flaky", delay: 2), "  ↻ save attempt 1 failed: flaky; retrying in 2s"),
            (.stepSucceeded(step: "save", output: .null, duration: 0.25), "  ✓ save 0.25s"),
            (.stepFailed(step: "boom", error: "broke", kind: .skill, willContinue: true), "  ✗ boom: broke (continuing)"),
            (
                .confirmationRequested(
                    ConfirmationRequest(step: "drop", skill: "notes.delete", summary: "Deletes.", parameters: ValueObject(), calls: 3)),
                "  ? drop (notes.delete) asks for confirmation (3 calls)"
            ),
            (.confirmationAnswered(step: "drop", answer: .approved), "  ✓ approved: drop"),
            (.confirmationAnswered(step: "drop", answer: .declined(reason: "declined")), "  ✗ not approved: drop"),
            (.stepPlanned(plan), "  " + DryRunText.line(plan)),
            (.compensationStarted(step: "save"), "  ↶ undoing save"),
            (.compensationSucceeded(step: "save"), "  ↶ save undone"),
            (.compensationFailed(step: "mail", error: "cannot be undone"), "  ! mail could not be undone: cannot be undone"),
            (
                .runFinished(result),
                "demo rollback_incomplete in 1.50s\n  step 'boom' failed: broke\n  not undone: mail: cannot be undone"
            ),
        ]
    }()

    @Test func everyEventHasAReadableLine() {
        for (event, expected) in Self.cases {
            let captured = CapturedOutput()
            EventPrinter(console: captured.console, json: false).print(event)
            #expect(captured.err == expected + "\n", "\(event.type)")
            #expect(captured.out.isEmpty)
        }
        let types = Set(Self.cases.map(\.0.type))
        #expect(types.count == 14, "every event type is covered: \(types.sorted())")
    }

    @Test func aPlannedStepPrintsItsDryRunLine() {
        #expect(DryRunText.line(Self.plan) == "save: notes.create_many (action) · would run · 3 batches · with notes: [{\"title\":\"a\"}] · asks for confirmation · can be rolled back")
        #expect(
            DryRunText.parameter("paths", .array((1...1_300).map { .string("/home/ada/in/f\($0).txt") }), base: "/home/ada")
                == "1,300 paths: in/f1.txt, in/f2.txt, … (1,298 more)")
        #expect(DryRunText.parameter("tags", ["a", "b", "c"], base: nil) == "tags: [\"a\",\"b\",\"c\"]")
        #expect(DryRunText.parameter("into", "/elsewhere/out", base: "/home/ada") == "into: /elsewhere/out")
    }

    @Test func withJSONEveryEventIsOneObjectOnStdout() {
        for (event, _) in Self.cases {
            let captured = CapturedOutput()
            EventPrinter(console: captured.console, json: true).print(event)
            #expect(captured.err.isEmpty)
            #expect(captured.out.hasPrefix("{\"type\":\"\(event.type)\""), "\(captured.out)")
            #expect(captured.out.filter { $0 == "\n" }.count == 1)
        }
    }
}
