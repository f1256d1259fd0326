import SkillbookTesting
import SkillbookCore
import Foundation
import Testing

private let good = "name: good\nsteps:\n  - { id: a, skill: debug.echo, with: { value: 1 } }\n"
private let bad = "name: bad\nsteps:\n  - id: a\n    skill: notes.create\n    with: { title: 42 }\n"

@Suite struct ValidateCommandTests {
    @Test func aFolderWithOneGoodAndOneBadFile() async {
        let directory = TemporaryDirectory()
        directory.write("mixed/good.yaml", good)
        let badFile = directory.write("mixed/bad.yaml", bad)
        directory.write("mixed/readme.md", "not a playbook")
        let run = await skillbook(["validate", "mixed"], in: directory)
        #expect(run.code == 2)
        #expect(run.out == "\(directory.path)/mixed/good.yaml: ok\n")
        #expect(
            run.errLines == [
                "\(badFile.path):5:20: error: step 'a' parameter 'title' expects string, got integer",
                " 5 |     with: { title: 42 }",
                "   |                    ^",
                "1 of 2 playbooks failed validation",
            ])
    }

    @Test func aManifestWarningIsPrintedWithItsLineAndHint() async {
        let directory = TemporaryDirectory()
        let manifest = directory.write(
            "Skills/login.yaml",
            """
            id: demo.login
            summary: Logs in.
            parameters:
              type: object
              properties:
                token: { type: string, secret: true }
            run: [echo, "${{ params.token }}"]

            """)
        let one = directory.write("one.yaml", good)
        let run = await skillbook(["validate", one.path], in: directory)
        #expect(run.code == 0, "a warning is not a failure: \(run.err)")
        #expect(run.out == "\(one.path): ok\n")
        #expect(
            run.err.hasPrefix(
                "\(manifest.path):7:6: warning: 'run' passes secret parameter 'token' on the command line, where other users "
                    + "of this machine can read it (ps, /proc)\n"), "\(run.err)")
        #expect(run.err.contains("use 'stdin: json'"))
    }

    @Test func goodFilesAreAllOkWithExitCodeZero() async {
        let directory = TemporaryDirectory()
        let one = directory.write("one.yaml", good)
        let two = directory.write("two.yml", good.replacingOccurrences(of: "name: good", with: "name: two"))
        let run = await skillbook(["validate", one.path, "two.yml"], in: directory)
        #expect(run.code == 0, "\(run.err)")
        #expect(run.out == "\(one.path): ok\n\(two.path): ok\n")
        #expect(run.err.isEmpty)
    }

    @Test func withoutAPathTheWholePlaybooksFolderIsChecked() async {
        let directory = TemporaryDirectory()
        directory.write("Playbooks/good.yaml", good)
        directory.write("Playbooks/bad.yaml", bad)
        let run = await skillbook(["validate"], in: directory)
        #expect(run.code == 2)
        #expect(run.out == "\(directory.playbooks.path)/good.yaml: ok\n")
        #expect(run.errLines.last == "1 of 2 playbooks failed validation")
    }

    @Test func aPlaybookNamedOtherThanItsFileIsAnErrorAtTheNameLine() async {
        let directory = TemporaryDirectory()
        let file = directory.write("Playbooks/evening.yaml", good)
        let run = await skillbook(["validate"], in: directory)
        #expect(run.code == 2)
        #expect(run.out.isEmpty)
        #expect(
            run.errLines == [
                "\(file.path):1:7: error: playbook name 'good' does not match its file name 'evening.yaml'; a playbook is found by its file name",
                " 1 | name: good",
                "   |       ^",
                "note: write `name: evening`, or rename the file to good.yaml",
                "1 of 1 playbook failed validation",
            ])
    }

    /// Issue 27: an empty folder is nothing to check (exit 0, said so); a missing one is a mistake.
    @Test func nothingToValidateIsSaidAndAMissingFolderIsAUsageError() async {
        let directory = TemporaryDirectory()
        try? FileManager.default.createDirectory(at: directory.url.appendingPathComponent("empty"), withIntermediateDirectories: true)
        let empty = await skillbook(["validate", "empty"], in: directory)
        #expect(empty.code == 0)
        #expect(empty.errLines == ["nothing to check: \(directory.path)/empty holds no playbooks"])
        #expect(empty.out == "")

        let missing = await skillbook(["validate", "nope.yaml"], in: directory)
        #expect(missing.code == 2)
        #expect(missing.errLines.first == "skillbook: error: no such file or folder 'nope.yaml'")

        let noFolder = await skillbook(["validate"], in: directory)
        #expect(noFolder.code == 2)
        #expect(noFolder.errLines.first == "skillbook: error: no playbooks in \(directory.playbooks.path)")

        try? FileManager.default.createDirectory(at: directory.playbooks, withIntermediateDirectories: true)
        let emptyPlaybooks = await skillbook(["validate"], in: directory)
        #expect(emptyPlaybooks.code == 0)
        #expect(emptyPlaybooks.errLines == ["nothing to check: \(directory.playbooks.path) holds no playbooks"])
    }

    @Test func aFileThatIsNotUTF8IsReportedAtItsFirstBadByteAndTheRestAreChecked() async {
        let directory = TemporaryDirectory()
        directory.write("mixed/a-good.yaml", good)
        let latin1 = directory.url.appendingPathComponent("mixed/b-latin1.yaml")
        // "description: caf\xE9": byte 27 (line 2, column 17) is Latin-1, not UTF-8.
        _ = FileManager.default.createFile(
            atPath: latin1.path, contents: Data("name: good\ndescription: caf".utf8) + Data([0xE9, 0x0A]))
        let badFile = directory.write("mixed/c-bad.yaml", bad)
        let run = await skillbook(["validate", "mixed"], in: directory)
        #expect(run.code == 2)
        #expect(run.out == "\(directory.path)/mixed/a-good.yaml: ok\n")
        #expect(
            run.errLines == [
                "\(latin1.path):2:17: error: not UTF-8 text: byte 0xE9 at byte offset 27 is not valid UTF-8",
                " 2 | description: caf\u{FFFD}",
                "   |                 ^",
                "note: save the file as UTF-8",
                "\(badFile.path):5:20: error: step 'a' parameter 'title' expects string, got integer",
                " 5 |     with: { title: 42 }",
                "   |                    ^",
                "2 of 3 playbooks failed validation",
            ])

        let single = await skillbook(["validate", latin1.path], in: directory)
        #expect(single.code == 2)
        #expect(single.errLines.first == "\(latin1.path):2:17: error: not UTF-8 text: byte 0xE9 at byte offset 27 is not valid UTF-8")
        let run2 = await skillbook(["run", latin1.path], in: directory)
        #expect(run2.code == 2, "a playbook that is not text does not run")
        #expect(run2.errLines.first == single.errLines.first)
    }
}

