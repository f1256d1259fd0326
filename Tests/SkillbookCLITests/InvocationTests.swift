import SkillbookTesting
import Foundation
import SkillbookCore
@testable import SkillbookCLI
import SkillbookHost
import SkillbookSQL
import SkillbookSQLite
import SkillbookTesting
import Testing

private func host(_ arguments: [String], in directory: URL, environment: [String: String] = [:]) throws -> PlaybookHost {
    let parsed = try ArgumentParser.parse(arguments, for: ListCommand.spec)
    let invocation = Invocation(
        console: CapturedOutput().console, environment: environment, currentDirectory: directory, handlesSignals: false)
    return try invocation.host(parsed)
}

@Suite struct InvocationTests {
    @Test func theWorkspaceOptionsConfigureTheHost() throws {
        let directory = TemporaryDirectory()
        directory.write("Skills/.keep", "")
        let configured = try host(
            ["--playbooks", "books", "--state", "st", "--allow-path", "a", "--allow-path", "/b", "--skills", "more", "--skills", "Skills"],
            in: directory.url, environment: ["SKILLBOOK_HOME": "/ignored"]
        ).configuration
        #expect(configured.playbooksDirectory.path == directory.path + "/books")
        #expect(configured.stateDirectory.path == directory.path + "/st")
        #expect(configured.allowedPaths.map(\.path) == [directory.path + "/a", "/b"])
        // ./Skills first (it exists), then each --skills folder once.
        #expect(configured.skillDirectories.map(\.path) == [directory.path + "/Skills", directory.path + "/more"])
        #expect(configured.currentDirectory == directory.url)

        let defaults = try host([], in: directory.url, environment: ["SKILLBOOK_HOME": "sb"]).configuration
        #expect(defaults.playbooksDirectory.path == directory.playbooks.path)
        #expect(defaults.stateDirectory.path == directory.path + "/sb")
        #expect(defaults.allowedPaths.isEmpty)
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
}
