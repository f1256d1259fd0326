import SkillbookTesting
import Foundation
import SkillbookSystem
import SkillbookCore
import SkillbookSkills
import Testing

/// The manifests in the repository's `Skills/` folder: each loads cleanly and runs for real.
@Suite struct ShippedManifestTests {
    static let skillsDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Skills")

    static func load(workingDirectory: URL? = nil) throws -> [String: ManifestSkill] {
        let result = ManifestLoader(runner: testRunner, workingDirectory: workingDirectory?.path).load(directory: skillsDirectory)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        return Dictionary(uniqueKeysWithValues: result.skills.map { ($0.manifest.id, $0) })
    }

    @Test func everyShippedManifestLoadsWithACompleteDescriptor() throws {
        let skills = try Self.load()
        #expect(skills.keys.sorted() == ["archive.create", "disk.usage", "files.checksum", "git.status"])
        for skill in skills.values {
            let descriptor = skill.descriptor
            let id = descriptor.id
            #expect(descriptor.title != id, "\(id) has no title")
            #expect(descriptor.summary.count >= 30 && descriptor.summary.hasSuffix("."), "\(id)")
            #expect(descriptor.examples.count >= 3, "\(id)")
            #expect(!descriptor.tags.isEmpty, "\(id)")
            #expect(descriptor.parameters.additionalProperties == false, "\(id)")
            for (name, property) in descriptor.parameters.properties {
                #expect(property.description?.isEmpty == false, "\(id).\(name) has no description")
            }
            if descriptor.kind == .query { #expect(descriptor.idempotent, "\(id)") }
            #expect(descriptor.kind == (id == "archive.create" ? .action : .query), "\(id)")
            #expect(descriptor.reversible == (id == "archive.create"), "\(id)")
            // `rm -f ARCHIVE` needs no output: a half-written archive of a failed call is removed too.
            #expect(descriptor.compensatesFailedCalls == (id == "archive.create"), "\(id)")
            if id != "git.status" { #expect(descriptor.availability == .available, "\(id)") }
        }
    }

    @Test func archiveCreatePacksFilesAndUndoingItDeletesTheArchive() async throws {
        try await withTemporaryDirectory { directory in
            let source = directory.appendingPathComponent("project")
            try FileManager.default.createDirectory(at: source.appendingPathComponent("docs"), withIntermediateDirectories: true)
            try "readme".write(to: source.appendingPathComponent("README.md"), atomically: true, encoding: .utf8)
            try "notes".write(to: source.appendingPathComponent("docs/notes with spaces.txt"), atomically: true, encoding: .utf8)
            try "dash".write(to: source.appendingPathComponent("-rf"), atomically: true, encoding: .utf8)
            let skill = try #require(try Self.load(workingDirectory: directory)["archive.create"])
            let parameters: Value = ["archive": "backup.tar.gz", "paths": ["README.md", "docs", "-rf"], "directory": "project"]
            let output = try await call(skill, parameters)
            #expect(output["exit_code"] == 0)
            let archive = directory.appendingPathComponent("backup.tar.gz")
            #expect(FileManager.default.fileExists(atPath: archive.path))

            let listing = try await testRunner.run(ProcessRequest(["tar", "-tzf", archive.path]))
            #expect(
                Set(listing.outputText.split(separator: "\n").map(String.init))
                    == ["README.md", "docs/", "docs/notes with spaces.txt", "-rf"])

            try await undo(skill, parameters, output: output)
            #expect(!FileManager.default.fileExists(atPath: archive.path))
            #expect(FileManager.default.fileExists(atPath: source.appendingPathComponent("README.md").path))
        }
    }

    @Test func archiveCreateFailsClearlyOnAMissingFile() async throws {
        try await withTemporaryDirectory { directory in
            let skill = try #require(try Self.load(workingDirectory: directory)["archive.create"])
            await #expect {
                try await call(skill, ["archive": "a.tar.gz", "paths": ["missing.txt"]])
            } throws: { error in
                let message = (error as? SkillError)?.message ?? ""
                return message.hasPrefix("command 'tar' exited with code 2:") && message.contains("missing.txt")
            }
        }
    }

    @Test func gitStatusReportsTheBranchAndChangesOrIsUnavailable() async throws {
        let skill = try #require(try Self.load()["git.status"])
        guard testRunner.locate("git") != nil else {
            // Not skipped silently: without git the skill must say why it cannot run.
            #expect(skill.descriptor.availability == .unavailable(reason: "command 'git' not found on PATH"))
            return
        }
        #expect(skill.descriptor.availability == .available)
        try await withTemporaryDirectory { directory in
            let initialised = try await testRunner.run(ProcessRequest(["git", "init", "-q", directory.path]))
            #expect(initialised.succeeded, "\(initialised.errorText)")
            try "new".write(to: directory.appendingPathComponent("new file.txt"), atomically: true, encoding: .utf8)
            let output = try await call(skill, ["repository": .string(directory.path)])
            let lines = output["stdout"]?.stringValue?.split(separator: "\n").map(String.init) ?? []
            #expect(lines.first?.hasPrefix("## ") == true, "\(lines)")
            #expect(lines.dropFirst() == ["?? \"new file.txt\""] || lines.dropFirst() == ["?? new file.txt"], "\(lines)")

            await #expect {
                try await call(skill, ["repository": "/"])
            } throws: { error in
                ((error as? SkillError)?.message ?? "").hasPrefix("command 'git' exited with code 128:")
            }
        }
    }

    @Test func diskUsageMeasuresEachPath() async throws {
        try await withTemporaryDirectory { directory in
            let folder = directory.appendingPathComponent("big folder")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(repeating: 7, count: 200_000).write(to: folder.appendingPathComponent("blob"))
            try "x".write(to: directory.appendingPathComponent("small.txt"), atomically: true, encoding: .utf8)
            let skill = try #require(try Self.load(workingDirectory: directory)["disk.usage"])
            let output = try await call(skill, ["paths": ["big folder", "small.txt"]])
            let rows = (output["stdout"]?.stringValue ?? "").split(separator: "\n").map { $0.split(separator: "\t") }
            #expect(rows.map { $0.last.map(String.init) } == ["big folder", "small.txt"])
            let kib = rows.compactMap { $0.first.flatMap { Int($0) } }
            #expect(kib.count == 2)
            #expect((kib.first ?? 0) >= 195)
        }
    }

    @Test func filesChecksumHashesEachFile() async throws {
        try await withTemporaryDirectory { directory in
            try "abc".write(to: directory.appendingPathComponent("abc.txt"), atomically: true, encoding: .utf8)
            try "".write(to: directory.appendingPathComponent("empty"), atomically: true, encoding: .utf8)
            let skill = try #require(try Self.load(workingDirectory: directory)["files.checksum"])
            let output = try await call(skill, ["paths": ["abc.txt", "empty"]])
            #expect(
                output["stdout"]
                    == """
                    ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad  abc.txt
                    e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855  empty

                    """)
        }
    }
}
