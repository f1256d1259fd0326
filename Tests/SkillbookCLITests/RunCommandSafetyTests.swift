import SkillbookTesting
import SkillbookCore
import Foundation
import SkillbookSQL
import SkillbookSQLite
import Testing

/// The run command's safety rails: secrets, confirmations, dry-run.
@Suite struct RunCommandSafetyTests {
    @Test func aSecretGivenOnTheCommandLineAppearsNowhere() async throws {
        let directory = TemporaryDirectory()
        let secret = "tok-7f3a9c-super-secret"
        let file = directory.write(
            "secret.yaml",
            """
            name: secret
            on_failure: stop
            inputs:
              token: { type: string, secret: true, minLength: 8 }
            steps:
              - { id: auth, skill: debug.echo, with: { value: { header: "Bearer ${{ inputs.token }}" } } }
              - { id: call, skill: text.template, with: { template: "{{t}}", values: { t: "${{ inputs.token }}" } } }
              - { id: boom, skill: debug.fail, with: { message: "server rejected ${{ inputs.token }} for ${{ steps.call.output.text }}" } }

            """)
        let run = await skillbook(["run", file.path, "-i", "token=\(secret)", "--json"], in: directory)
        #expect(run.code == 1)
        #expect(!run.out.contains(secret))
        #expect(!run.err.contains(secret))
        #expect(!run.out.contains("7f3a9c"))
        #expect(run.out.contains("\"header\":\"Bearer ***\""))
        #expect(run.out.contains("server rejected *** for ***"))
        let plain = await skillbook(["run", file.path, "-i", "token=\(secret)"], in: directory)
        #expect(!plain.out.contains(secret) && !plain.err.contains(secret))
        #expect(plain.err.contains("server rejected *** for ***"))
    }

    @Test func notesDeleteWaitsForAnApprovalWithoutATerminalAndWithoutYes() async throws {
        let directory = TemporaryDirectory()
        let store = try NotesStore(stateDirectory: directory.state)
        let note = try store.create(title: "precious", body: "", tags: [])
        let file = directory.write(
            "cleanup.yaml",
            """
            name: cleanup
            inputs:
              id: { type: string }
            steps:
              - { id: remove, skill: notes.delete, with: { ids: ["${{ inputs.id }}"] } }

            """)
        let waiting = await skillbook(["run", file.path, "-i", "id=\(note.id)"], in: directory)
        #expect(waiting.code == 4, "\(waiting.err)")
        #expect(waiting.err.contains("waits for an approval at step 'remove' (notes.delete: 1 notes: precious ("), "\(waiting.err)")
        #expect(waiting.err.contains("  skillbook approve "), "\(waiting.err)")
        #expect(try store.list(tag: nil, limit: 10) == [note])

        let approved = await skillbook(["run", file.path, "-i", "id=\(note.id)", "--yes"], in: directory)
        #expect(approved.code == 0)
        #expect(try store.list(tag: nil, limit: 10).isEmpty)
    }

    @Test func dryRunPrintsThePlanAndChangesNothing() async throws {
        let directory = TemporaryDirectory()
        let file = directory.write(
            "plan.yaml",
            """
            name: plan
            inputs:
              notes: { type: array }
            steps:
              - { id: look, skill: notes.list }
              - { id: bulk, skill: notes.create_many, with: { notes: "${{ inputs.notes }}" } }

            """)
        let notes = "[" + (1...120).map { "{title: n\($0)}" }.joined(separator: ", ") + "]"
        let run = await skillbook(["run", file.path, "--dry-run", "-i", "notes=\(notes)"], in: directory)
        #expect(run.code == 0, "\(run.err)")
        #expect(run.err.contains("look: notes.list (query) · ran (read-only)"))
        #expect(run.err.contains("bulk: notes.create_many (action) · would run · 3 batches"))
        #expect(run.err.contains("can be rolled back"))
        #expect(try NotesStore(stateDirectory: directory.state).list(tag: nil, limit: 1000).isEmpty)
    }
}