@Suite struct ValidateJSONTests {
    @Test func eachDiagnosticIsAJSONLineThenASummary() async throws {
        let directory = TemporaryDirectory()
        directory.write("mixed/good.yaml", good)
        let badFile = directory.write("mixed/bad.yaml", bad)
        let run = await skillbook(["validate", "mixed", "--json"], in: directory)
        #expect(run.code == 2)
        #expect(run.err.isEmpty, "\(run.err)")
        #expect(
            run.out == """
                {"type":"diagnostic","file":"\(badFile.path)","line":5,"column":20,"severity":"error","message":"step 'a' parameter 'title' expects string, got integer","fix":null}
                {"type":"summary","files":2,"failed":1,"errors":1,"warnings":0}

                """)
        let ok = await skillbook(["validate", "mixed/good.yaml", "--json"], in: directory)
        #expect(ok.code == 0)
        #expect(ok.out == "{\"type\":\"summary\",\"files\":1,\"failed\":0,\"errors\":0,\"warnings\":0}\n")
    }

    @Test func aFixIsCarried() async throws {
        let directory = TemporaryDirectory()
        let file = directory.write(
            "greet.yaml",
            "name: greet\ninputs:\n  loud: { type: string }\nsteps:\n  - id: say\n    skill: debug.echo\n    when: \"${{ inputs.loud }}\"\n    with: { value: 1 }\n")
        let run = await skillbook(["validate", "greet.yaml", "--json"], in: directory)
        #expect(run.code == 2)
        #expect(
            run.out == """
                {"type":"diagnostic","file":"\(file.path)","line":7,"column":12,"severity":"error","message":"step 'say' 'when' must be a boolean, got string","fix":"compare it: `${{ inputs.loud == 'yes' }}`"}
                {"type":"summary","files":1,"failed":1,"errors":1,"warnings":0}

                """)
    }

    @Test func runJSONPrintsLoadAndInputErrorsOnStdout() async throws {
        let directory = TemporaryDirectory()
        let badFile = directory.write("Playbooks/bad.yaml", bad)
        let load = await skillbook(["run", "bad", "--json"], in: directory)
        #expect(load.code == 2)
        #expect(
            load.out == """
                {"type":"diagnostic","file":"\(badFile.path)","line":5,"column":20,"severity":"error","message":"step 'a' parameter 'title' expects string, got integer","fix":null}
                {"type":"summary","files":1,"failed":1,"errors":1,"warnings":0}

                """)
        #expect(load.errLines.first == "\(badFile.path):5:20: error: step 'a' parameter 'title' expects string, got integer")

        directory.write("Playbooks/count.yaml", "name: count\ninputs:\n  n: { type: integer }\nsteps:\n  - { id: a, skill: debug.echo, with: { value: \"${{ inputs.n }}\" } }\n")
        let input = await skillbook(["run", "count", "-i", "n=many", "--json"], in: directory)
        #expect(input.code == 2)
        let lines = input.out.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(input.out)")
        let first = try #require(try parseJSON(lines[0]) as? JSONObject)
        #expect(first["type"] as? String == "diagnostic")
        #expect(first["file"] is NSNull)
        #expect(first["path"] as? String == "inputs.n")
        #expect(first["severity"] as? String == "error")
        #expect(lines[1] == "{\"type\":\"summary\",\"files\":1,\"failed\":0,\"errors\":1,\"warnings\":0}")
    }
}

