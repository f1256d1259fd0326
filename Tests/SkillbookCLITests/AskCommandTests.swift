import Foundation
import SkillbookCLI
import SkillbookCore
import SkillbookSQL
import SkillbookSQLite
import SkillbookTesting
import Synchronization
import Testing

/// A playbook with a date trigger and a required title.
let dayNotePlaybook = """
    name: day-note
    description: Saves a note for a day.
    triggers: ["note for {day}", "{day}的笔记"]
    inputs:
      day: { type: string, format: date }
      title: { type: string, description: the note's title }
    steps:
      - id: save
        skill: notes.create
        with: { title: "${{ inputs.title }}", body: "${{ inputs.day }}" }
    outputs:
      id: "${{ steps.save.output.id }}"

    """

/// Tuesday 2026-12-01 09:15 in Berlin.
let berlin = ["--now", "2026-12-01T09:15:00+01:00", "--timezone", "Europe/Berlin"]

func askWorkspace() -> TemporaryDirectory {
    let directory = TemporaryDirectory()
    directory.write("Playbooks/day-note.yaml", dayNotePlaybook)
    return directory
}

func askNotes(in directory: TemporaryDirectory) throws -> [Note] {
    try NotesStore(stateDirectory: directory.state).list(tag: nil, limit: 1000)
}

func reminders(in directory: TemporaryDirectory) throws -> [Reminder] {
    try RemindersStore(stateDirectory: directory.state).list(includeDone: true, limit: 1000)
}

/// The runs the journal holds (none when the state was never opened).
func journaledRuns(in directory: TemporaryDirectory) async throws -> [String] {
    let run = await skillbook(["runs", "--json"], in: directory)
    let rows = try JSONText.decode(run.out).arrayValue ?? []
    return rows.compactMap { $0["playbook"]?.stringValue }
}

@Suite struct AskCommandTests {
    /// `ask REQUEST` in-process on a terminal whose input gives `answers`, then ends.
    static func askOnATerminal(
        _ request: String, answering answers: [String], in directory: TemporaryDirectory
    ) async -> (Int32, CapturedOutput) {
        let captured = CapturedOutput()
        let answers = Mutex(answers)
        var console = captured.console
        console.stdinIsTerminal = true
        console.readLine = { answers.withLock { $0.isEmpty ? nil : $0.removeFirst() } }
        let code = await SkillbookCLI.run(
            ["ask", request, "--state", directory.state.path, "--playbooks", directory.playbooks.path] + berlin,
            console: console, currentDirectory: directory.url)
        return (code, captured)
    }

    // MARK: --explain --json

