import Foundation
import SkillbookCore
import SkillbookHost
import SkillbookPostgres
import SkillbookSQL
import SkillbookSQLite
import SkillbookTesting
import Testing

/// Big values through the host, on SQLite and PostgreSQL alike: a query's output over
/// `Limits.journalTextBytes` is journaled as its size and digest only, and a resume reads it again;
/// a long text is kept once, masked before it is kept.
@Suite struct BigValueResumeTests {
    /// Reads a 2 MiB file and copies it into `out/`, which is missing the first time.
    static let copy = """
        name: big-copy
        on_failure: stop
        steps:
          - id: read
            skill: files.read
            with: { path: big.txt, max_bytes: 8388608 }
          - id: write
            skill: files.write
            with: { path: out/copy.txt, content: "${{ steps.read.output.content }}", mode: overwrite }
        """

    static func host(_ fixture: HostFixture, _ state: TestState) -> PlaybookHost {
        var configuration = fixture.configuration()
        configuration.persistence = state.stateBackend()
        return PlaybookHost(configuration)
    }

    /// The texts of every blob of the state.
    static func blobs(_ state: TestState) throws -> [String] {
        let rows: [Row]
        if let url = state.url {
            rows = try PostgresDatabase(url).query("SELECT content FROM blobs")
        } else {
            rows = try StateDatabase.openSeparately(stateDirectory: state.directory.state).query("SELECT content FROM blobs")
        }
        return rows.compactMap { row in
            switch row[0] {
            case .text(let text): text
            case .blob(let data): String(decoding: data, as: UTF8.self)
            default: nil
            }
        }
    }

    @Test(arguments: Backend.allCases)
    func aResumeReadsAgainAValueTheJournalKeptOnlyAsItsSizeAndDigest(_ backend: Backend) async throws {
        let fixture = HostFixture()
        let state = try await backend.makeState()
        fixture.write("Playbooks/big-copy.yaml", Self.copy)
        let big = String(repeating: "0123456789abcdef", count: 131_072)
        #expect(big.utf8.count == 2 * Limits.journalTextBytes)
        fixture.write("big.txt", big)
        let host = Self.host(fixture, state)

        let stopped = try await host.run(RunRequest(playbook: "big-copy"))
        #expect(stopped.status == .failed, "out/ is missing")
        let journal = try host.openJournal()
        let read = try #require(try await journal.timeline(stopped.runID)?.calls.first { $0.key.step == "read" })
        #expect(read.outputMasked, "marked: not the value the run used")
        let kept = try #require(read.output?["content"]?.stringValue)
        #expect(kept.hasSuffix("… [cut by the journal: 2097152 bytes, fnv1a64 \(SourceHash.of(big))]"))
        #expect(kept.utf8.count < 2048)
        // Only the action's parameter is kept whole (its undo may need it), once.
        #expect(try Self.blobs(state) == [big])

        try FileManager.default.createDirectory(at: fixture.url.appendingPathComponent("out"), withIntermediateDirectories: true)
        let resumed = try await host.resume(ResumeRequest(run: stopped.runID))
        #expect(resumed.status == .succeeded)
        let copied = try String(contentsOf: fixture.url.appendingPathComponent("out/copy.txt"), encoding: .utf8)
        #expect(copied == big, "the read ran again and the copy got the whole text")
        let calls = try #require(try await journal.timeline(stopped.runID)?.calls)
        #expect(calls.filter { $0.key.step == "read" }.count == 2, "the query ran again")
        #expect(try Self.blobs(state) == [big], "the second attempt of the write shares the first's blob")
    }

    /// A secret inside a long text is masked before the journal keeps the text: no blob holds it.
    @Test(arguments: Backend.allCases)
    func aBlobNeverHoldsASecret(_ backend: Backend) async throws {
        let fixture = HostFixture()
        let state = try await backend.makeState()
        fixture.write(
            "Playbooks/secret-text.yaml",
            """
            name: secret-text
            inputs:
              token: { type: string, secret: true }
              body: { type: string }
            steps:
              - id: echo
                skill: debug.echo
                with: { value: "${{ inputs.body }}" }
              - id: write
                skill: files.write
                with: { path: out.txt, content: "${{ steps.echo.output.value }}", mode: overwrite }
            outputs:
              text: "${{ steps.echo.output.value }}"
            """)
        let token = "tok-5ecret-94c1f"
        let body = String(repeating: "line of text around the token\n", count: 300) + token + "\n"
        let result = try await Self.host(fixture, state).run(
            RunRequest(playbook: "secret-text", inputTexts: [("token", token), ("body", body)]))
        #expect(result.status == .succeeded)
        #expect(try String(contentsOf: fixture.url.appendingPathComponent("out.txt"), encoding: .utf8) == body, "the run used the secret")
        let blobs = try Self.blobs(state)
        #expect(blobs.count == 1, "one text, held by the inputs, both calls, the step and the outputs")
        #expect(!blobs.contains { $0.contains(token) })
        #expect(blobs.first?.hasSuffix("***\n") == true)
    }
}