/// Issue 27 friction: a top-level key starting with `x-` holds values shared through YAML anchors
/// (as Compose's extension fields); other unknown keys are still errors.
@Suite struct ExtensionKeyTests {
    @Test func anXKeyHoldsSharedValuesThatStepsUseByAlias() async throws {
        let directory = TemporaryDirectory()
        directory.write(
            "Playbooks/shared.yaml",
            """
            name: shared
            x-common: &common
              template: "{{who}} at {{where}}"
              values: { who: Ada, where: home }
            steps:
              - id: one
                skill: text.template
                with: *common
            outputs:
              text: "${{ steps.one.output.text }}"

            """)
        let validated = await skillbook(["validate"], in: directory)
        #expect(validated.code == 0, "\(validated.err)")
        let run = await skillbook(["run", "shared"], in: directory)
        #expect(run.code == 0, "\(run.err)")
        #expect(try JSONText.decode(run.out)["text"] == "Ada at home", "\(run.out)")

        directory.write("Playbooks/shared.yaml", "name: shared\ncommon: 1\nsteps:\n  - id: one\n    skill: debug.echo\n")
        let refused = await skillbook(["validate"], in: directory)
        #expect(refused.code == 2)
        #expect(refused.err.contains("unknown playbook key 'common'"), "\(refused.err)")
    }
}
