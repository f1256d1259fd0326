import SkillbookTesting
import Foundation
import SkillbookCore
import SkillbookSkills
import SkillbookSQL
import SkillbookSQLite
import Testing

/// The example playbooks in the package's `Playbooks/` folder.
private let shippedFolder = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Playbooks")

/// The manifest skills shipped in `Skills/`, which some examples use.
private let shippedSkills = shippedFolder.deletingLastPathComponent().appendingPathComponent("Skills")

private let shippedFiles: [URL] = ((try? FileManager.default.contentsOfDirectory(atPath: shippedFolder.path)) ?? [])
    .filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }.sorted()
    .map { shippedFolder.appendingPathComponent($0) }

/// Skills whose effects stay in the state directory, so a test may run them for real.
private let localSkills: Set<String> = [
    "debug.echo", "debug.sleep", "text.template", "notes.create", "notes.create_many", "notes.list",
]

@Suite struct ShippedPlaybooksTests {
    @Test func thereAreExamplesThatRunHere() throws {
        #expect(shippedFiles.count >= 2, "no playbooks found in \(shippedFolder.path)")
        let directory = TemporaryDirectory()
        let local = try shippedFiles.filter { try skillIDs(of: $0, state: directory.state).isSubset(of: localSkills) }
        #expect(local.count >= 2)
    }

    @Test(arguments: shippedFiles)
    func validatesWithoutProblems(_ file: URL) async {
        let directory = TemporaryDirectory()
        let run = await skillbook(["validate", file.path, "--skills", shippedSkills.path], in: directory)
        #expect(run.code == 0)
        // Files under the process's directory are shown relative to it (the package root under `swift test`).
        let cwd = FileManager.default.currentDirectoryPath + "/"
        let shown = file.path.hasPrefix(cwd) ? String(file.path.dropFirst(cwd.count)) : file.path
        #expect(run.out == "\(shown): ok\n")
        // Not even a warning.
        #expect(run.err.isEmpty, "\(run.err)")
        let playbook = try? loaded(file, state: directory.state)
        #expect(playbook?.name == file.deletingPathExtension().lastPathComponent, "the file is named after the playbook")
    }

    @Test(arguments: shippedFiles)
    func runsToSuccessOnAFreshState(_ file: URL) async throws {
        let directory = TemporaryDirectory()
        let skills = try skillIDs(of: file, state: directory.state)
        guard skills.isSubset(of: localSkills) else {
            // Needs more than local state (a network, a model): validated above, not run here.
            return
        }
        let run = await skillbook(["run", file.path, "--json"], in: directory)
        #expect(run.code == 0, "\(run.err)")
        let finished = try #require(try jsonLines(run.out).last)
        #expect(finished.type == "run.finished")
        #expect(finished["status"] as? String == "succeeded")
        #expect(Set(finished.stepStatuses.values).isSubset(of: ["succeeded", "skipped"]))
        // Every output has a value.
        let outputs = try #require(finished.object("outputs"))
        #expect(outputs.values.allSatisfy { !($0 is NSNull) }, "\(outputs)")
    }

    @Test(arguments: shippedFiles)
    func dryRunsCleanly(_ file: URL) async throws {
        let directory = TemporaryDirectory()
        try FileManager.default.createDirectory(at: directory.url.appendingPathComponent("Downloads"), withIntermediateDirectories: true)
        let run = await skillbook(["run", file.path, "--dry-run", "--json", "--skills", shippedSkills.path], in: directory)
        #expect(run.code == 0, "\(run.err)")
        let events = try jsonLines(run.out)
        #expect(events.last?["status"] as? String == "succeeded")
        #expect(events.contains { $0.type == "step.planned" })
        // A dry run changes nothing: no notes, no files besides the folder made above.
        #expect(try NotesStore(stateDirectory: directory.state).list(tag: nil, limit: 10).isEmpty)
        let made = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0 != "state" }
        #expect(made == ["Downloads"])
    }

    @Test func projectBackupPacksAndChecksumsForReal() async throws {
        let directory = TemporaryDirectory()
        directory.write("src/main.txt", "hello")
        directory.write("notes.md", "# notes")
        // Its paths are the workspace's: the playbook is put in this folder's Playbooks/.
        let file = directory.write(
            "Playbooks/project-backup.yaml", try String(contentsOf: shippedFolder.appendingPathComponent("project-backup.yaml"), encoding: .utf8))
        let run = await skillbook(
            ["run", file.path, "--json", "--skills", shippedSkills.path, "-i", "paths=[src, notes.md]", "-i", "folder=out"],
            in: directory)
        #expect(run.code == 0, "\(run.err)")
        let finished = try #require(try jsonLines(run.out).last)
        let archive = try #require(finished.object("outputs")?["archive"] as? String)
        #expect(FileManager.default.fileExists(atPath: directory.url.appendingPathComponent(archive).path))
        let sha = try #require(finished.object("outputs")?["sha256"] as? String)
        #expect(sha.count > 64 && sha.hasSuffix("\(archive)\n"))
        #expect(try NotesStore(stateDirectory: directory.state).list(tag: "backup", limit: 10).map(\.body) == [sha])
    }

    private func loaded(_ file: URL, state: URL) throws -> Playbook {
        var registry = try SkillRegistry(BuiltinSkills.all(environment: SkillEnvironment(stateDirectory: state)))
        _ = ManifestLoader().load(directories: [shippedSkills], into: &registry)
        let text = try String(contentsOf: file, encoding: .utf8)
        return try #require(PlaybookLoader(registry: registry).load(text, file: file.path).playbook)
    }

    private func skillIDs(of file: URL, state: URL) throws -> Set<String> {
        Set(try loaded(file, state: state).steps.map(\.skill))
    }
}
