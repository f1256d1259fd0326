import Foundation
import SkillbookCore
import SkillbookSQL
import SkillbookSQLite
import SkillbookTesting
import Testing

/// `skillbook chat` as a real process, its input read from a file (not a terminal).
@Suite struct ChatCommandTests {
    /// Runs `skillbook chat` in `directory` with `input` on stdin, then end of input.
    static func chat(_ input: String, in directory: TemporaryDirectory, environment: [String: String] = [:]) async throws -> ProgramResult {
        try await runProgram(
            try builtExecutable(), ["chat", "--state", directory.state.path] + berlin, input: input, in: directory.url,
            environment: ["HOME": directory.path, "NO_COLOR": "1", "PATH": "/usr/bin:/bin"].merging(environment) { $1 })
    }

    @Test func aRequestIsConfirmedRunAndJournaledThenEndOfInputLeaves() async throws {
        let directory = askWorkspace()
        let result = try await Self.chat("remind me tomorrow 9am to call Ada\ny\n/history\n", in: directory)
        #expect(result.code == 0, "\(result.err)")
        let lines = result.out.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first == "Skillbook chat: say what you want (English or 中文). /help lists the commands; /quit leaves.")
        #expect(result.out.contains(#"agent: Run skill reminders.create with {"due":"2026-12-02T09:00:00+01:00","title":"call Ada"}?"#))
        #expect(result.out.contains("run it? [y/N]> agent: Done: {"))
        #expect(result.out.contains("you: remind me tomorrow 9am to call Ada\nagent: Run skill reminders.create"))
        // The run's steps, as `run` prints them off a terminal.
        #expect(result.err.contains("reminders_create"))
        let saved = try RemindersStore(stateDirectory: directory.state).list(includeDone: true)
        #expect(saved.map(\.title) == ["call Ada"])
        let runs = await skillbook(["runs", "--json"], in: directory)
        #expect(try JSONText.decode(runs.out).arrayValue?.compactMap { $0["playbook"]?.stringValue } == ["reminders-create"])
    }

    @Test func slashCommandsListSkillsAndPlaybooksAndQuitLeaves() async throws {
        let directory = askWorkspace()
        let result = try await Self.chat("/skills\n/playbooks\n/help\n/skils\n/quit\nnever read\n", in: directory)
        #expect(result.code == 0)
        #expect(result.out.contains("Create a note [notes.create, action]\n  Saves a new note with a title"))
        #expect(result.out.contains("[notes.list, query]"))
        #expect(result.out.contains("day-note: Saves a note for a day.\n"))
        #expect(result.out.contains("  /skills     the skills: title, id and kind (query or action), summary\n"))
        #expect(result.out.contains("unknown command /skils; did you mean /skills? (/help lists them)\n"))
        #expect(!result.out.contains("never read"))
    }

    @Test func aMissingInputIsAskedADeclinedRunIsKeptAndNothingMatchedSaysSo() async throws {
        let directory = askWorkspace()
        let result = try await Self.chat("note for tomorrow\nPlan the week\nn\nmake me a sandwich\n", in: directory)
        #expect(result.code == 0)
        #expect(result.out.contains("agent: What should 'title' be (the note's title)?\ntitle> agent: Run playbook day-note with"))
        #expect(result.out.contains("agent: Not run. Say y to run it after all, or ask for something else."))
        #expect(result.out.contains("agent: nothing matched this request.\n       nearest:"))
        #expect(try NotesStore(stateDirectory: directory.state).list().isEmpty)
    }
}
