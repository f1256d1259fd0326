import Foundation
import SkillbookCore
import SkillbookPostgres
import SkillbookSQL
import SkillbookSQLite
import SkillbookTesting
import Testing

/// Long texts are kept once (`JournalBlobs`), on SQLite and PostgreSQL alike: shared by the calls,
/// steps and runs that hold them, deleted with the last run that refers to them, and read back
/// whole; a state written before the blob tables migrates.
@Suite struct BackendBlobTests {
    /// 16 KiB, over `JournalBlobs.inlineBytes`.
    static let long = String(repeating: "0123456789abcdef", count: 1024)

    /// Runs `sql` on the state's own connection (a separate one, as another process has).
    static func rows(_ state: TestState, _ sql: String) throws -> [Row] {
        if let url = state.url { return try PostgresDatabase(url).query(sql) }
        return try StateDatabase.openSeparately(stateDirectory: state.directory.state).query(sql)
    }

    static func count(_ state: TestState, _ table: String) throws -> Int {
        try rows(state, "SELECT count(*) AS n FROM \(table)").first?.int("n") ?? -1
    }

    /// A run that holds `text` in its inputs, in a query's and an action's parameters and outputs,
    /// in both steps' outputs and in its outputs.
    static func runHolding(_ text: String, _ runID: String, in journal: any RunJournal, started: Date = Date()) async throws {
        try await journal.runStarted(.sample(runID, started: started, inputs: ["text": .string(text)]))
        for (step, skill, hasEffects) in [("fill", "text.template", false), ("write", "files.write", true)] {
            var record = call(runID, step, skill: skill)
            record.hasEffects = hasEffects
            record.parameters = ["content": .string(text), "\u{0}odd key": "kept apart from a reference"]
            try await journal.callStarted(record)
            try await journal.callFinished(record, output: ["text": .string(text), "size": 16384], error: nil, finished: Date())
            try await journal.stepFinished(runID: runID, step: step, status: .succeeded, output: ["text": .string(text)], error: nil)
        }
        var result = finished(runID, .succeeded)
        result.outputs = ["copy": .string(text)]
        try await journal.runFinished(result)
    }

    @Test(arguments: Backend.allCases)
    func everyRowAndRunHoldingTheSameLongTextSharesOneBlob(_ backend: Backend) async throws {
        let state = try await backend.makeState()
        let journal = try state.journal()
        try await Self.runHolding(Self.long, "r1", in: journal)
        #expect(try Self.count(state, "blobs") == 1)
        #expect(try Self.rows(state, "SELECT size FROM blobs").first?.int("size") == 16384)
        let widest = try Self.rows(state, "SELECT max(length(parameters)) AS n FROM calls").first?.int("n") ?? 0
        #expect(widest < 200, "the rows refer to the text, \(widest) characters")

        // What is read back is what was written, whoever reads it.
        let reader = try state.stateBackend().openJournal()
        let timeline = try #require(try await reader.timeline("r1"))
        #expect(timeline.run.inputs == ["text": .string(Self.long)])
        #expect(timeline.run.outputs == ["copy": .string(Self.long)])
        for recorded in timeline.calls {
            #expect(recorded.parameters == ["content": .string(Self.long), "\u{0}odd key": "kept apart from a reference"])
            #expect(recorded.output == ["text": .string(Self.long), "size": 16384])
        }
        #expect(timeline.calls.count == 2)
        #expect(timeline.steps.map(\.output) == [["text": .string(Self.long)], ["text": .string(Self.long)]])
        let plan = try await reader.resumePlan("r1") { _ in .skip }
        #expect(plan.completed.map(\.call.parameters) == Array(repeating: ["content": .string(Self.long), "\u{0}odd key": "kept apart from a reference"], count: 2))

        // A second run of the same text adds a reference, not a copy.
        try await Self.runHolding(Self.long, "r2", in: journal)
        #expect(try Self.count(state, "blobs") == 1)
        #expect(try Self.count(state, "run_blobs") == 2)
    }

