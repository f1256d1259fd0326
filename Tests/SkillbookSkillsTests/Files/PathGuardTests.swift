import Foundation
import SkillbookCore
import Testing

@testable import SkillbookSkills

@Suite struct PathGuardTests {
    @Test func resolvesDotsAndLinksLikeTheSystem() async throws {
        try await withFiles { files in
            try files.folder("a/b")
            try files.folder("elsewhere/deep")
            try files.link("a/to-deep", to: "../elsewhere/deep")
            let guardian = PathGuard(environment: files.environment)
            let work = files.work.path
            #expect(try guardian.check("a/./b/../b").path == work + "/a/b")
            #expect(try guardian.check(work + "//a///b/").path == work + "/a/b")
            // `..` after a link goes up from where the link leads, as the system does.
            #expect(try guardian.check("a/to-deep/../x.txt").path == work + "/elsewhere/x.txt")
            // A link in the last place: the entry is the link, the target where it leads.
            let link = try guardian.check("a/to-deep")
            #expect(link.path == work + "/a/to-deep")
            #expect(link.target == work + "/elsewhere/deep")
            // The part that does not exist yet is kept; `..` out of it comes back to real folders.
            #expect(try guardian.check("a/new/deeper/file.txt").path == work + "/a/new/deeper/file.txt")
            #expect(try guardian.check("a/new/../to-deep/f").path == work + "/elsewhere/deep/f")
        }
    }

    @Test func aMissingFolderCannotHideALinkThatLeadsOut() async throws {
        try await withFiles { files in
            try files.link("out", to: files.outside.path)
            await expectFailure(
                "path 'missing/../out/x' leads through a symbolic link to '\(files.outside.path)/x', which is outside "
                    + "the allowed folders (\(files.rootsText))"
            ) { _ = try await files.run("files.write", ["path": "missing/../out/x", "content": "x"]) }
            #expect(!FileManager.default.fileExists(atPath: files.outside.path + "/x"))
        }
    }

    @Test func linkLoopsAreReported() async throws {
        try await withFiles { files in
            try files.link("loop1", to: "loop2")
            try files.link("loop2", to: "loop1")
            let guardian = PathGuard(environment: files.environment)
            #expect(throws: SkillError.self) { try guardian.check("loop1/x") }
        }
    }

    @Test func aFolderWhoseNameStartsLikeARootIsNotInsideIt() async throws {
        try await withFiles { files in
            try files.file("work-evil/x.txt", "x", in: files.base)
            await expectFailure(
                "path '../work-evil/x.txt' is outside the allowed folders (\(files.rootsText))"
            ) { _ = try await files.run("files.read", ["path": "../work-evil/x.txt"]) }
        }
    }

    /// The refusal states the fact and its kind; the front end adds what to do (the CLI: `--allow-path`).
    @Test func aPathOutsideTheRootsFailsAsADisallowedPath() async throws {
        try await withFiles { files in
            let guardian = PathGuard(environment: files.environment)
            #expect(throws: SkillError("path '../elsewhere.txt' is outside the allowed folders (\(files.rootsText))", kind: .disallowedPath)) {
                try guardian.check("../elsewhere.txt")
            }
            #expect(throws: SkillError("a path cannot be empty")) { try guardian.check("") }
        }
    }

    @Test func emptyAndNulPathsAreRefused() async throws {
        try await withFiles { files in
            let guardian = PathGuard(environment: files.environment)
            #expect(throws: SkillError("a path cannot be empty")) { try guardian.check("") }
            #expect(throws: SkillError("path 'a\0b' contains a NUL character")) { try guardian.check("a\0b") }
        }
    }
}