    @Test(arguments: [
        (
            "remind me tomorrow 9am to call Ada",
            #"{"layer":"skill","target":"reminders.create","inputs":{"due":"2026-12-02T09:00:00+01:00","title":"call Ada"},"#
        ),
        (
            "明天早上9点提醒我交报告",
            #"{"layer":"skill","target":"reminders.create","inputs":{"due":"2026-12-02T09:00:00+01:00","title":"交报告"},"#
        ),
        ("note for next monday", #"{"layer":"playbook","target":"day-note","inputs":{"day":"2026-12-07","title":"Plan"},"#),
        ("下周一的笔记", #"{"layer":"playbook","target":"day-note","inputs":{"day":"2026-12-07","title":"Plan"},"#),
    ])
    func explainPrintsTheDecisionWithCoercedInputs(request: String, prefix: String) async throws {
        let directory = askWorkspace()
        let title = prefix.contains("day-note") ? ["-i", "title=Plan"] : []
        let run = await skillbook(["ask", request, "--explain", "--json"] + berlin + title, in: directory)
        #expect(run.code == 0, "\(run.err)")
        #expect(run.out.hasPrefix(prefix), "\(run.out)")
        let decision = try JSONText.decode(run.out)
        #expect(decision.objectValue?.keys.sorted() == ["candidates", "confidence", "inputs", "layer", "plan", "question", "target"])
        #expect(decision["plan"] == .null)
        #expect(decision["question"] == .null)
        #expect((decision["confidence"]?.doubleValue ?? 0) > 0.5)
        #expect(decision["candidates"]?.arrayValue?.first?["target"] == decision["target"])
        #expect(run.out.split(separator: "\n").count == 1)
        // Nothing ran, nothing was journaled.
        #expect(try askNotes(in: directory).isEmpty)
        #expect(try reminders(in: directory).isEmpty)
        #expect(try await journaledRuns(in: directory).isEmpty)
    }

    @Test func inputsGivenWithIAreCoercedToTheirSchema() async throws {
        let directory = askWorkspace()
        let run = await skillbook(["ask", "note for tomorrow", "--explain", "--json", "-i", "title=42"] + berlin, in: directory)
        #expect(run.code == 0, "\(run.err)")
        #expect(run.out.hasPrefix(#"{"layer":"playbook","target":"day-note","inputs":{"day":"2026-12-02","title":"42"}"#))
        let unknown = await skillbook(["ask", "note for tomorrow", "-i", "titel=x"] + berlin, in: directory)
        #expect(unknown.code == 2)
        #expect(unknown.errLines.first == "skillbook: error: playbook 'day-note' has no input 'titel'; did you mean 'title'?")
    }

    // MARK: Missing input, no route

    @Test func aMissingRequiredInputWithoutATerminalIsReportedWithExitCode2() async throws {
        let directory = askWorkspace()
        let run = await skillbook(["ask", "note for tomorrow"] + berlin, in: directory)
        #expect(run.code == 2)
        #expect(
            run.err
                == "skillbook: error: playbook 'day-note' needs 'title': What should 'title' be (the note's title)?\n"
                + "Give it with -i title=VALUE; nothing ran.\n")
        #expect(try askNotes(in: directory).isEmpty)
        // --explain --json prints the decision with the question, and exits 2 as `ask` does.
        let explained = await skillbook(["ask", "note for tomorrow", "--explain", "--json"] + berlin, in: directory)
        #expect(explained.code == 2)
        #expect(try JSONText.decode(explained.out)["question"] == "What should 'title' be (the note's title)?")
        #expect(try JSONText.decode(explained.out)["layer"] == "playbook")
    }

    /// Issue 26: `--explain` exits 2 when nothing matched; the decision is still printed.
    @Test func explainExitsTwoWhenNothingMatched() async throws {
        let directory = askWorkspace()
        let run = await skillbook(["ask", "make me a sandwich", "--explain", "--json"] + berlin, in: directory)
        #expect(run.code == 2)
        #expect(try JSONText.decode(run.out)["layer"] == "none")
        #expect(run.errLines.first == "skillbook: nothing matched this request.")
        #expect(try await journaledRuns(in: directory).isEmpty)
    }

    @Test func anEmptyRequestIsSaidToBeEmpty() async throws {
        let directory = askWorkspace()
        for request in ["", "   "] {
            let run = await skillbook(["ask", request] + berlin, in: directory)
            #expect(run.code == 2)
            #expect(run.err == "skillbook: the request is empty: say what you want, e.g. skillbook ask \"list my notes\"\n")
        }
    }

    @Test func aMissingInputIsAskedForOnATerminal() async throws {
        let directory = askWorkspace()
        let (code, captured) = await Self.askOnATerminal("note for tomorrow", answering: ["Plan the week", "y"], in: directory)
        #expect(code == 0, "\(captured.err)")
        #expect(captured.err.contains("title (the note's title): "))
        #expect(captured.err.contains("Run it? [y/N] "))
        let saved = try askNotes(in: directory)
        #expect(saved.map(\.title) == ["Plan the week"])
        #expect(saved.first?.body == "2026-12-02")
        #expect(try await journaledRuns(in: directory) == ["day-note"])
    }

    @Test func noRouteAndNoModelListsTheNearestAndHowToConfigureAModel() async throws {
        let directory = askWorkspace()
        let run = await skillbook(["ask", "make me a sandwich"] + berlin, in: directory)
        #expect(run.code == 2)
        let lines = run.errLines
        #expect(lines.first == "skillbook: nothing matched this request.")
        #expect(lines.dropFirst().first == "nearest:")
        #expect(lines.count == 6)
        #expect(lines[2...4].allSatisfy { $0.hasPrefix("  skill ") || $0.hasPrefix("  playbook ") })
        #expect(lines[5].hasPrefix("to plan requests like this with a language model, set SKILLBOOK_MODEL_URL"))
        #expect(run.out.isEmpty)
    }

    /// Issue 27: targets that score 0.0 are not "nearest"; with none above it there is no such line.
    @Test func nothingMatchedNamesNoTargetAtZero() async throws {
        let directory = askWorkspace()
        let run = await skillbook(["ask", "xyzzy plugh"] + berlin, in: directory)
        #expect(run.code == 2)
        #expect(run.errLines.first == "skillbook: nothing matched this request.")
        #expect(run.errLines.count == 2)
        #expect(run.errLines.last?.hasPrefix("to plan requests like this with a language model") == true)
    }

    /// On a terminal an answer that does not fit its input is asked for again; a read-only query
    /// then runs without a confirmation.
    @Test func anAnswerThatDoesNotFitIsAskedAgainAndAQueryIsNotConfirmed() async throws {
        let directory = askWorkspace()
        let (code, captured) = await Self.askOnATerminal("pause for a minute", answering: ["y", "0"], in: directory)
        #expect(code == 0, "\(captured.err)")
        #expect(
            captured.err.contains(
                "seconds (How long to wait, in seconds.): 'y' does not fit: expects number, got string.\n"
                    + "seconds (How long to wait, in seconds.): "))
        #expect(!captured.err.contains("Run it?"))
        #expect(try await journaledRuns(in: directory) == ["debug-sleep"])
    }

