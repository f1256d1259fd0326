import SkillbookTesting
import Foundation
import SkillbookCore
import SkillbookRuntime
import SkillbookSQL
import SkillbookSQLite
import Testing

/// A secret that reaches a skill's output stays out of the journal file and of `runs show`, and a
/// resume works with the masked record without doing an action twice.
@Suite struct JournalSecretsTests {
    static let playbook = """
        name: bearer
        on_failure: stop
        inputs:
          token: { type: string, secret: true }
          fail: { type: boolean, default: false }
        steps:
          - id: header
            skill: text.template
            with: { template: "Bearer {{t}}", values: { t: "${{ inputs.token }}" } }
          - { id: save, skill: notes.create, with: { title: "${{ steps.header.output.text }}" } }
          - id: check
            skill: debug.fail
            when: "${{ inputs.fail }}"
            with: { message: stop here }
          - { id: last, skill: text.template, with: { template: "{{h}}!", values: { h: "${{ steps.header.output.text }}" } } }
        outputs:
          last: "${{ steps.last.output.text }}"

        """

    /// Every text in the journal's tables (the notes in the same file hold the secret, as asked).
    func journalTexts(_ directory: TemporaryDirectory) throws -> [String] {
        let database = try StateDatabase.openSeparately(stateDirectory: directory.state)
        var texts: [String] = []
        for table in ["runs", "sessions", "calls", "steps", "compensations"] {
            for row in try database.query("SELECT * FROM \(table)") {
                texts += row.values.compactMap(\.stringValue)
            }
        }
        return texts
    }

    @Test func aSecretInAnOutputIsMaskedInTheJournalAndInRunsShow() async throws {
        let directory = TemporaryDirectory()
        directory.write("Playbooks/bearer.yaml", Self.playbook)
        let run = await skillbook(["run", "bearer", "-i", "token=hunter2-s3cret", "--json"], in: directory)
        #expect(run.code == 0, "\(run.err)")
        #expect(!run.out.contains("hunter2"))

        let runID = try #require(try SQLiteJournal(stateDirectory: directory.state).runs().first?.id)
        let shown = await skillbook(["runs", "show", runID, "--json"], in: directory)
        #expect(shown.code == 0)
        #expect(shown.out.contains("Bearer ***"), "the masked output is still shown")
        #expect(!shown.out.contains("hunter2"))
        let text = await skillbook(["runs", "show", runID], in: directory)
        #expect(!text.out.contains("hunter2"))
        let texts = try journalTexts(directory)
        #expect(texts.contains { $0.contains("Bearer ***") })
        #expect(!texts.contains { $0.contains("hunter2") }, "not in the journal on disk")

        let calls = try SQLiteJournal(stateDirectory: directory.state).calls(of: runID)
        #expect(calls.first { $0.key.step == "header" }?.outputMasked == true)
        #expect(calls.first { $0.key.step == "save" }?.outputMasked == true, "the note's title holds the secret")
    }

    @Test func aResumeRunsAgainAQueryWhoseOutputWasMaskedAndKeepsTheAction() async throws {
        let directory = TemporaryDirectory()
        directory.write("Playbooks/bearer.yaml", Self.playbook)
        let failed = await skillbook(["run", "bearer", "-i", "token=hunter2-s3cret", "-i", "fail=true"], in: directory)
        #expect(failed.code == 1, "\(failed.err)")
        let runID = try #require(try SQLiteJournal(stateDirectory: directory.state).runs().first?.id)
        // Let the failing step pass this time: the run's inputs are kept, so change the playbook.
        directory.write(
            "Playbooks/bearer.yaml", Self.playbook.replacingOccurrences(of: "when: \"${{ inputs.fail }}\"", with: "when: false"))

        let resumed = await skillbook(["resume", runID, "--force", "-i", "token=hunter2-s3cret", "--json"], in: directory)
        #expect(resumed.code == 0, "\(resumed.err)")
        #expect(resumed.err.contains("the recorded output of save held a secret or a long text and was kept masked or cut short"), "\(resumed.err)")
        let last = try #require(try SQLiteJournal(stateDirectory: directory.state).run(runID)?.outputs?["last"])
        #expect(last == "Bearer ***!", "the run's outputs are masked as always")
        let notes = try NotesStore(stateDirectory: directory.state).list(limit: 10)
        #expect(notes.map(\.title) == ["Bearer hunter2-s3cret"], "the note was not made twice")
        let header = try SQLiteJournal(stateDirectory: directory.state).calls(of: runID).filter { $0.key.step == "header" }
        #expect(header.count == 2, "the template ran again, with the secret given again")
    }

    @Test func aRollbackSaysWhenItWorksFromAMaskedRecord() async throws {
        let directory = TemporaryDirectory()
        directory.write("Playbooks/bearer.yaml", Self.playbook)
        let failed = await skillbook(["run", "bearer", "-i", "token=hunter2-s3cret", "-i", "fail=true"], in: directory)
        #expect(failed.code == 1, "\(failed.err)")
        let runID = try #require(try SQLiteJournal(stateDirectory: directory.state).runs().first?.id)

        let undone = await skillbook(["rollback", runID], in: directory)
        #expect(undone.code == 0, "\(undone.err)")
        #expect(undone.err.contains("the recorded output of save held a secret or a long text and was kept masked or cut short"), "\(undone.err)")
        #expect(try NotesStore(stateDirectory: directory.state).list(limit: 10).isEmpty, "the note is found by its id")
        #expect(!undone.out.contains("hunter2") && !undone.err.contains("hunter2"))
    }

    @Test func aQueryRerunAfterAMaskedOutputAndThenCutShortIsDecidedLikeAnyOther() async throws {
        // The first process recorded `header` with its output masked; a resume ran it again and
        // died during that call. The next resume runs it again (a query), asking nothing.
        let directory = TemporaryDirectory()
        let file = directory.write("Playbooks/bearer.yaml", Self.playbook)
        let journal = try crashedJournal(directory)
        let runID = UUID().uuidString.lowercased()
        try journal.setFile(file.path, forRun: runID)
        try journal.runStarted(
            RunRecord(
                runID: runID, playbook: "bearer", source: Self.playbook, sourceHash: SourceHash.of(Self.playbook),
                inputs: ["token": "***", "fail": false], trigger: "cli", started: Date(), dryRun: false))
        var first = CallRecord(
            runID: runID, key: CallKey(step: "header"), skill: "text.template", attempt: 1, parameters: [:], started: Date(),
            hasEffects: false)
        try journal.callStarted(first)
        first.outputMasked = true
        try journal.callFinished(first, output: ["text": "Bearer ***"], error: nil, finished: Date())
        try journal.callStarted(
            CallRecord(
                runID: runID, key: CallKey(step: "header"), skill: "text.template", attempt: 1, parameters: [:],
                started: Date(), hasEffects: false))
        try journal.flush()

        let resumed = await skillbook(["resume", runID, "-i", "token=hunter2-s3cret"], in: directory)
        #expect(resumed.code == 0, "\(resumed.err)")
        #expect(try NotesStore(stateDirectory: directory.state).list(limit: 10).map(\.title) == ["Bearer hunter2-s3cret"])
    }
}
