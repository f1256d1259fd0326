import Foundation
import SkillbookCore
import SkillbookSkills
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite struct FilesCopySkillTests {
    @Test func copiesPathsIntoAFolderAndUndoRemovesTheCopies() async throws {
        try await withFiles { files in
            try files.file("a.txt", "a")
            try files.file("photos/1.jpg", bytes: [0xFF, 0xD8, 0xFF, 0xE0])
            try files.file("photos/trip/2.jpg", bytes: [0xFF, 0xD8, 0x00])
            try files.link("photos/latest", to: "trip/2.jpg")
            try files.setAttributes("a.txt", mode: 0o600, modified: Date(timeIntervalSince1970: 1_600_000_000))
            let before = files.snapshot(of: files.work, folderTimes: false)
            let parameters: Value = ["paths": ["a.txt", "photos"], "into": "backup"]
            let output = try await files.run("files.copy", parameters)
            #expect(
                output == [
                    "copied": [
                        ["from": .string(files.path("a.txt")), "to": .string(files.path("backup/a.txt"))],
                        ["from": .string(files.path("photos")), "to": .string(files.path("backup/photos"))],
                    ],
                    "created": [.string(files.path("backup"))],
                ])
            #expect(files.bytes("backup/photos/trip/2.jpg") == [0xFF, 0xD8, 0x00])
            #expect(files.text("backup/a.txt") == "a")
            let mode = try FileManager.default.attributesOfItem(atPath: files.path("backup/a.txt"))[.posixPermissions]
            #expect(mode as? Int == 0o600)
            // Links inside a copied folder are copied as links.
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: files.path("backup/photos/latest")) == "trip/2.jpg")
            // The originals are untouched.
            let during = files.snapshot(of: files.work, folderTimes: false).filter { !$0.key.hasPrefix("backup") }
            #expect(FilesHarness.differences(before, during).isEmpty)

            try await files.compensate("files.copy", parameters, output)
            #expect(FilesHarness.differences(before, files.snapshot(of: files.work, folderTimes: false)).isEmpty)
            try await files.compensate("files.copy", parameters, output)
        }
    }

    @Test func copiesEachToItsOwnPathFollowingALinkGivenByName() async throws {
        try await withFiles { files in
            try files.file("real.txt", "content")
            try files.link("alias.txt", to: "real.txt")
            let parameters: Value = ["copies": [["from": "alias.txt", "to": "copies/plain.txt"], ["from": "real.txt", "to": "real-2.txt"]]]
            let output = try await files.run("files.copy", parameters)
            #expect(files.text("copies/plain.txt") == "content")
            #expect(try FileManager.default.attributesOfItem(atPath: files.path("copies/plain.txt"))[.type] as? FileAttributeType == .typeRegular)
            #expect(files.text("real-2.txt") == "content")
            try await files.compensate("files.copy", parameters, output)
            #expect(!files.exists("copies") && !files.exists("real-2.txt"))
            #expect(files.text("real.txt") == "content" && files.exists("alias.txt"))
        }
    }

    @Test func neverOverwritesAndChangesNothingWhenAnyItemIsWrong() async throws {
        try await withFiles { files in
            try files.file("a.txt", "a")
            try files.file("b.txt", "b")
            try files.file("box/b.txt", "old b")
            let before = files.snapshot()
            let cases: [(Value, String)] = [
                (
                    ["paths": ["a.txt", "b.txt"], "into": "box"],
                    "cannot copy 'b.txt' to '\(files.path("box/b.txt"))': something is already there (files.copy never overwrites)"
                ),
                (
                    ["copies": [["from": "a.txt", "to": "new/a.txt"], ["from": "box", "to": "box/inner"]]],
                    "cannot copy the folder 'box' into itself ('\(files.path("box/inner"))')"
                ),
                (["paths": ["a.txt"], "moves": [["from": "a.txt", "to": "c.txt"]]], "")  // not a parameter of copy
            ]
            for (parameters, message) in cases where !message.isEmpty {
                await expectFailure(message) { _ = try await files.run("files.copy", parameters) }
                #expect(FilesHarness.differences(before, files.snapshot()).isEmpty)
            }
            let schema = try files.harness.skill("files.copy").descriptor.parameters
            #expect(!SchemaValidator.validate(cases[2].0, against: schema).isEmpty)
        }
    }

    @Test func aFolderThatCannotBeCopiedWhollyLeavesNothingBehind() async throws {
        try await withFiles { files in
            try files.file("x.txt", "x")
            try files.file("tree/a.txt", "a")
            #expect(mkfifo(files.path("tree/pipe"), 0o644) == 0)
            let before = files.snapshot(of: files.work, folderTimes: false)
            await expectFailure(
                "cannot copy '\(files.path("tree/pipe"))': it is not a file, a folder or a symbolic link"
            ) {
                _ = try await files.run(
                    "files.copy", ["copies": [["from": "x.txt", "to": "out/x.txt"], ["from": "tree", "to": "out/tree"]]])
            }
            #expect(FilesHarness.differences(before, files.snapshot(of: files.work, folderTimes: false)).isEmpty)
        }
    }

    @Test func aHundredCopiesAndTheirUndo() async throws {
        try await withFiles { files in
            for n in 1...100 { try files.file("src/\(n).txt", String(repeating: "\(n)", count: n)) }
            let before = files.snapshot(of: files.work, folderTimes: false)
            let parameters: Value = ["paths": .array((1...100).map { .string("src/\($0).txt") }), "into": "dst"]
            let output = try await files.run("files.copy", parameters)
            #expect(output["copied"]?.arrayValue?.count == 100)
            #expect(files.text("dst/77.txt") == String(repeating: "77", count: 77))
            try await files.compensate("files.copy", parameters, output)
            #expect(FilesHarness.differences(before, files.snapshot(of: files.work, folderTimes: false)).isEmpty)
        }
    }
}
