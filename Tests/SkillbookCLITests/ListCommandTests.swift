import SkillbookTesting
import SkillbookCore
import Foundation
import Testing

@Suite struct ListCommandTests {
    private func folder() -> TemporaryDirectory {
        let directory = TemporaryDirectory()
        directory.write(
            "Playbooks/morning.yaml",
            "name: morning\ndescription: Starts the day.\nsteps:\n  - { id: a, skill: notes.list }\n  - { id: b, skill: notes.list }\n")
        directory.write("Playbooks/broken.yaml", "name: broken\nsteps:\n  - { id: a, skill: nope.nope }\n  - { id: a, skill: notes.list }\n")
        directory.write("Playbooks/plain.yml", "name: plain\nsteps:\n  - { id: a, skill: notes.list }\n")
        directory.write("Playbooks/notes.txt", "not a playbook")
        return directory
    }

    @Test func listsEveryPlaybookInATable() async {
        let directory = folder()
        let run = await skillbook(["list"], in: directory)
        #expect(run.code == 0)
        #expect(run.err.isEmpty)
        #expect(
            run.out == """
                NAME     STEPS  DESCRIPTION
                broken   0      (2 errors; run 'skillbook validate')
                morning  2      Starts the day.
                plain    1

                """)
    }

    @Test func aFileThatIsNotUTF8IsListedAsInvalidAndTheRestAreListed() async throws {
        let directory = folder()
        _ = FileManager.default.createFile(
            atPath: directory.playbooks.appendingPathComponent("latin1.yaml").path, contents: Data("name: caf".utf8) + Data([0xE9, 0x0A]))
        let run = await skillbook(["list"], in: directory)
        #expect(run.code == 0)
        #expect(
            run.out == """
                NAME     STEPS  DESCRIPTION
                broken   0      (2 errors; run 'skillbook validate')
                latin1   0      (1 error; run 'skillbook validate')
                morning  2      Starts the day.
                plain    1

                """)
        let json = await skillbook(["list", "--json"], in: directory)
        let rows = try #require(try parseJSON(json.out) as? [JSONObject])
        #expect(rows.map { $0["valid"] as? Bool } == [false, false, true, true])
    }

    @Test func listJSONIsAnArrayOfObjects() async throws {
        let directory = folder()
        let run = await skillbook(["list", "--json"], in: directory)
        #expect(run.code == 0)
        let rows = try #require(try parseJSON(run.out) as? [JSONObject])
        #expect(rows.map { $0["name"] as? String } == ["broken", "morning", "plain"])
        #expect(rows.map { $0["valid"] as? Bool } == [false, true, true])
        #expect(rows.map { $0["steps"] as? Int } == [0, 2, 1])
        #expect(rows.map { $0["file"] as? String } == ["broken.yaml", "morning.yaml", "plain.yml"].map { "\(directory.playbooks.path)/\($0)" })
        #expect(rows[1]["description"] as? String == "Starts the day.")
        #expect(rows[0]["description"] as? String == "(2 errors; run 'skillbook validate')")
    }

    @Test func anEmptyFolderSaysSo() async throws {
        let directory = TemporaryDirectory()
        let run = await skillbook(["list"], in: directory)
        #expect(run.code == 0)
        #expect(run.out.isEmpty)
        #expect(run.err == "no playbooks in \(directory.playbooks.path)\n")
        let json = await skillbook(["list", "--json"], in: directory)
        #expect(json.out == "[]\n")
    }
}
