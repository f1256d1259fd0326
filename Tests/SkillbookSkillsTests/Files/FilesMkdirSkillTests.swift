import Foundation
import SkillbookCore
import SkillbookSkills
import Testing

@Suite struct FilesMkdirSkillTests {
    @Test func createsAFolderAndUndoRemovesIt() async throws {
        try await withFiles { files in
            let parameters: Value = ["path": "Archive"]
            let output = try await files.run("files.mkdir", parameters)
            #expect(output == ["path": .string(files.path("Archive")), "created": [.string(files.path("Archive"))]])
            var isFolder: ObjCBool = false
            #expect(FileManager.default.fileExists(atPath: files.path("Archive"), isDirectory: &isFolder) && isFolder.boolValue)
            try await files.compensate("files.mkdir", parameters, output)
            #expect(!files.exists("Archive"))
            try await files.compensate("files.mkdir", parameters, output)
        }
    }

    @Test func parentsCreatesTheMissingFoldersAndUndoRemovesExactlyThose() async throws {
        try await withFiles { files in
            try files.folder("projects")
            let parameters: Value = ["path": "projects/2024/q1/drafts", "parents": true]
            let output = try await files.run("files.mkdir", parameters)
            #expect(output["created"] == .array(["projects/2024", "projects/2024/q1", "projects/2024/q1/drafts"].map { .string(files.path($0)) }))
            try await files.compensate("files.mkdir", parameters, output)
            #expect(files.exists("projects") && !files.exists("projects/2024"))
        }
    }

    @Test func anExistingFolderIsFineAndUndoLeavesIt() async throws {
        try await withFiles { files in
            try files.folder("docs")
            let output = try await files.run("files.mkdir", ["path": "docs"])
            #expect(output == ["path": .string(files.path("docs")), "created": []])
            try await files.compensate("files.mkdir", ["path": "docs"], output)
            #expect(files.exists("docs"))
        }
    }

    @Test func refusesWhatItCannotDo() async throws {
        try await withFiles { files in
            try files.file("file.txt", "x")
            let before = files.snapshot()
            await expectFailure(
                "cannot create the folder '\(files.path("a/b"))': the folder '\(files.path("a"))' does not exist "
                    + "(pass parents: true to create it too)"
            ) { _ = try await files.run("files.mkdir", ["path": "a/b"]) }
            await expectFailure(
                "cannot create the folder '\(files.path("file.txt"))': '\(files.path("file.txt"))' exists and is not a folder"
            ) { _ = try await files.run("files.mkdir", ["path": "file.txt"]) }
            await expectFailure(
                "cannot create the folder '\(files.path("file.txt/sub"))': '\(files.path("file.txt"))' exists and is not a folder"
            ) { _ = try await files.run("files.mkdir", ["path": "file.txt/sub", "parents": true]) }
            #expect(FilesHarness.differences(before, files.snapshot()).isEmpty)
        }
    }

    @Test func undoLeavesAFolderThatIsNoLongerEmpty() async throws {
        try await withFiles { files in
            let parameters: Value = ["path": "a/b", "parents": true]
            let output = try await files.run("files.mkdir", parameters)
            try files.file("a/note.txt", "someone's")
            await expectFailure(
                "cannot fully undo files.mkdir: '\(files.path("a"))' is not empty any more, so it was left"
            ) { try await files.compensate("files.mkdir", parameters, output) }
            #expect(!files.exists("a/b"))  // the empty one is gone
            #expect(files.text("a/note.txt") == "someone's")
        }
    }
}
