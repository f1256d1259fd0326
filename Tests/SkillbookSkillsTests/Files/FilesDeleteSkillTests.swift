import Foundation
import SkillbookCore
import SkillbookSkills
import Testing

@Suite struct FilesDeleteSkillTests {
    @Test func descriptorAsksFirst() async throws {
        try await withFiles { files in
            let descriptor = try files.harness.skill("files.delete").descriptor
            #expect(descriptor.confirm && descriptor.reversible && descriptor.kind == .action)
            #expect(descriptor.parameters.property("paths")?.maxItems == 100)
            #expect(descriptor.resources == ["files"])
        }
    }

    @Test func movesIntoTheTrashAndUndoRestoresExactly() async throws {
        try await withFiles { files in
            try files.file("a.txt", "a")
            try files.file("same-name/a.txt", "another a")
            try files.file("project/src/main.swift", "print(1)")
            try files.file("project/README", bytes: [0xC3, 0x28])
            try files.link("project/link", to: "src/main.swift")
            try files.file("keep.txt", "keep")
            try files.setAttributes("a.txt", mode: 0o604, modified: Date(timeIntervalSince1970: 1_500_000_000.5))
            try files.setAttributes("project/README", mode: 0o755, modified: Date(timeIntervalSince1970: 1_400_000_000))
            let before = files.snapshot(of: files.work, folderTimes: false)
            let parameters: Value = ["paths": ["a.txt", "same-name/a.txt", "project"]]
            let output = try await files.run("files.delete", parameters)
            let trash = try #require(output["trash"]?.stringValue)
            #expect(trash.hasPrefix(files.state.path + "/trash/"))
            #expect(
                output["deleted"]
                    == [
                        ["path": .string(files.path("a.txt")), "trashed": .string(trash + "/1/a.txt")],
                        ["path": .string(files.path("same-name/a.txt")), "trashed": .string(trash + "/2/a.txt")],
                        ["path": .string(files.path("project")), "trashed": .string(trash + "/3/project")],
                    ])
            #expect(!files.exists("a.txt") && !files.exists("same-name/a.txt") && !files.exists("project"))
            #expect(files.text("keep.txt") == "keep")
            #expect(FileManager.default.contents(atPath: trash + "/3/project/src/main.swift") == Data("print(1)".utf8))

            try await files.compensate("files.delete", parameters, output)
            #expect(FilesHarness.differences(before, files.snapshot(of: files.work, folderTimes: false)).isEmpty)
            #expect(!FileManager.default.fileExists(atPath: trash))
            try await files.compensate("files.delete", parameters, output)  // already back: not an error
        }
    }

    @Test func aLinkIsDeletedAsALink() async throws {
        try await withFiles { files in
            try files.file("target.txt", "t")
            try files.link("alias.txt", to: "target.txt")
            let parameters: Value = ["paths": ["alias.txt"]]
            let output = try await files.run("files.delete", parameters)
            #expect(!files.exists("alias.txt"))
            #expect(files.text("target.txt") == "t")
            try await files.compensate("files.delete", parameters, output)
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: files.path("alias.txt")) == "target.txt")
        }
    }

    @Test func deletesNothingWhenAnyPathIsWrong() async throws {
        try await withFiles { files in
            try files.file("a.txt", "a")
            try files.file("dir/b.txt", "b")
            let before = files.snapshot()
            await expectFailure("there is nothing at 'nope.txt'") {
                _ = try await files.run("files.delete", ["paths": ["a.txt", "nope.txt"]])
            }
            await expectFailure(
                "files.delete: 'dir' and 'dir/b.txt' overlap (one is, or is inside, the other); give each file or folder once"
            ) { _ = try await files.run("files.delete", ["paths": ["dir", "a.txt", "dir/b.txt"]]) }
            await expectFailure(
                "files.delete: 'a.txt' and './a.txt' overlap (one is, or is inside, the other); give each file or folder once"
            ) { _ = try await files.run("files.delete", ["paths": ["a.txt", "./a.txt"]]) }
            #expect(FilesHarness.differences(before, files.snapshot()).isEmpty)
        }
    }

    @Test func undoRefusesToReplaceSomethingNew() async throws {
        try await withFiles { files in
            try files.file("a.txt", "old")
            let parameters: Value = ["paths": ["a.txt"]]
            let output = try await files.run("files.delete", parameters)
            try files.file("a.txt", "new")
            await expectFailure("cannot put '\(files.path("a.txt"))' back: something else is there now") {
                try await files.compensate("files.delete", parameters, output)
            }
            #expect(files.text("a.txt") == "new")
        }
    }

    @Test func aHundredPathsAndTheirUndo() async throws {
        try await withFiles { files in
            for n in 1...100 { try files.file("junk/\(n % 7)/\(n).log", "log \(n)") }
            let before = files.snapshot(of: files.work, folderTimes: false)
            let parameters: Value = ["paths": .array((1...100).map { .string("junk/\($0 % 7)/\($0).log") })]
            let output = try await files.run("files.delete", parameters)
            #expect(output["deleted"]?.arrayValue?.count == 100)
            for n in 0..<7 { #expect(try FileManager.default.contentsOfDirectory(atPath: files.path("junk/\(n)")).isEmpty) }
            try await files.compensate("files.delete", parameters, output)
            #expect(FilesHarness.differences(before, files.snapshot(of: files.work, folderTimes: false)).isEmpty)
        }
    }
}
