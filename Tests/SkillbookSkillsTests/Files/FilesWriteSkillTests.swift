import Foundation
import SkillbookCore
import SkillbookSkills
import Testing

@Suite struct FilesWriteSkillTests {
    static let old = Date(timeIntervalSince1970: 1_700_000_000.123_456)

    /// Runs the write, checks `check`, compensates, and expects `work/` exactly as before (file
    /// bytes, modes and times; folder times aside) and no backup left; compensating again is fine.
    func expectUndone(
        _ files: FilesHarness, _ parameters: Value, sourceLocation: Testing.SourceLocation = #_sourceLocation,
        _ check: (Value) throws -> Void
    ) async throws {
        let before = files.snapshot(of: files.work, folderTimes: false)
        let output = try await files.run("files.write", parameters)
        try check(output)
        try await files.compensate("files.write", parameters, output)
        let differences = FilesHarness.differences(before, files.snapshot(of: files.work, folderTimes: false))
        #expect(differences.isEmpty, "\(differences)", sourceLocation: sourceLocation)
        if let backup = output["backup"]?.stringValue {
            #expect(!FileManager.default.fileExists(atPath: backup), sourceLocation: sourceLocation)
            #expect(!FileManager.default.fileExists(atPath: (backup as NSString).deletingLastPathComponent))
        }
        try await files.compensate("files.write", parameters, output)  // already undone: not an error
        #expect(FilesHarness.differences(before, files.snapshot(of: files.work, folderTimes: false)).isEmpty)
    }

    @Test func createMakesANewFileAndUndoRemovesIt() async throws {
        try await withFiles { files in
            try await expectUndone(files, ["path": "hello.txt", "content": "Hello, wörld\n"]) { output in
                #expect(
                    output == [
                        "path": .string(files.path("hello.txt")), "mode": "create", "created": true, "size": 14,
                        "bytes_written": 14,
                    ])
                #expect(files.text("hello.txt") == "Hello, wörld\n")
            }
            #expect(!files.exists("hello.txt"))
        }
    }

    @Test func createRefusesAnExistingFile() async throws {
        try await withFiles { files in
            try files.file("hello.txt", "keep me")
            try files.link("dangling.txt", to: "nowhere.txt")
            let before = files.snapshot()
            for name in ["hello.txt", "dangling.txt"] {
                await expectFailure(
                    "'\(name)' already exists; use mode overwrite to replace it or append to add to it"
                ) { _ = try await files.run("files.write", ["path": .string(name), "content": "new", "mode": "create"]) }
            }
            #expect(FilesHarness.differences(before, files.snapshot()).isEmpty)
        }
    }

    @Test func overwriteReplacesTheContentAndUndoRestoresItExactly() async throws {
        try await withFiles { files in
            // Previous content that is not text, with unusual permissions and an old time.
            let previous: [UInt8] = [0x00, 0xFF, 0xFE, 0x41, 0x0A] + Array(repeating: 0x80, count: 100_000)
            try files.file("data.bin", bytes: previous)
            try files.setAttributes("data.bin", mode: 0o640, modified: Self.old)
            try await expectUndone(files, ["path": "data.bin", "content": "replaced", "mode": "overwrite"]) { output in
                #expect(output["created"] == false)
                #expect(output["previous_size"] == .int(previous.count))
                #expect(output["size"] == 8)
                let backup = try #require(output["backup"]?.stringValue)
                #expect(backup.hasPrefix(files.state.path + "/trash/"))
                #expect(FileManager.default.contents(atPath: backup).map(Array.init) == previous)
                #expect(files.text("data.bin") == "replaced")
                let mode = try FileManager.default.attributesOfItem(atPath: files.path("data.bin"))[.posixPermissions]
                #expect(mode as? Int == 0o640)  // written in place
            }
            #expect(files.bytes("data.bin") == previous)
        }
    }

    @Test func overwriteOrAppendOfAMissingFileCreatesItAndUndoRemovesIt() async throws {
        try await withFiles { files in
            for mode in ["overwrite", "append"] {
                try await expectUndone(files, ["path": "new.txt", "content": "x", "mode": .string(mode)]) { output in
                    #expect(output["created"] == true)
                    #expect(output["backup"] == nil)
                    #expect(files.text("new.txt") == "x")
                }
            }
        }
    }

    @Test func appendAddsAtTheEndAndUndoCutsItBack() async throws {
        try await withFiles { files in
            try files.file("log.txt", "line 1\n")
            try files.setAttributes("log.txt", mode: 0o600, modified: Self.old)
            try await expectUndone(files, ["path": "log.txt", "content": "line 2 ✓\n", "mode": "append"]) { output in
                #expect(files.text("log.txt") == "line 1\nline 2 ✓\n")
                #expect(output["previous_size"] == 7)
                #expect(output["size"] == 18)
                #expect(output["bytes_written"] == 11)
                #expect(output["backup"] == nil)  // nothing copied: the old content is the beginning
            }
            #expect(files.text("log.txt") == "line 1\n")
        }
    }

    @Test func undoLeavesAFileThatChangedSince() async throws {
        try await withFiles { files in
            try files.file("a.txt", "old")
            let parameters: Value = ["path": "a.txt", "content": "new", "mode": "overwrite"]
            let output = try await files.run("files.write", parameters)
            try files.file("a.txt", "someone else's longer text")
            await expectFailure(
                "cannot undo files.write: '\(files.path("a.txt"))' was changed since it was written (26 bytes now, 3 then); "
                    + "leaving it as it is"
            ) { try await files.compensate("files.write", parameters, output) }
            #expect(files.text("a.txt") == "someone else's longer text")

            let created: Value = ["path": "b.txt", "content": "mine"]
            let createdOutput = try await files.run("files.write", created)
            try files.file("b.txt", "theirs now")
            await #expect(throws: SkillError.self) { try await files.compensate("files.write", created, createdOutput) }
            #expect(files.text("b.txt") == "theirs now")
        }
    }

    @Test func theFolderMustExistAndBeAFolder() async throws {
        try await withFiles { files in
            try files.folder("docs")
            await expectFailure(
                "cannot write 'missing/a.txt': the folder '\(files.path("missing"))' does not exist (create it first with files.mkdir)"
            ) { _ = try await files.run("files.write", ["path": "missing/a.txt", "content": "x"]) }
            await expectFailure("'docs' is a folder, not a file") {
                _ = try await files.run("files.write", ["path": "docs", "content": "x", "mode": "overwrite"])
            }
            #expect(!files.exists("missing"))
        }
    }

    @Test func writesThroughALinkInsideTheAllowedFolders() async throws {
        try await withFiles { files in
            try files.file("real.txt", "before")
            try files.link("alias.txt", to: "real.txt")
            let parameters: Value = ["path": "alias.txt", "content": "after", "mode": "overwrite"]
            let output = try await files.run("files.write", parameters)
            #expect(output["path"] == .string(files.path("real.txt")))
            #expect(files.text("real.txt") == "after")
            try await files.compensate("files.write", parameters, output)
            #expect(files.text("real.txt") == "before")
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: files.path("alias.txt")) == "real.txt")
        }
    }
}
