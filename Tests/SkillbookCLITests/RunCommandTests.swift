import SkillbookTesting
import SkillbookCore
import Foundation
import SkillbookSQL
import SkillbookSQLite
import Testing

/// A playbook with typed inputs whose outputs echo them back.
private let typedPlaybook = """
    name: typed
    inputs:
      count: { type: integer, minimum: 1 }
      tags: { type: array, items: { type: string }, default: [] }
      label: { type: string, default: x }
    steps:
      - id: a
        skill: debug.echo
        with: { value: "${{ inputs.count }}" }
    outputs:
      count: "${{ steps.a.output.value }}"
      tags: "${{ inputs.tags }}"

    """

/// Creates a note, then fails: the note must be rolled back.
private let failingPlaybook = """
    name: failing
    steps:
      - id: save
        skill: notes.create
        with: { title: doomed }
      - id: boom
        skill: debug.fail
        with: { message: it broke }

    """

private func notes(in directory: TemporaryDirectory) throws -> [Note] {
    try NotesStore(stateDirectory: directory.state).list(tag: nil, limit: 1000)
}

/// The inputs of the `run.started` event of a `--json` run, as the JSON text the CLI printed.
private func startedInputs(_ run: CLIRun) throws -> String {
    let line = try #require(run.out.split(separator: "\n").first.map(String.init))
    let object = try #require(try parseJSON(line) as? JSONObject)
    #expect(object.type == "run.started")
    let data = try JSONSerialization.data(withJSONObject: try #require(object.object("inputs")), options: [.sortedKeys])
    return String(decoding: data, as: UTF8.self)
}

@Suite struct RunCommandTests {
    // MARK: Inputs

    @Test func commandLineInputsAreCoercedToTheirTypes() async throws {
        let directory = TemporaryDirectory()
        directory.write("Playbooks/typed.yaml", typedPlaybook)
        let run = await skillbook(["run", "typed", "-i", "count=5", "-i", "tags=[a, b]", "--json"], in: directory)
        #expect(run.code == 0, "\(run.err)")
        #expect(try startedInputs(run) == #"{"count":5,"label":"x","tags":["a","b"]}"#)
        // Exactly as printed: an integer and a list, not text.
        #expect(run.out.hasPrefix(#"{"type":"run.started","#))
        #expect(run.out.contains(#""inputs":{"count":5,"tags":["a","b"],"label":"x"}"#))
    }

    @Test func aBareWordForAListInputIsAOneElementList() async throws {
        let directory = TemporaryDirectory()
        directory.write("Playbooks/typed.yaml", typedPlaybook)
        let run = await skillbook(["run", "typed", "--input", "count=2", "--input=tags=urgent, soon", "--json"], in: directory)
        #expect(run.code == 0, "\(run.err)")
        #expect(try startedInputs(run) == #"{"count":2,"label":"x","tags":["urgent, soon"]}"#)
    }

    @Test func anInputsFileIsAYAMLMappingAndCommandLineValuesWin() async throws {
        let directory = TemporaryDirectory()
        directory.write("Playbooks/typed.yaml", typedPlaybook)
        directory.write("inputs.yaml", "count: 7\ntags: [x, y]\nlabel: from file\n")
        // A relative path is read from the invocation's directory.
        let fromFile = await skillbook(["run", "typed", "--inputs", "inputs.yaml", "--json"], in: directory)
        #expect(fromFile.code == 0, "\(fromFile.err)")
        #expect(try startedInputs(fromFile) == #"{"count":7,"label":"from file","tags":["x","y"]}"#)

        let overridden = await skillbook(["run", "typed", "--inputs", "inputs.yaml", "-i", "count=9", "--json"], in: directory)
        #expect(try startedInputs(overridden) == #"{"count":9,"label":"from file","tags":["x","y"]}"#)
    }

    @Test func aJSONInputsFileWorksToo() async throws {
        let directory = TemporaryDirectory()
        directory.write("Playbooks/typed.yaml", typedPlaybook)
        let file = directory.write("inputs.json", #"{"count": "3", "tags": "solo"}"#)
        let run = await skillbook(["run", "typed", "--inputs", file.path, "--json"], in: directory)
        #expect(run.code == 0, "\(run.err)")
        // Values from a file are coerced leniently too.
        #expect(try startedInputs(run) == #"{"count":3,"label":"x","tags":["solo"]}"#)
    }

    @Test func aJSONInputsFileReadsSurrogatePairsAndNullIsValidatedNotSkipped() async throws {
        let directory = TemporaryDirectory()
        directory.write("Playbooks/typed.yaml", typedPlaybook)
        directory.write("emoji.json", #"{"count": 1, "label": "\ud83d\udca9 ok"}"#)
        let emoji = await skillbook(["run", "typed", "--inputs", "emoji.json", "--json"], in: directory)
        #expect(emoji.code == 0, "\(emoji.err)")
        #expect(try startedInputs(emoji) == #"{"count":1,"label":"💩 ok","tags":[]}"#)

        directory.write("null.json", #"{"count": null, "label": null}"#)
        let null = await skillbook(["run", "typed", "--inputs", "null.json"], in: directory)
        #expect(null.code == 2)
        #expect(null.errLines == [
            "inputs.count: error: input 'count' expects integer, got null",
            "inputs.label: error: input 'label' expects string, got null",
            "2 errors, 0 warnings",
        ])
        // A message about a coerced value also shows the value as written.
        let small = await skillbook(["run", "typed", "-i", "count=0.0"], in: directory)
        #expect(small.errLines == ["inputs.count: error: input 'count' must be at least 1, got 0 (written as '0.0')"])
        #expect(try notes(in: directory).isEmpty)
    }

    @Test func anInputsFileThatIsNotAMappingIsRefusedWithItsPosition() async throws {
        let directory = TemporaryDirectory()
        directory.write("Playbooks/typed.yaml", typedPlaybook)
        directory.write("list.yaml", "# inputs\n- count\n- 5\n")
        directory.write("broken.yaml", "count: [1,\n")
        let list = await skillbook(["run", "typed", "--inputs", "list.yaml", "--json"], in: directory)
        #expect(list.code == 2)
        #expect(list.errLines == ["list.yaml:2:1: error: an inputs file must be a mapping of input names to values, not a list"])
        #expect(onlyDiagnostics(list.out), "with --json, stdout has the diagnostics as JSON and no event: \(list.out)")

        let broken = await skillbook(["run", "typed", "--inputs", "broken.yaml"], in: directory)
        #expect(broken.code == 2)
        #expect(
            broken.errLines.first
                == "broken.yaml:2:1: error: YAML syntax: did not find expected node content (while parsing a flow node at line 2, column 1)")

        let missing = await skillbook(["run", "typed", "--inputs", "nope.yaml"], in: directory)
        #expect(missing.code == 2)
        #expect(missing.errLines == ["skillbook: error: cannot read inputs file 'nope.yaml'", "Run 'skillbook run --help' for usage."])
    }

    @Test func aMissingRequiredInputNamesItAndHowToPassIt() async throws {
        let directory = TemporaryDirectory()
        directory.write("Playbooks/typed.yaml", typedPlaybook)
        let run = await skillbook(["run", "typed", "--json"], in: directory)
        #expect(run.code == 2)
        #expect(run.errLines == ["inputs.count: error: missing required input 'count'; pass it with -i count=VALUE"])
        #expect(onlyDiagnostics(run.out), "\(run.out)")
    }

    /// A playbook or skill that does not exist is a load error too: with `--json` it had printed
    /// nothing on stdout.
    @Test func anUnknownPlaybookOrSkillIsADiagnosticOnStdoutWithJSON() async throws {
        let directory = TemporaryDirectory()
        directory.write("Playbooks/typed.yaml", typedPlaybook)
        for (command, message) in [
            (["run", "typd", "--json"], "no playbook named 'typd' in \(directory.playbooks.path); did you mean 'typed'?"),
            (["call", "notes.lst", "--json"], "no skill 'notes.lst'; did you mean 'notes.list'?"),
        ] {
            let run = await skillbook(command, in: directory)
            #expect(run.code == 2)
            #expect(onlyDiagnostics(run.out), "\(command): \(run.out)")
            let first = try JSONText.decode(String(run.out.split(separator: "\n").first ?? ""))
            #expect(first["severity"]?.stringValue == "error" && first["message"]?.stringValue == message, "\(run.out)")
            #expect(run.err.contains("skillbook: error: " + message), "\(run.err)")
        }
    }

    /// Outside any workspace a name was said to be missing "in Playbooks", a folder that is not
    /// there; now it says so, and what to do.
    @Test func aNameWhereThereIsNoPlaybooksFolderSaysSo() async {
        let directory = TemporaryDirectory()
        let run = await skillbook(["run", "hello-notes"], in: directory)
        #expect(run.code == 2)
        #expect(
            run.errLines.first
                == "skillbook: error: no playbook named 'hello-notes': there is no folder \(directory.playbooks.path); a workspace is "
                + "a folder with Playbooks/ or skillbook.yaml (here or above): run it from its workspace, give its file's path, or pass --playbooks DIR")
    }

    /// `-i name=x -i name=y` had kept the last value without a word.
    @Test func anInputGivenTwiceIsRefused() async {
        let directory = TemporaryDirectory()
        directory.write("Playbooks/typed.yaml", typedPlaybook)
        let run = await skillbook(["run", "typed", "-i", "count=1", "-i", "count=2"], in: directory)
        #expect(run.code == 2)
        #expect(run.errLines.first == "skillbook: error: -i count is given more than once; give it once (a list as -i count=[a, b])")
    }

    @Test func anUnknownInputGetsADidYouMean() async throws {
        let directory = TemporaryDirectory()
        directory.write("Playbooks/typed.yaml", typedPlaybook)
        let run = await skillbook(["run", "typed", "-i", "count=1", "-i", "lable=y", "-i", "zzz=1"], in: directory)
        #expect(run.code == 2)
        #expect(
            run.errLines == [
                "inputs.lable: error: playbook 'typed' has no input 'lable'; did you mean 'label'?",
                "inputs.zzz: error: playbook 'typed' has no input 'zzz' (it takes: count, tags, label)",
                "2 errors, 0 warnings",
            ])
    }

    @Test func inputValuesAreValidatedAfterCoercion() async throws {
        let directory = TemporaryDirectory()
        directory.write("Playbooks/typed.yaml", typedPlaybook)
        let text = await skillbook(["run", "typed", "-i", "count=five"], in: directory)
        #expect(text.code == 2)
        #expect(text.errLines == ["inputs.count: error: input 'count' expects integer, got string"])
        let small = await skillbook(["run", "typed", "-i", "count=0"], in: directory)
        #expect(small.errLines == ["inputs.count: error: input 'count' must be at least 1, got 0"])
        let shape = await skillbook(["run", "typed", "-i", "count"], in: directory)
        #expect(shape.code == 2)
        #expect(shape.errLines == ["skillbook: error: -i expects KEY=VALUE, got 'count'", "Run 'skillbook run --help' for usage."])
        #expect(try notes(in: directory).isEmpty)
    }

    // MARK: Finding the playbook

    @Test func aPlaybookRunsByNameFromThePlaybooksFolderAndByPath() async throws {
        let directory = TemporaryDirectory()
        let file = directory.write("Playbooks/typed.yaml", typedPlaybook)
        directory.write("elsewhere/other.yml", typedPlaybook.replacingOccurrences(of: "name: typed", with: "name: other"))
        let byName = await skillbook(["run", "typed", "-i", "count=1"], in: directory)
        #expect(byName.code == 0, "\(byName.err)")
        #expect(byName.out == "{\n  \"count\": 1,\n  \"tags\": []\n}\n")

        let byPath = await skillbook(["run", file.path, "-i", "count=2"], in: directory)
        #expect(byPath.code == 0)
        #expect(byPath.out.contains("\"count\": 2"))

        let relative = await skillbook(["run", "./elsewhere/other.yml", "-i", "count=3"], in: directory)
        #expect(relative.code == 0, "\(relative.err)")
        #expect(relative.err.contains("other succeeded in "))
    }

    @Test func anUnknownPlaybookNameGetsADidYouMean() async throws {
        let directory = TemporaryDirectory()
        directory.write("Playbooks/typed.yaml", typedPlaybook)
        directory.write("Playbooks/failing.yaml", failingPlaybook)
        let folder = directory.playbooks.path
        let typo = await skillbook(["run", "typd"], in: directory)
        #expect(typo.code == 2)
        #expect(
            typo.errLines == [
                "skillbook: error: no playbook named 'typd' in \(folder); did you mean 'typed'?",
                "Run 'skillbook run --help' for usage.",
            ])
        let unrelated = await skillbook(["run", "morning-briefing"], in: directory)
        #expect(
            unrelated.errLines.first
                == "skillbook: error: no playbook named 'morning-briefing' in \(folder) (available: failing, typed)")
        let noFile = await skillbook(["run", "missing.yaml"], in: directory)
        #expect(noFile.errLines.first == "skillbook: error: no playbook file at 'missing.yaml'")
    }

    // MARK: --json and exit codes

    @Test func jsonOutputIsOneObjectPerLineEndingWithRunFinished() async throws {
        let directory = TemporaryDirectory()
        directory.write("Playbooks/typed.yaml", typedPlaybook)
        let run = await skillbook(["run", "typed", "-i", "count=4", "-i", "tags=[p]", "--json"], in: directory)
        #expect(run.code == 0)
        let events = try jsonLines(run.out)
        #expect(events.map(\.type) == ["run.started", "step.started", "step.succeeded", "run.finished"])
        let finished = try #require(events.last)
        #expect(finished["status"] as? String == "succeeded")
        #expect(finished["interrupted"] as? Bool == false)
        #expect(finished["playbook"] as? String == "typed")
        #expect(finished["run"] as? String == events[0]["run"] as? String)
        #expect(finished.object("outputs")?["count"] as? Int == 4)
        #expect(finished.object("outputs")?["tags"] as? [String] == ["p"])
        #expect(finished.stepStatuses == ["a": "succeeded"])
        #expect(events[1]["parameters"] as? [String: Int] == ["value": 4])
        // With --json, progress is not also printed for people.
        #expect(run.err.isEmpty)
    }

    @Test func aFailedStepRollsBackAndExitsWithOne() async throws {
        let directory = TemporaryDirectory()
        directory.write("Playbooks/failing.yaml", failingPlaybook)
        let run = await skillbook(["run", "failing", "--json"], in: directory)
        #expect(run.code == 1)
        let events = try jsonLines(run.out)
        #expect(
            events.map(\.type) == [
                "run.started", "step.started", "step.succeeded", "step.started", "step.failed", "rollback.started",
                "compensation.started", "compensation.succeeded", "run.finished",
            ])
        let finished = try #require(events.last)
        #expect(finished["status"] as? String == "rolled_back")
        #expect(finished["error"] as? String == "step 'boom' failed: it broke")
        #expect(finished.stepStatuses == ["save": "compensated", "boom": "failed"])
        #expect(try notes(in: directory).isEmpty)
    }

    @Test func humanOutputGoesToStderrAndTheFailureIsNamed() async throws {
        let directory = TemporaryDirectory()
        directory.write("Playbooks/failing.yaml", failingPlaybook)
        let run = await skillbook(["run", "failing"], in: directory)
        #expect(run.code == 1)
        #expect(run.out.isEmpty)
        let lines = run.errLines
        #expect(lines.first?.hasPrefix("▶ failing (run ") == true)
        #expect(
            Array(lines.dropFirst()).filter { !$0.hasPrefix("  ✓") && !$0.hasPrefix("failing rolled_back in ") } == [
                "  … save (notes.create)", "  … boom (debug.fail)", "  ✗ boom: it broke", "  ↶ undoing save",
                "  ↶ save undone", "  step 'boom' failed: it broke",
            ])
    }

    @Test func onFailureStopKeepsCompletedStepsAndContinueExitsWithZero() async throws {
        let directory = TemporaryDirectory()
        directory.write("Playbooks/stop.yaml", failingPlaybook.replacingOccurrences(of: "name: failing", with: "name: stop\non_failure: stop"))
        directory.write(
            "Playbooks/go-on.yaml", failingPlaybook.replacingOccurrences(of: "name: failing", with: "name: go-on\non_failure: continue"))
        let stop = await skillbook(["run", "stop", "--json"], in: directory)
        #expect(stop.code == 1)
        #expect(try jsonLines(stop.out).last?["status"] as? String == "failed")
        #expect(try notes(in: directory).map(\.title) == ["doomed"])

        let goOn = await skillbook(["run", "go-on", "--json"], in: directory)
        #expect(goOn.code == 0)
        let finished = try #require(try jsonLines(goOn.out).last)
        #expect(finished["status"] as? String == "succeeded_with_errors")
        #expect(finished.stepStatuses == ["save": "succeeded", "boom": "failed"])
        #expect(try notes(in: directory).count == 2)
    }

    @Test func anInvalidPlaybookExitsWithTwoAndRunsNothing() async throws {
        let directory = TemporaryDirectory()
        directory.write("Playbooks/bad.yaml", "name: bad\nsteps:\n  - { id: a, skill: notes.create, with: { title: 42 } }\n")
        let run = await skillbook(["run", "bad", "--json"], in: directory)
        #expect(run.code == 2)
        #expect(onlyDiagnostics(run.out), "\(run.out)")
        #expect(run.errLines.first == "\(directory.playbooks.path)/bad.yaml:3:50: error: step 'a' parameter 'title' expects string, got integer")
    }

    // MARK: The cases of the issue

    @Test func anEchoedValueMappedIntoANoteTitleCreatesTheNote() async throws {
        let directory = TemporaryDirectory()
        directory.write(
            "Playbooks/echo-note.yaml",
            """
            name: echo-note
            inputs:
              who: { type: string }
            steps:
              - id: a
                skill: debug.echo
                with: { value: "Call ${{ inputs.who }}" }
              - id: save
                skill: notes.create
                with:
                  title: "${{ steps.a.output.value }}"
            outputs:
              id: "${{ steps.save.output.id }}"

            """)
        let run = await skillbook(["run", "echo-note", "-i", "who=Anna", "--json"], in: directory)
        #expect(run.code == 0, "\(run.err)")
        let finished = try #require(try jsonLines(run.out).last)
        let saved = try notes(in: directory)
        #expect(saved.map(\.title) == ["Call Anna"])
        #expect(finished.object("outputs")?["id"] as? String == saved.first?.id)
    }

    @Test func aListMappedIntoANoteTitleIsRefusedAtItsLineAndColumn() async throws {
        let directory = TemporaryDirectory()
        let file = directory.write(
            "Playbooks/list-note.yaml",
            """
            name: list-note
            steps:
              - id: n
                skill: notes.list
              - { id: save, skill: notes.create, with: { title: "${{ steps.n.output.items }}" } }

            """)
        let run = await skillbook(["run", "list-note"], in: directory)
        #expect(run.code == 2)
        #expect(
            run.errLines == [
                "\(file.path):5:53: error: step 'save' parameter 'title' expects string, got array of object",
                " 5 |   - { id: save, skill: notes.create, with: { title: \"${{ steps.n.output.items }}\" } }",
                "   |                                                     ^",
            ])
        #expect(try notes(in: directory).isEmpty)
    }

    // MARK: Environment

    @Test func declaredEnvironmentVariablesReachDefaultsAndSteps() async throws {
        let directory = TemporaryDirectory()
        directory.write(
            "Playbooks/env.yaml",
            """
            name: env
            env: [GREETING]
            inputs:
              greeting: { type: string, default: "${{ env.GREETING }}" }
            steps:
              - { id: a, skill: debug.echo, with: { value: "${{ env.GREETING }} ${{ json(env) }}" } }
            outputs:
              input: "${{ inputs.greeting }}"
              step: "${{ steps.a.output.value }}"

            """)
        let run = await skillbook(
            ["run", "env", "--json"], in: directory, environment: ["GREETING": "hej", "SECRET_TOKEN": "do-not-leak"])
        #expect(run.code == 0, "\(run.err)")
        let outputs = try #require(try jsonLines(run.out).last?.object("outputs"))
        #expect(outputs["input"] as? String == "hej")
        // Only the declared variable is visible.
        #expect(outputs["step"] as? String == #"hej {"GREETING":"hej"}"#)
        #expect(!run.out.contains("do-not-leak"))
    }
}
