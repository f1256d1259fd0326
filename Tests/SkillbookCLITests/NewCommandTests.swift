import Foundation
import SkillbookCLI
import SkillbookCore
import SkillbookTesting
import Testing

@Suite struct NewCommandTests {
    @Test func writesASkeletonThatValidatesAsWritten() async throws {
        let directory = TemporaryDirectory()
        let run = await skillbook(["new", "evening", "--skill", "notes.create", "--skill", "files.write", "--skill", "notes.create"], in: directory)
        #expect(run.code == 0, "\(run.err)")
        let file = directory.playbooks.appendingPathComponent("evening.yaml")
        #expect(run.out == "wrote \(file.path)\n")
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(text.hasPrefix("# evening: a playbook. Run it with `skillbook run evening`; check it with `skillbook validate`.\n"))
        for line in [
            "name: evening", "  - id: create", "    skill: notes.create", "  - id: write", "    skill: files.write",
            "  - id: create_2",
        ] {
            #expect(text.contains("\n\(line)\n"), "missing '\(line)' in\n\(text)")
        }
        #expect(text.contains("      title: \"TODO title\""), "\(text)")
        let check = await skillbook(["validate", file.path], in: directory)
        #expect(check.code == 0, "\(check.err)\n\(text)")
        #expect(check.err.isEmpty, "\(check.err)")
    }

    @Test func withoutSkillsItIsOneEchoStepThatRuns() async throws {
        let directory = TemporaryDirectory()
        #expect(await skillbook(["new", "hello"], in: directory).code == 0)
        let run = await skillbook(["run", "hello"], in: directory)
        #expect(run.code == 0, "\(run.err)")
    }

    @Test(arguments: ["notes.create", "notes.delete", "files.write", "files.move", "web.request", "reminders.create", "shell.run", "text.template", "notify.send"])
    func theSkeletonOfEachSkillValidates(_ skill: String) async throws {
        let directory = TemporaryDirectory()
        let run = await skillbook(["new", "one", "--skill", skill], in: directory)
        #expect(run.code == 0, "\(skill): \(run.err)")
        #expect(await skillbook(["validate"], in: directory).code == 0)
    }

    @Test func refusesToOverwriteAndRejectsBadNamesAndSkills() async throws {
        let directory = TemporaryDirectory()
        let existing = directory.write("Playbooks/evening.yml", "name: evening\n")
        let exists = await skillbook(["new", "evening"], in: directory)
        #expect(exists.code == 2)
        #expect(exists.errLines == ["skillbook: error: \(existing.path) already exists; nothing was written (pick another name or edit it)"])
        #expect(try String(contentsOf: existing, encoding: .utf8) == "name: evening\n")
        #expect(!FileManager.default.fileExists(atPath: directory.playbooks.appendingPathComponent("evening.yaml").path))

        let badName = await skillbook(["new", "My Routine"], in: directory)
        #expect(badName.code == 2)
        #expect(
            badName.errLines.first
                == "skillbook: error: 'My Routine' is not a playbook name: use lowercase letters, digits and '-', starting with a letter; did you mean 'my-routine'?")
        let path = await skillbook(["new", "../x"], in: directory)
        #expect(path.code == 2)
        #expect(path.errLines.first?.hasPrefix("skillbook: error: '../x' is not a playbook name") == true)

        let skills = await skillbook(["new", "tidy", "--skill", "files.mve", "--skill", "notes.create", "--skill", "nope"], in: directory)
        #expect(skills.code == 2)
        #expect(skills.errLines.prefix(2) == ["--skill files.mve: error: no skill 'files.mve'; did you mean 'files.move'?", "--skill nope: error: no skill 'nope' (see 'skillbook skills')"])
        #expect(!FileManager.default.fileExists(atPath: directory.playbooks.appendingPathComponent("tidy.yaml").path))
    }
}
