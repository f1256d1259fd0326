import Foundation
import SkillbookCore
@testable import SkillbookPostgres
import SkillbookSQL
import SkillbookTesting
import Testing

/// On PostgreSQL, pruning and running happen in different processes at once. A run that keeps a
/// long text while a pruning deletes the last older run holding the same text must not lose it:
/// keeping waits for the pruning to commit and writes the text again (SQLite has one writer at a
/// time, so it cannot interleave so).
@Suite struct PostgresBlobLockTests {
    @Test func aTextKeptWhileAPruningDeletesItsLastHolderIsKept() async throws {
        let state = try await Backend.postgres.makeState()
        let journal = try state.journal()
        let text = String(repeating: "a text kept once ", count: 1024)
        try await journal.runStarted(.sample("old", started: Date().addingTimeInterval(-40 * 86_400), inputs: ["text": .string(text)]))
        try await journal.runFinished(finished("old", .succeeded))

        // A pruning (another process's connection) deletes the old run's blobs and, before it
        // commits, a new run keeps the same text.
        let url = try #require(state.url)
        let pruner = try PostgresDatabase(url)
        let keeping = try pruner.transaction { transaction in
            try PostgresJournal.deleteBlobs(ofRuns: ["old"], in: transaction)
            let keeping = Task { try await journal.runStarted(.sample("new", inputs: ["text": .string(text)])) }
            Thread.sleep(forTimeInterval: 0.3)
            return keeping
        }
        try await keeping.value

        let blobs = try PostgresDatabase(url).query("SELECT hash FROM blobs").compactMap { $0.string("hash") }
        #expect(blobs == [SHA256.hex(of: text)], "the new run's text is kept")
        #expect(try await journal.timeline("new")?.run.inputs == ["text": .string(text)])
    }
}
