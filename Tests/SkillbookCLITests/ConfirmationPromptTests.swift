import SkillbookTesting
import Foundation
import SkillbookCLI
import SkillbookCore
import SkillbookSQL
import SkillbookSQLite
import Testing

/// Issue 10 item 19: the confirmation prompt shows what the call will touch — the notes' titles,
/// the files' paths — one line per item up to a limit, not raw ids and the skill's whole summary.
@Suite struct ConfirmationPromptTests {
    /// Runs `playbook` in-process as on a terminal, answering `answer`; the exit code and stderr.
    func ask(_ directory: TemporaryDirectory, _ file: URL, answering answer: String) async -> (code: Int32, err: String) {
        let captured = CapturedOutput()
        var console = captured.console
        console.stdinIsTerminal = true
        console.readLine = { answer }
        let code = await SkillbookCLI.run(
            ["run", file.path, "--state", directory.state.path], console: console, currentDirectory: directory.url)
        return (code, captured.err)
    }

    @Test func deletingNotesListsTheirTitles() async throws {
        let directory = TemporaryDirectory()
        let store = try NotesStore(stateDirectory: directory.state)
        for number in 1...12 { _ = try store.create(title: "Note \(number)", tags: ["old"]) }
        let notes = try store.list(tag: "old", limit: 100)
        let file = directory.write(
            "purge.yaml",
            """
            name: purge
            steps:
              - { id: old, skill: notes.list, with: { tag: old, limit: 100, order: oldest } }
              - { id: drop, skill: notes.delete, with: { ids: "${{ steps.old.output.items.*.id }}" } }

            """)
        let declined = await ask(directory, file, answering: "n")
        #expect(declined.code == 1)
        let expected =
            "\nStep 'drop' runs notes.delete (Delete notes) on 12 notes:\n"
            + notes.prefix(10).map { "  \($0.title) (\($0.id))\n" }.joined() + "  … and 2 more\nRun it? [y/N] "
        #expect(declined.err.contains(expected), "\(declined.err)")
        #expect(!declined.err.contains("Deletes the notes with the given ids"), "not the skill's whole summary")
        #expect(try store.list(tag: "old", limit: 100).count == 12, "declined: nothing deleted")

        let approved = await ask(directory, file, answering: "y")
        #expect(approved.code == 0, "\(approved.err)")
        #expect(try store.list(tag: "old", limit: 100).isEmpty)
    }

    @Test func deletingFilesListsTheirPathsAndAMissingNoteIsSaid() async throws {
        let directory = TemporaryDirectory()
        directory.write("a.txt", "a")
        directory.write("b/c.txt", "c")
        let files = directory.write(
            "trash.yaml",
            """
            name: trash
            steps:
              - { id: rm, skill: files.delete, with: { paths: [a.txt, b/c.txt] } }

            """)
        let asked = await ask(directory, files, answering: "n")
        #expect(asked.err.contains("\nStep 'rm' runs files.delete (Delete files) on 2 paths:\n  a.txt\n  b/c.txt\nRun it? [y/N] "), "\(asked.err)")

        let notes = directory.write(
            "gone.yaml",
            """
            name: gone
            steps:
              - { id: drop, skill: notes.delete, with: { ids: [no-such-id] } }

            """)
        let missing = await ask(directory, notes, answering: "n")
        #expect(missing.err.contains("\nStep 'drop' runs notes.delete (Delete notes) on 1 notes:\n  no-such-id: no such note; skipped\nRun it? [y/N] "), "\(missing.err)")
    }

    @Test func aSkillThatSaysNothingShowsItsParametersShortened() async throws {
        let directory = TemporaryDirectory()
        let file = directory.write(
            "say.yaml",
            """
            name: say
            steps:
              - { id: say, skill: shell.run, with: { argv: [echo, one, two, three, four] } }

            """)
        let asked = await ask(directory, file, answering: "n")
        #expect(asked.err.contains("\nStep 'say' runs shell.run (Run a command) with:\n  5 argv: echo, one, … (3 more)\n  timeout: 60\nRun it? [y/N] "), "\(asked.err)")
    }
}
