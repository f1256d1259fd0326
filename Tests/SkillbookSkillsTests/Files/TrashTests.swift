import SkillbookTesting
import Foundation
import SkillbookCore
import SkillbookSkills
import Testing

@Suite struct TrashTests {
    func makeFolder(_ trash: Trash, _ name: String, file: String = "kept.txt") throws {
        let folder = URL(fileURLWithPath: trash.root).appendingPathComponent(name)
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("1"), withIntermediateDirectories: true)
        try Data("x".utf8).write(to: folder.appendingPathComponent("1").appendingPathComponent(file))
    }

    func names(_ trash: Trash) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: trash.root)) ?? []).sorted()
    }

    @Test func foldersThatFileSkillsMakeAreNamedAfterTheirTime() async throws {
        try await withFiles { harness in
            try harness.file("a.txt", "old")
            let output = try await harness.run("files.delete", ["paths": ["a.txt"]])
            let folder = try #require(output["trash"]?.stringValue)
            let trash = Trash(stateDirectory: harness.state)
            #expect(folder.hasPrefix(trash.root + "/"))
            let name = URL(fileURLWithPath: folder).lastPathComponent
            #expect(name.wholeMatch(of: /\d{8}T\d{6}-[0-9a-f]{8}/) != nil, "\(name)")
            // Made after the cutoff: kept.
            #expect(trash.sweep(madeBefore: Date().addingTimeInterval(-60)).isEmpty)
            #expect(names(trash) == [name])
            // Made before it: emptied, with what it holds.
            #expect(trash.sweep(madeBefore: Date().addingTimeInterval(60)) == [name])
            #expect(names(trash).isEmpty)
        }
    }

    @Test func sweepingKeepsWhatIsYoungerAndWhatItDidNotMake() async throws {
        try await withTemporaryDirectory { dir in
            let trash = Trash(root: dir.appendingPathComponent("trash").path)
            try makeFolder(trash, "20200101T000000-aaaaaaaa")
            try makeFolder(trash, "20991231T235959-cccccccc")
            try makeFolder(trash, "20200101T000000-backup")
            try makeFolder(trash, "20200101T000000-AAAAAAAA")
            try makeFolder(trash, "my-own-folder")
            try Data("loose".utf8).write(to: URL(fileURLWithPath: trash.root).appendingPathComponent("20200101T000000-dddddddd"))

            let deleted = trash.sweep(madeBefore: Date(timeIntervalSince1970: 1_900_000_000))
            #expect(deleted == ["20200101T000000-aaaaaaaa"])
            #expect(
                names(trash) == [
                    "20200101T000000-AAAAAAAA", "20200101T000000-backup", "20200101T000000-dddddddd", "20991231T235959-cccccccc",
                    "my-own-folder",
                ],
                "names it does not give, a file, and one made after the cutoff")
        }
    }

    @Test func aMissingTrashIsEmptyAlready() {
        let trash = Trash(root: "/nonexistent-\(UUID().uuidString)/trash")
        #expect(trash.sweep(madeBefore: Date()).isEmpty)
    }
}