    // MARK: Running layers 1 and 2

    @Test func aSkillRouteRunsOnTheEngineAndIsJournaled() async throws {
        let directory = askWorkspace()
        let run = await skillbook(["ask", "remind me tomorrow 9am to call Ada", "--yes"] + berlin, in: directory)
        #expect(run.code == 0, "\(run.err)")
        #expect(run.err.hasPrefix("Understood: skill reminders.create (layer 2, confidence 0.938)\n  due: \"2026-12-02T09:00:00+01:00\"\n  title: \"call Ada\"\n"))
        let saved = try reminders(in: directory)
        #expect(saved.map(\.title) == ["call Ada"])
        #expect(try await journaledRuns(in: directory) == ["reminders-create"])
        #expect(try JSONText.decode(run.out)["title"] == "call Ada")
    }

    @Test func anActionWithoutYesOrATerminalRunsNothing() async throws {
        let directory = askWorkspace()
        let run = await skillbook(["ask", "remind me tomorrow 9am to call Ada"] + berlin, in: directory)
        #expect(run.code == 2)
        #expect(run.errLines.last == "skillbook: error: 'reminders.create' changes something and needs confirmation; no terminal to ask on: pass --yes. Nothing ran.")
        #expect(try reminders(in: directory).isEmpty)
        #expect(try await journaledRuns(in: directory).isEmpty)
    }

    // MARK: --save

