import Foundation
import SkillbookTesting
import Testing

/// `skillbook __complete`, what every completion script asks: from the declarations and the workspace.
@Suite struct CompleteCommandTests {
    @Test func theFirstWordIsACommandAndHiddenCommandsAreNotOffered() async {
        let directory = completionWorkspace()
        let answer = await complete([""], in: directory)
        #expect(answer.words.contains("run") && answer.words.contains("runs") && answer.words.contains("completion"))
        #expect(answer.words.filter { $0 == "runs" }.count == 1)
        #expect(!answer.words.contains { $0.hasPrefix("__") })
        #expect(await complete(["ru"], in: directory).words == ["run", "runs"])
        #expect(await complete(["--v"], in: directory).words == ["--version"])
    }

    @Test func subcommandsFollowTheirCommand() async {
        let directory = completionWorkspace()
        #expect(await complete(["runs", ""], in: directory).words == ["show", "prune"])
        #expect(await complete(["schedule", ""], in: directory).words == ["next", "tick", "install", "history"])
        #expect(await complete(["schedule", "next", ""], in: directory).words == [])
    }

    @Test func optionsAreTheCommandsDeclaredOnesAndTheWorkspaceOnes() async {
        let directory = completionWorkspace()
        #expect(await complete(["run", "greet", "--d"], in: directory).words == ["--dry-run"])
        let all = await complete(["validate", "-"], in: directory).words
        #expect(all == ["--json", "--playbooks", "--state", "--allow-path", "--skills", "--no-color", "-h", "--help"])
    }

    @Test func enumeratedValuesComeFromTheDeclaration() async {
        let directory = completionWorkspace()
        #expect(await complete(["mcp", "--tools", ""], in: directory).words == ["playbooks", "skills", "all"])
        #expect(await complete(["runs", "--status", "inter"], in: directory).words == ["interrupted"])
        #expect(await complete(["completion", ""], in: directory).words == ["bash", "zsh", "fish"])
    }

    @Test func foldersAndFilesAreLeftToTheShell() async {
        let directory = completionWorkspace()
        #expect(await complete(["run", "greet", "--playbooks", ""], in: directory).directive == ":4")
        #expect(await complete(["run", "greet", "--inputs", ""], in: directory).directive == ":2")
        #expect(await complete(["run", "./Play"], in: directory).directive == ":2")
    }

    @Test func playbookNamesSkillIdsAndInputNamesComeFromTheWorkspace() async {
        let directory = completionWorkspace()
        #expect(await complete(["run", ""], in: directory).words == ["goodbye", "greet"])
        #expect(await complete(["show", "gr"], in: directory).words == ["greet"])
        let inputs = await complete(["run", "greet", "-i", ""], in: directory)
        #expect(inputs.words == ["name=", "loud="])
        #expect(inputs.directive == ":1")
        #expect(await complete(["run", "greet", "-i", "name=A"], in: directory).words == [])
        #expect(await complete(["skills", "notes.c"], in: directory).words == ["notes.create", "notes.create_many"])
        #expect(await complete(["call", "notes.create", "-i", "ti"], in: directory).words == ["title="])
        // The playbooks folder given on the line is the one read.
        let other = TemporaryDirectory()
        other.write("Elsewhere/far.yaml", "name: far\nsteps:\n  - { id: a, skill: notes.list }\n")
        #expect(await complete(["run", "--playbooks", other.url.appendingPathComponent("Elsewhere").path, ""], in: directory).words == ["far"])
    }

    @Test func runIdsAreOfferedByTheirPrefixAndNothingIsCreatedWithoutAJournal() async throws {
        let directory = completionWorkspace()
        #expect(await complete(["resume", "--state", directory.state.path, ""], in: directory).words == [])
        #expect(!FileManager.default.fileExists(atPath: directory.state.path))
        let run = await skillbook(["run", "greet", "-i", "name=Ada"], in: directory)
        #expect(run.code == 0)
        let listed = await skillbook(["runs", "--json"], in: directory)
        let id = try #require((try parseJSON(listed.out) as? [[String: Any]])?.first?["id"] as? String)
        let offered = await complete(["rollback", "--state", directory.state.path, ""], in: directory).words
        #expect(offered == [String(id.prefix(8))])
        #expect(await complete(["runs", "show", "--state", directory.state.path, String(id.prefix(3))], in: directory).words == [String(id.prefix(8))])
    }
}
