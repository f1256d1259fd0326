import SkillbookCore
import Foundation
import Testing

@testable import SkillbookSkills

/// `FileOps.move` falls back to copying with modes and times, then removing, when the trash is on
/// another file system; the copy must then keep everything a rename would.
@Suite struct FileOpsTests {
    @Test func aCopyThatKeepsTimesIsExact() async throws {
        try await withFiles { files in
            try files.file("tree/a.txt", "a")
            try files.file("tree/sub/b.bin", bytes: [0, 1, 2, 3, 255])
            try files.folder("tree/empty")
            try files.link("tree/sub/link", to: "../a.txt")
            try files.setAttributes("tree/a.txt", mode: 0o640, modified: Date(timeIntervalSince1970: 1_500_000_000.25))
            try files.setAttributes("tree/sub/b.bin", mode: 0o755, modified: Date(timeIntervalSince1970: 1_400_000_000))
            try files.setAttributes("tree/sub", mode: 0o750, modified: Date(timeIntervalSince1970: 1_300_000_000))
            try files.setAttributes("tree", mode: 0o700, modified: Date(timeIntervalSince1970: 1_200_000_000))
            let original = files.snapshot(of: files.work.appendingPathComponent("tree"))
            try FileOps.copy(files.path("tree"), to: files.path("copy"), preservingTimes: true)
            let copy = files.snapshot(of: files.work.appendingPathComponent("copy"))
            #expect(FilesHarness.differences(original, copy).isEmpty)
        }
    }
}