    @Test func saveWritesAPlaybookThatValidatesAndRunsTheSame() async throws {
        let directory = askWorkspace()
        let run = await skillbook(["ask", "remind me tomorrow 9am to call Ada", "--save", "call-ada.yaml", "--yes"] + berlin, in: directory)
        #expect(run.code == 0, "\(run.err)")
        let text = try String(contentsOf: directory.url.appendingPathComponent("call-ada.yaml"), encoding: .utf8)
        #expect(text.hasPrefix("name: call-ada\ndescription: \"remind me tomorrow 9am to call Ada\"\nsteps:\n  - id: \"reminders_create\"\n"))
        let validated = await skillbook(["validate", "call-ada.yaml"], in: directory)
        #expect(validated.code == 0, "\(validated.err)")
        let again = await skillbook(["run", "call-ada.yaml", "--yes"], in: directory)
        #expect(again.code == 0, "\(again.err)")
        let saved = try reminders(in: directory)
        #expect(saved.count == 2)
        #expect(Set(saved.map(\.title)) == ["call Ada"])
        #expect(Set(saved.compactMap(\.due)).count == 1)
        // An existing file is never overwritten; nothing runs.
        let refused = await skillbook(["ask", "remind me tomorrow 9am to call Ada", "--save", "call-ada.yaml", "--yes"] + berlin, in: directory)
        #expect(refused.code == 2)
        #expect(refused.errLines.first == "skillbook: error: --save: call-ada.yaml exists; it is not overwritten (choose another file or remove it)")
        #expect(try reminders(in: directory).count == 2)
    }

    @Test func savingAPlaybookRouteWritesAStepThatRunsIt() async throws {
        let directory = askWorkspace()
        let run = await skillbook(["ask", "note for tomorrow", "-i", "title=Plan", "--save", "plan.yaml", "--explain"] + berlin, in: directory)
        #expect(run.code == 0, "\(run.err)")
        #expect(try askNotes(in: directory).isEmpty)
        let validated = await skillbook(["validate", "plan.yaml"], in: directory)
        #expect(validated.code == 0, "\(validated.err)")
        let again = await skillbook(["run", "plan.yaml", "--yes"], in: directory)
        #expect(again.code == 0, "\(again.err)")
        #expect(try askNotes(in: directory).map(\.body) == ["2026-12-02"])
    }

    /// Issue 27 item 13: a plan saved outside its workspace names that workspace in its first
    /// line, so `validate` and `run` of the file from a folder without it find it; the run prints
    /// the steps' outputs; a named folder that is not a workspace is an error naming it.
    @Test func aPlanSavedOutsideItsWorkspaceNamesItAndRunsFromAnywhere() async throws {
        let directory = askWorkspace()
        let elsewhere = TemporaryDirectory()
        let saved = elsewhere.url.appendingPathComponent("plan.yaml")
        let ask = await skillbook(["ask", "note for tomorrow", "-i", "title=Plan", "--save", saved.path, "--explain"] + berlin, in: directory)
        #expect(ask.code == 0, "\(ask.err)")
        let text = try String(contentsOf: saved, encoding: .utf8)
        let root = directory.url.standardizedFileURL.path
        #expect(text.hasPrefix("# workspace: \(root)\nname: plan\n"), "\(text)")
        #expect(text.hasSuffix("outputs:\n  run: \"${{ steps.run.output }}\"\n"), "\(text)")

        func here(_ arguments: [String]) async -> CLIRun {
            let captured = CapturedOutput()
            let code = await SkillbookCLI.run(
                arguments + ["--state", directory.state.path], console: captured.console, environment: [:], currentDirectory: elsewhere.url)
            return CLIRun(code: code, out: captured.out, err: captured.err)
        }
        let validated = await here(["validate", "plan.yaml"])
        #expect(validated.code == 0, "\(validated.err)")
        #expect(validated.out.hasSuffix("plan.yaml: ok\n"), "\(validated.out)")
        let run = await here(["run", "plan.yaml", "--yes"])
        #expect(run.code == 0, "\(run.err)")
        let notes = try askNotes(in: directory)
        #expect(notes.map(\.title) == ["Plan"])
        #expect(try JSONText.decode(run.out)["run"]?["id"]?.stringValue == notes.first?.id, "\(run.out)")

        // Without that workspace the error names it.
        try FileManager.default.removeItem(at: directory.url.appendingPathComponent("Playbooks"))
        let missing = await here(["validate", "plan.yaml"])
        #expect(missing.code == 2)
        #expect(
            missing.errLines.first
                == "skillbook: error: plan.yaml needs the workspace \(root) (its first line), which is not a workspace here; "
                + "run it from that workspace, or change that line", "\(missing.err)")
    }
}
