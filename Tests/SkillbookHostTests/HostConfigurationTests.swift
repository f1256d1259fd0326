import Foundation
import SkillbookHost
import Testing

private let cwd = URL(fileURLWithPath: "/work/here")

private func state(_ option: String?, _ environment: [String: String]) -> String {
    HostConfiguration.stateDirectory(option, environment: environment, currentDirectory: cwd).path
}

@Suite struct HostConfigurationTests {
    @Test func theStateDirectoryComesFromTheSettingThenTheEnvironment() {
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

    @Test func aWorkspaceTakesItsDefaultsInTheCurrentDirectory() throws {
        let fixture = HostFixture()
        let plain = HostConfiguration.workspace(in: fixture.url, environment: ["SKILLBOOK_HOME": "sb"])
        #expect(plain.playbooksDirectory.path == fixture.path + "/Playbooks")
        #expect(plain.stateDirectory.path == fixture.path + "/sb")
        #expect(plain.skillDirectories.isEmpty, "no ./Skills folder")
        #expect(plain.allowedPaths.isEmpty)

        fixture.write("Skills/.keep", "")
        let full = HostConfiguration.workspace(
            in: fixture.url, environment: [:], playbooks: "books", state: "/st", skills: ["extra", "Skills", "extra"],
            allowedPaths: ["a", "/b"])
        #expect(full.playbooksDirectory.path == fixture.path + "/books")
        #expect(full.stateDirectory.path == "/st")
        #expect(full.skillDirectories.map(\.path) == [fixture.path + "/Skills", fixture.path + "/extra"])
        #expect(full.allowedPaths.map(\.path) == [fixture.path + "/a", "/b"])
    }

    @Test func aMissingSkillsFolderIsReportedWhenTheRegistryIsBuilt() throws {
        let fixture = HostFixture()
        let host = PlaybookHost(HostConfiguration.workspace(in: fixture.url, environment: [:], state: "st", skills: ["nowhere"]))
        do {
            _ = try host.loadRegistry()
            Issue.record("a missing skills folder was accepted")
        } catch {
            guard case .missingSkillsFolder("nowhere") = error else { throw error }
        }
    }

    @Test func playbooksAreFoundByNameWithEitherExtension() throws {
        let fixture = HostFixture()
        fixture.write("Playbooks/b.yml", "")
        fixture.write("Playbooks/a.yaml", "")
        fixture.write("Playbooks/notes.txt", "")
        fixture.write("Playbooks/c.yaml", "")
        let host = fixture.host()
        #expect(host.playbookFiles().map(\.lastPathComponent) == ["a.yaml", "b.yml", "c.yaml"])
        #expect(try host.locatePlaybook("b").lastPathComponent == "b.yml")
        #expect(try host.locatePlaybook("Playbooks/c.yaml").path == fixture.path + "/Playbooks/c.yaml")
        do {
            _ = try host.locatePlaybook("d")
            Issue.record("found a playbook that is not there")
        } catch {
            guard case .playbookNotFound("d", _, let suggestion, ["a", "b", "c"]) = error else { throw error }
            #expect(suggestion == "a" || suggestion == "b" || suggestion == "c" || suggestion == nil)
        }
        do {
            _ = try host.locatePlaybook("gone.yaml")
            Issue.record("found a file that is not there")
        } catch {
            guard case .playbookFileMissing("gone.yaml") = error else { throw error }
        }
    }
}
