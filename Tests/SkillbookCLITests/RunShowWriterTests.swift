import Foundation
@testable import SkillbookCLI
import SkillbookCore
import SkillbookHost
import SkillbookPostgres
import SkillbookSQLite
import SkillbookTesting
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
            var bytes: [UInt8] = []
            var writer = CallJSONWriter()
            writer.append(StoredCall(call), to: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == JSONText.encode(.object(RunTimelineJSON.call(call)), pretty: true, indent: 2))
        }
    }
}

/// `runs show --json` of a run read as stored: byte for byte the record decoded and encoded again,
/// on both backends, whatever the calls hold.
@Suite struct RunShowJSONTests {
    static let secret = "hunter2-very-secret"
    /// 8 KiB: kept apart in the journal's blobs.
    static let long = String(repeating: "0123456789abcdé\n", count: 512)

    /// What each call of the run holds: parameters, and output (`nil`: the process died during it).
    static func calls() -> [(parameters: ValueObject, output: Value?, masked: Bool)] {
        let redactor = Redactor(secrets: [secret])
        let cut = JournalValueLimit(bytes: 64, keptBytes: 16).bounded(["body": .string(String(repeating: "x", count: 500))])
        return [
            (["value": 1], ["value": 1], false),
            (["nested": ["a": [1, "two", .null, [:], []], "b": ["c": ["d": true]]]], ["list": [[1], [2, [3]]]], false),
            (
                ["text": "quote \" backslash \\ newline \n tab \t bell \u{7} ü ✓ 😀 e\u{301}", "key \"odd\"\n": "x"],
                ["é": "composed", "e\u{301}": "decomposed"], false
            ),
            (
                ["numbers": [0, -7, .int(Int.max), .int(Int.min), .double(0.1), .double(-2.5e-8), .double(1e15), .double(1.5e300), .double(2.0)]],
                .double(123_456.789), false
            ),
            (
                redactor.redact(["token": .string(secret), "url": .string("https://x.test/?k=\(secret)")] as ValueObject),
                redactor.redact(["echo": .string(secret)] as Value), true
            ),
            (["content": .string(long), "\u{0}odd key": "kept apart from a reference"], ["text": .string(long), "size": 8192], false),
            (cut.value.objectValue ?? [:], cut.value, true),
            (["dies": true], nil, false),
            ([:], .null, false),
            (["array output": true], [1, "two"], false),
        ]
    }

    /// Rows edited to texts the writer does not write: they take the long way.
    static let edited: [(iteration: Int, parameters: String)] = [
        (0, #"{ "b" : 1.50, "a": [1E2, "\u00e9\/", -0] }"#),
        (1, #"{"dup":1,"dup":2}"#),
    ]

    @Test(arguments: Backend.allCases)
    func theJSONIsTheRecordDecodedAndEncodedAgain(_ backend: Backend) async throws {
        let state = try await backend.makeState()
        let journal = try state.journal()
        let started = Date(timeIntervalSince1970: 1_764_000_000.125)
        try await journal.runStarted(.sample("r1", started: started))
        for (index, call) in Self.calls().enumerated() {
            var record = CallRecord(
                runID: "r1", key: CallKey(step: StepPath(parsing: "each"), iteration: index), skill: "debug.echo", attempt: 1,
                parameters: call.parameters, started: started.addingTimeInterval(Double(index)), hasEffects: index % 2 == 0)
            try await journal.callStarted(record)
            guard let output = call.output else { continue }
            record.outputMasked = call.masked
            try await journal.callFinished(record, output: output, error: index == 9 ? "half \"done\"\n" : nil, finished: record.started.addingTimeInterval(0.25))
        }
        try await journal.runFinished(finished("r1", .failed, error: "one died"))
        for edit in Self.edited {
            try Self.run(state, "UPDATE calls SET parameters = '\(edit.parameters)' WHERE iteration = \(edit.iteration)")
        }

        let reader = try state.stateBackend().openJournal()
        let page = try await reader.storedCalls(of: "r1", after: nil, limit: 100)
        let passed = page.calls.map { call in if case .json = call.parameters { true } else { false } }
        // Passed through as stored: all but the edited rows and the one that refers to a blob.
        #expect(passed == [false, false, true, true, true, false, true, true, true, true])

        let written = try await Self.showJSON("r1", reader)
        let whole = try #require(try await reader.timeline("r1"))
        var expected = try #require(JournalText.json(whole).objectValue)
        expected["approvals"] = []
        expected["notifications"] = []
        #expect(written == JSONText.encode(.object(expected), pretty: true) + "\n")
        #expect(!written.contains(Self.secret))
        #expect(written.contains(JSONText.quoted(Self.long)))
        #expect(written.contains(#""b": 1.5"#) && written.contains(#""dup": 2"#))
    }

    /// What `runs show --json` writes of `runID`.
    static func showJSON(_ runID: String, _ journal: any RunJournal) async throws -> String {
        let timeline = try #require(try await journal.timelineWithoutCalls(runID))
        let text = CollectedText()
        let writer = RunShowWriter(journal: journal, console: Console(writeOut: { _ in }, writeErr: { _ in }), write: { text.value += $0 })
        try await writer.json(timeline, extra: ["approvals": [], "notifications": []])
        return text.value
    }

    static func run(_ state: TestState, _ sql: String) throws {
        if let url = state.url {
            _ = try PostgresDatabase(url).run(sql)
        } else {
            try StateDatabase.openSeparately(stateDirectory: state.directory.state).execute(sql)
        }
    }
}

/// Text written by a closure.
final class CollectedText {
    var value = ""
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
