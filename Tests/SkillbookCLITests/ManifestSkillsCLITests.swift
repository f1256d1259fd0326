import SkillbookTesting
import SkillbookCore
import Foundation
import Testing

private let printSkill = """
    id: demo.print
    title: Print text
    summary: Prints each argument in brackets.
    kind: query
    parameters:
      type: object
      properties:
        text: { type: string, description: What to print. }
      required: [text]
    run: [printf, "<%s>", "${{ params.text }}"]

    """

@Suite struct ManifestSkillsCLITests {
    @Test func skillsFromTheSkillsOptionAreListed() async throws {
        let directory = TemporaryDirectory()
        directory.write("extra/print.yaml", printSkill)
        let run = await skillbook(["skills", "--skills", directory.url.appendingPathComponent("extra").path], in: directory)
        #expect(run.code == 0, "\(run.err)")
        #expect(run.out.contains("demo.print"))
        #expect(run.out.contains("notes.create"))
    }

    @Test func theSkillsFolderOfTheCurrentDirectoryIsLoaded() async throws {
        let directory = TemporaryDirectory()
        directory.write("Skills/print.yaml", printSkill)
        directory.write("Skills/tool.yaml", "id: demo.tool\nsummary: Runs a tool that is not installed.\nrun: [no-such-tool-xyz]\n")
        let shown = await skillbook(["skills", "demo.print"], in: directory)
        #expect(shown.code == 0, "\(shown.err)")
        #expect(shown.out.contains("Prints each argument in brackets."))
        let unavailable = await skillbook(["skills", "demo.tool"], in: directory)
        #expect(unavailable.code == 0)
        #expect(unavailable.out.contains("not available here: command 'no-such-tool-xyz' not found on PATH"))
    }

    @Test func theSkillsTableMarksASkillThatCannotRunHere() async throws {
        let directory = TemporaryDirectory()
        directory.write("Skills/tool.yaml", "id: demo.tool\nsummary: Runs a tool that is not installed.\nrun: [no-such-tool-xyz]\n")
        directory.write("Skills/print.yaml", printSkill)
        let run = try await runSkillbook(["skills", "--state", directory.state.path], in: directory.url)
        #expect(run.code == 0, "\(run.err)")
        let lines = run.out.split(separator: "\n").map(String.init)
        let width = "reminders.complete".count
        #expect(lines.first == "SKILL".padding(toLength: width, withPad: " ", startingAt: 0) + "  KIND    AVAILABLE  SUMMARY")
        #expect(
            lines.contains(
                "demo.tool".padding(toLength: width, withPad: " ", startingAt: 0)
                    + "  action  no         (command 'no-such-tool-xyz' not found on PATH) Runs a tool that is not installed."),
            "\(run.out)")
        #expect(lines.contains { $0.hasPrefix("demo.print".padding(toLength: width, withPad: " ", startingAt: 0) + "  query   yes        Prints each argument in brackets.") })
    }

    @Test func aBrokenManifestStopsEveryCommandWithItsSourceLine() async throws {
        let directory = TemporaryDirectory()
        let file = directory.write("Skills/bad.yaml", "id: demo.bad\nsummary: Broken.\nrun: echo hi\nconfrim: true\n")
        for command in [["skills"], ["list"], ["validate"]] {
            let run = await skillbook(command, in: directory)
            #expect(run.code == 2, "\(command)")
            #expect(
                run.errLines == [
                    "\(file.path):3:6: error: 'run' must be a list: the command, then its arguments, e.g. [git, status] "
                        + "(it never goes through a shell)",
                    " 3 | run: echo hi",
                    "   |      ^",
                    "\(file.path):4:1: error: unknown manifest key 'confrim'; did you mean 'confirm'?",
                    " 4 | confrim: true",
                    "   | ^",
                    "2 errors, 0 warnings",
                ], "\(command)")
        }
    }

    @Test func aManifestCannotTakeABuiltinId() async throws {
        let directory = TemporaryDirectory()
        let file = directory.write("Skills/echo.yaml", "id: debug.echo\nsummary: Echo again.\nrun: [echo]\n")
        let run = await skillbook(["skills"], in: directory)
        #expect(run.code == 2)
        #expect(run.errLines.first == "\(file.path):1:5: error: skill 'debug.echo' has the id of a built-in skill; skill ids must be unique")
    }

    @Test func aMissingSkillsFolderIsAUsageError() async throws {
        let directory = TemporaryDirectory()
        let run = await skillbook(["skills", "--skills", "nowhere"], in: directory)
        #expect(run.code == 2)
        #expect(run.errLines.first == "skillbook: error: no skills folder at 'nowhere'")
    }

    @Test func shellRunRunsInTheCurrentDirectoryOfTheInvocation() async throws {
        let directory = TemporaryDirectory()
        directory.write(
            "Playbooks/where.yaml",
            """
            name: where
            steps:
              - id: here
                skill: shell.run
                with: { argv: [pwd] }
            outputs:
              folder: "${{ steps.here.output.stdout }}"

            """)
        let refused = await skillbook(["run", "where"], in: directory)
        #expect(refused.code != 0, "shell.run asks first, and there is no terminal")
        let run = await skillbook(["run", "where", "--yes"], in: directory)
        #expect(run.code == 0, "\(run.err)")
        #expect(run.out.contains(#""folder": "\#(directory.url.standardizedFileURL.path)\n""#), "\(run.out)")
    }

    @Test func aPlaybookRunsAManifestSkillWithHostileInputsAsPlainText() async throws {
        let directory = TemporaryDirectory()
        directory.write("Skills/print.yaml", printSkill)
        directory.write(
            "Playbooks/say.yaml",
            """
            name: say
            inputs:
              text: { type: string }
            steps:
              - id: print
                skill: demo.print
                with: { text: "${{ inputs.text }}" }
            outputs:
              printed: "${{ steps.print.output.stdout }}"

            """)
        for hostile in ["\"; rm -rf $HOME #\"", "$(touch pwned)"] {
            let run = await skillbook(["run", "say", "-i", "text=\(hostile)"], in: directory)
            #expect(run.code == 0, "\(run.err)")
            #expect(run.out.contains(#""printed": "<\#(hostile.replacingOccurrences(of: "\"", with: "\\\""))>""#), "\(run.out)")
            #expect(!FileManager.default.fileExists(atPath: directory.url.appendingPathComponent("pwned").path))
        }
    }
}
