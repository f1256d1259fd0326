import SkillbookCore
import Foundation
@testable import SkillbookCLI
import SkillbookStore
import Testing

private let cwd = URL(fileURLWithPath: "/work/here")

private func state(_ option: String?, _ environment: [String: String]) -> String {
    Workspace.stateDirectory(option, environment: environment, currentDirectory: cwd).path
}

private func workspace(_ arguments: [String], in directory: URL, environment: [String: String] = [:]) throws -> Workspace {
    let parsed = try ArgumentParser.parse(arguments, for: ListCommand.spec)
    return Workspace(arguments: parsed, environment: environment, currentDirectory: directory)
}

@Suite struct WorkspaceTests {
    @Test func theStateDirectoryComesFromTheOptionThenTheEnvironment() {
        let all = ["SKILLBOOK_HOME": "/sb", "XDG_STATE_HOME": "/xdg", "HOME": "/home/ada"]
        #expect(state("/opt/state", all) == "/opt/state")
        #expect(state(nil, all) == "/sb")
        #expect(state(nil, ["XDG_STATE_HOME": "/xdg", "HOME": "/home/ada"]) == "/xdg/skillbook")
        #expect(state(nil, ["HOME": "/home/ada"]) == "/home/ada/.local/state/skillbook")
        // Empty values count as unset.
        #expect(state("", ["SKILLBOOK_HOME": "", "XDG_STATE_HOME": "", "HOME": "/home/ada"]) == "/home/ada/.local/state/skillbook")
        // Relative paths are taken inside the current directory.
        #expect(state("st", all) == "/work/here/st")
        #expect(state(nil, ["SKILLBOOK_HOME": "../sb"]) == "/work/sb")
        #expect(state(nil, ["XDG_STATE_HOME": "xdg"]) == "/work/here/xdg/skillbook")
    }

    @Test func runWritesToTheStateTheEnvironmentNames() async throws {
        let directory = TemporaryDirectory()
        directory.write("Playbooks/one.yaml", "name: one\nsteps:\n  - { id: a, skill: notes.create, with: { title: kept } }\n")
        for (environment, expected) in [
            (["SKILLBOOK_HOME": "home-sb", "XDG_STATE_HOME": "xdg"], "home-sb"),
            (["XDG_STATE_HOME": "xdg", "HOME": "home"], "xdg/skillbook"),
            (["HOME": directory.path + "/home"], "home/.local/state/skillbook"),
        ] {
            let captured = CapturedOutput()
            let code = await SkillbookCLI.run(
                ["run", "one", "--playbooks", directory.playbooks.path], console: captured.console, environment: environment,
                currentDirectory: directory.url)
            #expect(code == 0, "\(captured.err)")
            let notes = try NotesStore(stateDirectory: directory.url.appendingPathComponent(expected)).list(tag: nil, limit: 10)
            #expect(notes.map(\.title) == ["kept"], "\(environment)")
        }
    }

    @Test func playbooksAreFoundByNameWithEitherExtension() throws {
        let directory = TemporaryDirectory()
        directory.write("Playbooks/b.yml", "")
        directory.write("Playbooks/a.yaml", "")
        directory.write("Playbooks/notes.txt", "")
        directory.write("Playbooks/c.yaml", "")
        let found = try workspace([], in: directory.url)
        #expect(found.playbooksDirectory.path == directory.playbooks.path)
        #expect(found.playbookFiles().map(\.lastPathComponent) == ["a.yaml", "b.yml", "c.yaml"])
        #expect(try found.locatePlaybook("b").lastPathComponent == "b.yml")
        #expect(try found.locatePlaybook("Playbooks/c.yaml").path == directory.playbooks.path + "/c.yaml")
        #expect(throws: UsageError.self) { try found.locatePlaybook("d") }

        let elsewhere = try workspace(["--playbooks", "other"], in: directory.url)
        #expect(elsewhere.playbooksDirectory.path == directory.path + "/other")
        #expect(elsewhere.playbookFiles().isEmpty)
    }
}
