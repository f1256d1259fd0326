import Foundation
import SkillbookCore
import SkillbookSkills
import Testing

@Suite struct FilesListSkillTests {
    func seed(_ files: FilesHarness) throws {
        try files.file("b.pdf", "pdf b")
        try files.file("a.pdf", "pdf a!")
        try files.file("notes.txt", "hello")
        try files.file(".hidden.pdf", "secret")
        try files.file("docs/c.pdf", "pdf c")
        try files.file("docs/deep/d.txt", "deep")
        try files.file(".git/config.txt", "git")
    }

    func paths(_ output: Value) -> [String] {
        output["items"]?.arrayValue?.compactMap { $0["path"]?.stringValue } ?? []
    }

    @Test func listsTheFilesOfAFolderInNameOrder() async throws {
        try await withFiles { files in
            try seed(files)
            let modified = Date(timeIntervalSince1970: 1_780_000_000)
            try files.setAttributes("a.pdf", mode: 0o644, modified: modified)
            let output = try await files.run("files.list", [:])
            #expect(paths(output) == ["a.pdf", "b.pdf", "notes.txt"].map(files.path))
            #expect(output["count"] == 3)
            #expect(output["truncated"] == false)
            let first = try #require(output["items"]?.arrayValue?.first)
            #expect(first["size"] == 6)
            #expect(first["modified"] == .string(modified.formatted(.iso8601)))
        }
    }

    @Test func globAndRecursion() async throws {
        try await withFiles { files in
            try seed(files)
            #expect(paths(try await files.run("files.list", ["glob": "*.pdf"])) == ["a.pdf", "b.pdf"].map(files.path))
            #expect(
                paths(try await files.run("files.list", ["glob": "*.pdf", "recursive": true]))
                    == ["a.pdf", "b.pdf", "docs/c.pdf"].map(files.path))
            #expect(
                paths(try await files.run("files.list", ["recursive": true]))
                    == ["a.pdf", "b.pdf", "docs/c.pdf", "docs/deep/d.txt", "notes.txt"].map(files.path))
            // A glob with ** or / looks in sub-folders and matches the path below the root.
            #expect(
                paths(try await files.run("files.list", ["glob": "**/*.txt"]))
                    == ["docs/deep/d.txt", "notes.txt"].map(files.path))
            #expect(paths(try await files.run("files.list", ["glob": "docs/*.pdf"])) == [files.path("docs/c.pdf")])
            #expect(paths(try await files.run("files.list", ["root": "docs", "glob": "[cd].*", "recursive": true]))
                == ["docs/c.pdf", "docs/deep/d.txt"].map(files.path))
            #expect(try await files.run("files.list", ["glob": "*.doc"]) == ["items": [], "count": 0, "truncated": false])
        }
    }

    @Test func hiddenFilesOnlyWhenAsked() async throws {
        try await withFiles { files in
            try seed(files)
            #expect(
                paths(try await files.run("files.list", ["glob": "**/*", "include_hidden": true]))
                    == [".git/config.txt", ".hidden.pdf", "a.pdf", "b.pdf", "docs/c.pdf", "docs/deep/d.txt", "notes.txt"]
                    .map(files.path))
        }
    }

    @Test func limitTruncates() async throws {
        try await withFiles { files in
            for n in 1...12 { try files.file(String(format: "f%02d.txt", n), "\(n)") }
            let output = try await files.run("files.list", ["limit": 5])
            #expect(paths(output) == (1...5).map { files.path(String(format: "f%02d.txt", $0)) })
            #expect(output["count"] == 5)
            #expect(output["truncated"] == true)
            #expect(try await files.run("files.list", ["limit": 12])["truncated"] == false)
            let schema = try files.harness.skill("files.list").descriptor.parameters
            #expect(!SchemaValidator.validate(["limit": 0], against: schema).isEmpty)
            #expect(!SchemaValidator.validate(["limit": 10_001], against: schema).isEmpty)
            #expect(SchemaValidator.validate(["limit": 10_000], against: schema).isEmpty)
        }
    }

    @Test func linksAreListedAsWhatTheyLeadToButLinkedFoldersAreNotEntered() async throws {
        try await withFiles { files in
            try files.file("real/a.txt", "aaa")
            try files.file("secret.txt", "secret", in: files.outside)
            try files.link("alias.txt", to: "real/a.txt")
            try files.link("loop", to: ".")
            try files.link("out.txt", to: files.outside.path + "/secret.txt")
            try files.link("dangling.txt", to: "nowhere.txt")
            let output = try await files.run("files.list", ["recursive": true])
            #expect(paths(output) == ["alias.txt", "real/a.txt"].map(files.path))
            #expect(output["items"]?.arrayValue?.first?["size"] == 3)
        }
    }

    @Test func theRootMustBeAFolder() async throws {
        try await withFiles { files in
            try files.file("x.txt", "x")
            await expectFailure("there is no folder at 'nope'") { _ = try await files.run("files.list", ["root": "nope"]) }
            await expectFailure("'x.txt' is not a folder") { _ = try await files.run("files.list", ["root": "x.txt"]) }
        }
    }
}