    @Test(arguments: Backend.allCases)
    func shortTextsAndTextsWithANulCharacterStayInTheirRows(_ backend: Backend) async throws {
        let state = try await backend.makeState()
        let journal = try state.journal()
        let withNul = "a\u{0}b" + Self.long
        let short = String(Self.long.prefix(JournalBlobs.inlineBytes - 1))
        try await journal.runStarted(.sample("r1", inputs: ["nul": .string(withNul), "short": .string(short)]))
        #expect(try Self.count(state, "blobs") == 0)
        #expect(try await journal.run("r1")?.inputs == ["nul": .string(withNul), "short": .string(short)])
    }

    @Test(arguments: Backend.allCases)
    func pruningARunDeletesTheBlobsNoOtherRunRefersTo(_ backend: Backend) async throws {
        let state = try await backend.makeState()
        let journal = try state.journal()
        let shared = Self.long
        let own = String(repeating: "fedcba9876543210", count: 1024)
        let now = Date()
        try await journal.runStarted(.sample("old", started: now.addingTimeInterval(-40 * 86_400), inputs: ["a": .string(own), "b": .string(shared)]))
        try await journal.runFinished(finished("old", .succeeded))
        try await Self.runHolding(shared, "young", in: journal, started: now)
        #expect(try Self.count(state, "blobs") == 2)

        let rules = RetentionRules(workspace: RetentionPolicy(days: 30, maxRuns: 100))
        #expect(try await journal.pruneBatch(rules, now: now, limit: 100) == 1)
        #expect(try await journal.run("old") == nil)
        #expect(try Self.rows(state, "SELECT hash FROM blobs").compactMap { $0.string("hash") } == [SHA256.hex(of: shared)], "the shared text stays")
        #expect(try await journal.timeline("young")?.run.inputs == ["text": .string(shared)])

        #expect(try await journal.pruneBatch(rules, now: now.addingTimeInterval(40 * 86_400), limit: 100) == 1)
        #expect(try Self.count(state, "blobs") == 0, "the last run that referred to it is gone")
        #expect(try Self.count(state, "run_blobs") == 0)
    }

    /// A state written before the blob tables (SQLite version 15, PostgreSQL 9) migrates: its rows
    /// keep their texts inline and read as before, and later runs keep theirs once.
    @Test(arguments: Backend.allCases)
    func aStateFromBeforeTheBlobTablesMigratesAndReadsItsInlineTexts(_ backend: Backend) async throws {
        let state = try await backend.makeState()
        let older = try state.journal()
        try await older.runStarted(.sample("before", inputs: ["text": "short"]))
        try await older.runFinished(finished("before", .succeeded))
        // The rows as the older version wrote them: the long text inline.
        let inline = JSONText.encode(["text": .string(Self.long)])
        switch backend {
        case .sqlite:
            let database = try StateDatabase.openSeparately(stateDirectory: state.directory.state)
            try database.execute("DROP TABLE blobs; DROP TABLE run_blobs; PRAGMA user_version = 15")
            try database.execute("UPDATE runs SET inputs = '\(inline)' WHERE id = 'before'")
        case .postgres:
            let database = try PostgresDatabase(try #require(state.url))
            _ = try database.run("DROP TABLE blobs, run_blobs")
            _ = try database.run("DELETE FROM skillbook_schema WHERE version = 10")
            _ = try database.run("UPDATE runs SET inputs = $1 WHERE id = 'before'", [.text(inline)])
        }

        let journal = try state.journal()
        #expect(try await journal.run("before")?.inputs == ["text": .string(Self.long)])
        switch backend {
        case .sqlite:
            #expect(try Self.rows(state, "PRAGMA user_version").first?[0].intValue == StateDatabase.schemaVersion)
        case .postgres:
            #expect(try Self.rows(state, "SELECT max(version) AS v FROM skillbook_schema").first?.int("v") == 10)
        }
        try await Self.runHolding(Self.long, "after", in: journal)
        #expect(try Self.count(state, "blobs") == 1)
        #expect(try await journal.run("before")?.inputs == ["text": .string(Self.long)])
        #expect(try await journal.run("after")?.inputs == ["text": .string(Self.long)])
    }
}
