import Foundation
import SkillbookCore
import SkillbookHost
import SkillbookTesting
import Testing

@Suite struct WorkspaceConfigurationTests {
    @Test func theWorkspaceIsFoundFromAFolderUpward() throws {
        let fixture = HostFixture()
        fixture.write("routines/Playbooks/sub/evening.yaml", "name: evening\n")
        let root = fixture.url.appendingPathComponent("routines").standardizedFileURL
        #expect(WorkspaceConfiguration.find(from: root.appendingPathComponent("Playbooks/sub"))?.path == root.path)
        #expect(WorkspaceConfiguration.find(from: root)?.path == root.path)
        fixture.write("other/skillbook.yaml", "timezone: UTC\n")
        fixture.write("other/deep/x.txt", "")
        #expect(WorkspaceConfiguration.find(from: fixture.url.appendingPathComponent("other/deep"))?.path == fixture.url.appendingPathComponent("other").standardizedFileURL.path)
    }

    @Test func everySettingIsRead() throws {
        let fixture = HostFixture()
        fixture.write(
            "skillbook.yaml",
            """
            state: .state
            allow_paths: [Documents, /srv/shared]
            timezone: Asia/Shanghai
            model: { url: "http://127.0.0.1:8080/v1", name: qwen3, api_key_env: MY_KEY }

            """)
        let workspace = try WorkspaceConfiguration.load(root: fixture.url)
        #expect(workspace.state?.path == fixture.url.appendingPathComponent(".state").standardizedFileURL.path)
        #expect(workspace.allowedPaths.map(\.path) == [fixture.url.appendingPathComponent("Documents").standardizedFileURL.path, "/srv/shared"])
        #expect(workspace.timeZone?.identifier == "Asia/Shanghai")
        #expect(workspace.model == WorkspaceModel(url: "http://127.0.0.1:8080/v1", name: "qwen3", apiKeyEnvironment: "MY_KEY"))
    }

    @Test func unknownKeysAndBadValuesAreAllErrorsWithTheirPlaces() throws {
        let fixture = HostFixture()
        fixture.write(
            "skillbook.yaml",
            """
            state: .state
            timezon: UTC
            allow_paths: Documents
            model:
              url: ftp://models
              nmae: qwen3

            """)
        do {
            _ = try WorkspaceConfiguration.load(root: fixture.url, display: { _ in "skillbook.yaml" })
            Issue.record("an invalid skillbook.yaml was accepted")
        } catch {
            guard case .invalidConfiguration(let diagnostics, let sources) = error else { throw error }
            #expect(
                diagnostics.map(\.description) == [
                    "skillbook.yaml:2:1: error: unknown key 'timezon' of skillbook.yaml; did you mean 'timezone'?",
                    "skillbook.yaml:3:14: error: 'allow_paths' must be a list of folders, not a scalar",
                    "skillbook.yaml:5:8: error: 'model.url' must be an http or https address, got 'ftp://models'",
                    "skillbook.yaml:6:3: error: unknown key 'nmae' in 'model' of skillbook.yaml; did you mean 'name'?",
                ])
            #expect(sources["skillbook.yaml"]?.hasPrefix("state: .state\n") == true)
        }
        fixture.write("skillbook.yaml", "timezone: Europe/Berln\n")
        do {
            _ = try WorkspaceConfiguration.load(root: fixture.url, display: { _ in "skillbook.yaml" })
            Issue.record("an unknown zone was accepted")
        } catch {
            guard case .invalidConfiguration(let diagnostics, _) = error else { throw error }
            #expect(diagnostics.map(\.description) == ["skillbook.yaml:1:11: error: unknown time zone 'Europe/Berln'; did you mean 'Europe/Berlin'?"])
        }
        // A city alone names its zone (issue 27).
        for (city, zone) in [("Berlin", "Europe/Berlin"), ("paris", "Europe/Paris"), ("New York", "America/New_York")] {
            fixture.write("skillbook.yaml", "timezone: \(city)\n")
            do {
                _ = try WorkspaceConfiguration.load(root: fixture.url, display: { _ in "skillbook.yaml" })
                Issue.record("a city was accepted as a zone")
            } catch {
                guard case .invalidConfiguration(let diagnostics, _) = error else { throw error }
                #expect(diagnostics.map(\.description) == ["skillbook.yaml:1:11: error: unknown time zone '\(city)'; did you mean '\(zone)'?"])
            }
        }
    }

    @Test func flagsAndEnvironmentOverrideTheFile() throws {
        let fixture = HostFixture()
        fixture.write("skillbook.yaml", "state: from-file\ntimezone: Asia/Shanghai\nmodel: { url: \"http://file/v1\", name: file-model }\nallow_paths: [docs]\n")
        fixture.write("Playbooks/a.yaml", "name: a\n")
        fixture.write("Skills/none.txt", "")
        let nested = fixture.url.appendingPathComponent("Playbooks")
        let base = try HostConfiguration.discover(from: nested, currentDirectory: URL(fileURLWithPath: "/"), environment: ["HOME": fixture.path])
        let root = fixture.url.standardizedFileURL
        #expect(base.workspaceRoot?.path == root.path)
        #expect(base.playbooksDirectory.path == root.appendingPathComponent("Playbooks").path)
        #expect(base.skillDirectories.map(\.path) == [root.appendingPathComponent("Skills").path])
        #expect(base.stateDirectory.path == root.appendingPathComponent("from-file").path)
        #expect(base.allowedPaths.map(\.path) == [root.path, root.appendingPathComponent("docs").path])
        #expect(base.timeZone.identifier == "Asia/Shanghai")
        #expect(base.model?.url.absoluteString == "http://file/v1")
        #expect(base.model?.model == "file-model")

        let overridden = try HostConfiguration.discover(
            from: nested, currentDirectory: URL(fileURLWithPath: "/tmp"),
            environment: ["HOME": fixture.path, "TZ": "Asia/Tokyo", "SKILLBOOK_MODEL": "env-model"], state: "flag-state", allowedPaths: ["extra"])
        #expect(overridden.stateDirectory.path == "/tmp/flag-state")
        #expect(overridden.allowedPaths.map(\.path) == [root.path, root.appendingPathComponent("docs").path, "/tmp/extra"])
        #expect(overridden.timeZone.identifier == "Asia/Tokyo")
        #expect(overridden.model?.url.absoluteString == "http://file/v1")
        #expect(overridden.model?.model == "env-model")
        let home = try HostConfiguration.discover(from: nested, currentDirectory: root, environment: ["HOME": fixture.path, "SKILLBOOK_HOME": "/tmp/sb"])
        #expect(home.stateDirectory.path == "/tmp/sb")
    }

    @Test func withoutAWorkspaceTheCurrentFolderIsUsedAsBefore() throws {
        let fixture = HostFixture()
        let configuration = try HostConfiguration.discover(currentDirectory: fixture.url, environment: ["HOME": fixture.path])
        #expect(configuration.workspaceRoot == nil)
        #expect(configuration.playbooksDirectory.path == fixture.url.appendingPathComponent("Playbooks").standardizedFileURL.path)
        #expect(configuration.model == nil)
    }
}
