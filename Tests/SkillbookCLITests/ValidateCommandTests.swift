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

    @Test func nothingToValidateIsAUsageError() async {
        let directory = TemporaryDirectory()
        try? FileManager.default.createDirectory(at: directory.url.appendingPathComponent("empty"), withIntermediateDirectories: true)
        let empty = await skillbook(["validate", "empty"], in: directory)
        #expect(empty.code == 2)
        #expect(empty.errLines == ["skillbook: error: no playbooks in \(directory.path)/empty", "Run 'skillbook validate --help' for usage."])

        let missing = await skillbook(["validate", "nope.yaml"], in: directory)
        #expect(missing.code == 2)
        #expect(missing.errLines.first == "skillbook: error: no such file or folder 'nope.yaml'")

        let noFolder = await skillbook(["validate"], in: directory)
        #expect(noFolder.code == 2)
        #expect(noFolder.errLines.first == "skillbook: error: no playbooks in \(directory.playbooks.path)")
    }

    @Test func aFileThatIsNotUTF8IsNamed() async {
        let directory = TemporaryDirectory()
        let file = directory.url.appendingPathComponent("latin1.yaml")
        _ = FileManager.default.createFile(atPath: file.path, contents: Data([0x6E, 0x61, 0x6D, 0x65, 0x3A, 0x20, 0xE9, 0x0A]))
        let run = await skillbook(["validate", file.path], in: directory)
        #expect(run.code == 2)
        #expect(run.errLines.first == "skillbook: error: playbook file '\(file.path)' is not UTF-8 text")
    }
}
