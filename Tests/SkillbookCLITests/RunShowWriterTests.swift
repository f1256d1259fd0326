import Foundation
@testable import SkillbookCLI
import SkillbookCore
import SkillbookHost
import Testing

/// `runs show --json` writes each call's text itself (no dictionary per call): the same text as
/// the record's encoder writes.
@Suite struct RunShowWriterTests {
    @Test func aCallsTextIsWhatTheEncoderWrites() {
        let started = Date(timeIntervalSince1970: 1_764_000_000.123)
        let calls = [
            JournalCall(
                key: CallKey(step: StepPath(parsing: "each"), iteration: 4), skill: "debug.echo", attempt: 1,
                parameters: ["value": 4, "nested": ["a": [1, "two", .null]]], output: ["value": 4], error: nil, started: started,
                finished: started.addingTimeInterval(0.25), compensated: false, order: 5),
            JournalCall(
                key: CallKey(step: StepPath(parsing: "sub/write"), batch: 2), skill: "files.write", attempt: 3,
                parameters: [:], output: nil, error: "no \"room\"\n\tleft", started: started, finished: started, compensated: true, order: 6),
            JournalCall(
                key: CallKey(step: StepPath(parsing: "one")), skill: "notes.create", attempt: 1, parameters: ["title": "ü ✓"],
                output: nil, error: nil, started: started, finished: nil, compensated: false, order: 7),
        ]
        for call in calls {
            #expect(RunShowWriter.callJSON(call) == JSONText.encode(.object(RunTimelineJSON.call(call)), pretty: true, indent: 2))
        }
    }
}

/// The rollback plan puts a step's consecutive items on one line.
@Suite struct RollbackPlanTextTests {
    @Test func consecutiveItemsOfAStepAreOneLine() {
        func item(_ step: String, _ iteration: Int?, _ skill: String = "files.write") -> RollbackPreview.Item {
            RollbackPreview.Item(key: CallKey(step: StepPath(parsing: step), iteration: iteration), skill: skill, byRollbackSteps: false)
        }
        let items = [item("each", 2), item("each", 1), item("each", 0), item("one", nil), item("two", nil), item("each", 5, "notes.create")]
        let lines = NoticeText.grouped(items).map(\.keys)
        #expect(lines == ["each[item 3] … each[item 1] (3 items)", "one", "two", "each[item 6]"])
    }
}
