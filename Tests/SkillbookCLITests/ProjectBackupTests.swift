import SkillbookTesting
import Foundation
import Testing

/// The package root, with the shipped `Playbooks/` and `Skills/`.
private let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// Issue 10 item 13: the shipped `project-backup` packs its workspace's files from any folder, and
/// a failed archive (a missing path) is undone with the rest, leaving nothing behind.
@Suite struct ProjectBackupTests {
    /// A workspace `ws/` holding the shipped playbook and manifests and a small project, and an
    /// empty folder `elsewhere/` to run from.
    static func workspace() throws -> (directory: TemporaryDirectory, workspace: URL, elsewhere: URL) {
        let directory = TemporaryDirectory()
        let manager = FileManager.default
        for name in ["Sources/app/main.swift", "Tests/app/mainTests.swift", "Package.swift", "README.md", "Makefile"] {
            directory.write("ws/\(name)", "// \(name)\n")
        }
        try manager.createDirectory(at: directory.url.appendingPathComponent("ws/Skills"), withIntermediateDirectories: true)
        for manifest in try manager.contentsOfDirectory(atPath: packageRoot.appendingPathComponent("Skills").path) {
            try manager.copyItem(
                at: packageRoot.appendingPathComponent("Skills/\(manifest)"),
                to: directory.url.appendingPathComponent("ws/Skills/\(manifest)"))
        }
        directory.write(
            "ws/Playbooks/project-backup.yaml",
            try String(contentsOf: packageRoot.appendingPathComponent("Playbooks/project-backup.yaml"), encoding: .utf8))
        let elsewhere = directory.url.appendingPathComponent("elsewhere")
        try manager.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        return (directory, directory.url.appendingPathComponent("ws"), elsewhere)
    }

    static func run(_ arguments: [String], _ setup: (directory: TemporaryDirectory, workspace: URL, elsewhere: URL)) async throws
        -> (code: Int32, out: String, err: String)
    {
        try await runSkillbook(
            arguments + ["--skills", setup.workspace.appendingPathComponent("Skills").path, "--state", setup.directory.state.path],
            in: setup.elsewhere)
    }

    @Test func theDefaultPathsAreTheWorkspacesWhereverItRuns() async throws {
        let setup = try Self.workspace()
        let file = setup.workspace.appendingPathComponent("Playbooks/project-backup.yaml").path
        let run = try await Self.run(["run", file], setup)
        #expect(run.code == 0, "\(run.err)")
        let outputs = try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
        let archive = try #require(outputs["archive"] as? String)
        #expect(archive.hasPrefix("backups/project-") && archive.hasSuffix(".tar.gz"))
        let listing = try await runProgram(URL(fileURLWithPath: "/usr/bin/tar"), ["-tzf", setup.elsewhere.appendingPathComponent(archive).path])
        #expect(listing.code == 0, "\(listing.err)")
        let names = listing.out
        for name in ["Sources/app/main.swift", "Tests/app/mainTests.swift", "Playbooks/project-backup.yaml", "Skills/archive.create.yaml", "Package.swift", "README.md", "Makefile"] {
            #expect(names.split(separator: "\n").contains(Substring(name)), "\(name) in \(names)")
        }
    }

    @Test func aFailedArchiveIsUndoneAndNothingIsLeft() async throws {
        let setup = try Self.workspace()
        let file = setup.workspace.appendingPathComponent("Playbooks/project-backup.yaml").path
        let run = try await Self.run(["run", file, "-i", "paths=[Sources, missing]"], setup)
        #expect(run.code == 1, "\(run.err)")
        let lines = run.err.split(separator: "\n").map(String.init)
        #expect(lines.contains("tar: missing: Cannot stat: No such file or directory"), "\(run.err)")
        #expect(lines.contains("  ↶ archive undone"), "\(run.err)")
        #expect(lines.contains("  ↶ folder undone"), "\(run.err)")
        #expect(lines.contains { $0.hasPrefix("project-backup rolled_back in ") }, "\(run.err)")
        #expect(!FileManager.default.fileExists(atPath: setup.elsewhere.appendingPathComponent("backups").path), "no partial archive, no folder")
    }

    @Test func rollingBackAStoppedRunUndoesItsFailedArchive() async throws {
        let setup = try Self.workspace()
        let file = setup.directory.write(
            "ws/Playbooks/pack.yaml",
            """
            name: pack
            on_failure: stop
            steps:
              - { id: folder, skill: files.mkdir, with: { path: out } }
              - id: archive
                skill: archive.create
                with: { archive: out/pack.tar.gz, paths: [Sources, missing], directory: "${{ run.workspace }}" }

            """)
        let run = try await Self.run(["run", file.path, "--json"], setup)
        #expect(run.code == 1, "\(run.err)")
        let partial = setup.elsewhere.appendingPathComponent("out/pack.tar.gz")
        #expect(FileManager.default.fileExists(atPath: partial.path), "on_failure: stop keeps what was done")
        let runID = try #require(SkillbookChild.events(in: run.out).first?["run"] as? String)

        let undo = try await Self.run(["rollback", runID], setup)
        #expect(undo.code == 0, "\(undo.err)")
        #expect(undo.err.contains("  ↶ archive undone\n  ↶ undoing folder\n  ↶ folder undone\n"), "\(undo.err)")
        #expect(!FileManager.default.fileExists(atPath: setup.elsewhere.appendingPathComponent("out").path))
        let again = try await Self.run(["rollback", runID], setup)
        #expect(again.code == 2)
        #expect(again.err.contains("is already rolled back; nothing to undo"), "\(again.err)")
    }
}
