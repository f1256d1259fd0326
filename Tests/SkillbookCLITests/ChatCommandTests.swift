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

    /// Issue 27 item 7: `y` for an integer input is refused and asked again, before any confirmation.
    @Test func anAnswerThatIsNotAnIntegerIsAskedForAgain() async throws {
        let directory = askWorkspace()
        directory.write(
            "Playbooks/nap.yaml",
            """
            name: nap
            description: Naps for a whole number of seconds.
            triggers: ["take a nap"]
            inputs:
              seconds: { type: integer, description: how long }
            steps:
              - id: wait
                skill: debug.sleep
                with: { seconds: "${{ inputs.seconds }}" }

            """)
        let result = try await Self.chat("take a nap\ny\n0\ny\n", in: directory)
        #expect(result.code == 0, "\(result.err)")
        #expect(result.out.contains("agent: What should 'seconds' be (how long)?\nseconds> "))
        #expect(
            result.out.contains(
                "seconds> agent: 'y' does not fit: expects integer, got string. What should 'seconds' be (how long)?\nseconds> "
                    + #"agent: Run playbook nap with {"seconds":0}?"#))
        #expect(result.out.contains("run it? [y/N]> agent: Done: "))
    }

    /// A read-only query runs without a confirmation, as in `ask`.
    @Test func aQueryRunsWithoutAConfirmation() async throws {
        let directory = askWorkspace()
        let result = try await Self.chat("list my notes\n", in: directory)
        #expect(result.code == 0, "\(result.err)")
        #expect(result.out.contains("> agent: Running skill notes.list with {}.\nagent: Done: "))
        #expect(!result.out.contains("run it?"))
        let runs = await skillbook(["runs", "--json"], in: directory)
        #expect(try JSONText.decode(runs.out).arrayValue?.compactMap { $0["playbook"]?.stringValue } == ["notes-list"])
    }

    /// Layer 3 in the chat, with a real chat-completions server: the plan is shown, approved once,
    /// run and journaled under the plan's name.
    @Test func aModelPlanIsShownApprovedAndRun() async throws {
        try await AskModelPlanTests.withModel([AskModelPlanTests.plan]) { directory, environment, server throws in
            let result = try await Self.chat(AskModelPlanTests.request + "\ny\n", in: directory, environment: environment)
            #expect(result.code == 0, "\(result.err)")
            #expect(result.out.contains("agent: Plan: read (files.read) → save (notes.create). Run it?\nPlan from the model (2 steps):\n"))
            #expect(result.out.contains("  2. save: notes.create  [action: asks before it runs]\n"))
            #expect(result.out.contains("run it? [y/N]> agent: Done: "))
            #expect(server.requests.count == 1)
            #expect(try askNotes(in: directory).map(\.title) == ["From notes.txt"])
            #expect(try await journaledRuns(in: directory) == ["plan"])
        }
    }

    /// Ctrl-C at `run it? [y/N]>` answers no: nothing runs and the chat goes on (issue 27).
    @Test func ctrlCAtTheConfirmationPromptDeclinesAndTheChatGoesOn() async throws {
        let directory = askWorkspace()
        let out = OutputFile()
        let err = OutputFile()
        let process = try ChildProgram(
            try builtExecutable().path, ["chat", "--state", directory.state.path] + berlin,
            environment: ["HOME": directory.path, "NO_COLOR": "1", "PATH": "/usr/bin:/bin"], in: directory.url,
            input: .pipe, output: .file(out), error: .file(err))
        try process.write("remind me tomorrow 9am to call Ada\n")
        #expect(await eventually(within: 20) { out.text.contains("run it? [y/N]> ") }, "\(out.text)\(err.text)")
        process.signal(SIGINT)
        #expect(await eventually(within: 20) { out.text.contains("agent: Not run. Say y to run it after all, or ask for something else.\n> ") })
        try process.write("/quit\n")
        #expect(await eventually(within: 20) { !process.isRunning })
        #expect(process.termination == .exited(0))
        #expect(try reminders(in: directory).isEmpty)
    }
}
