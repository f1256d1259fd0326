import Foundation
import SkillbookCore
import SkillbookSkills
import Testing

@Suite struct FilesReadSkillTests {
    @Test func readsUTF8Text() async throws {
        try await withFiles { files in
            try files.file("hello.txt", "Grüße, 世界 👋\nline 2\n")
            let output = try await files.run("files.read", ["path": "hello.txt"])
            #expect(output == ["content": "Grüße, 世界 👋\nline 2\n", "truncated": false, "size": 28])
            let absolute = try await files.run("files.read", ["path": .string(files.path("hello.txt"))])
            #expect(absolute["content"] == "Grüße, 世界 👋\nline 2\n")
            try files.file("empty.txt", "")
            #expect(try await files.run("files.read", ["path": "empty.txt"]) == ["content": "", "truncated": false, "size": 0])
        }
    }

    @Test func maxBytesTruncatesAtACharacterBoundary() async throws {
        try await withFiles { files in
            try files.file("t.txt", "ab世界")  // a b (1+1) 世 (3) 界 (3) = 8 bytes
            #expect(try await files.run("files.read", ["path": "t.txt", "max_bytes": 2])["content"] == "ab")
            for cut in 3...4 {
                let output = try await files.run("files.read", ["path": "t.txt", "max_bytes": .int(cut)])
                #expect(output == ["content": "ab", "truncated": true, "size": 8])
            }
            #expect(try await files.run("files.read", ["path": "t.txt", "max_bytes": 5])["content"] == "ab世")
            #expect(try await files.run("files.read", ["path": "t.txt", "max_bytes": 7])["content"] == "ab世")
            #expect(try await files.run("files.read", ["path": "t.txt", "max_bytes": 8]) == ["content": "ab世界", "truncated": false, "size": 8])
            try files.file("emoji.txt", "x👋")  // 1 + 4 bytes
            for cut in 2...4 {
                #expect(try await files.run("files.read", ["path": "emoji.txt", "max_bytes": .int(cut)])["content"] == "x")
            }
        }
    }

    @Test func readsAtMostMaxBytesOfABigFile() async throws {
        try await withFiles { files in
            try files.file("big.txt", String(repeating: "0123456789", count: 300_000))  // 3 MB
            let output = try await files.run("files.read", ["path": "big.txt"])
            #expect(output["content"]?.stringValue?.utf8.count == 1 << 20)
            #expect(output["truncated"] == true)
            #expect(output["size"] == 3_000_000)
        }
    }

    @Test func binaryFilesAndFoldersAreRefusedClearly() async throws {
        try await withFiles { files in
            try files.file("image.png", bytes: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0xFF, 0xFE])
            try files.file("latin1.txt", bytes: Array("caf".utf8) + [0xE9])
            try files.folder("docs")
            for name in ["image.png", "latin1.txt"] {
                await expectFailure(
                    "'\(name)' is not UTF-8 text (it may be a binary file such as an image or a PDF); files.read reads text only"
                ) { _ = try await files.run("files.read", ["path": .string(name)]) }
            }
            await expectFailure("'docs' is a folder, not a file") { _ = try await files.run("files.read", ["path": "docs"]) }
            await expectFailure("there is no file at 'nope.txt'") { _ = try await files.run("files.read", ["path": "nope.txt"]) }
        }
    }
}
