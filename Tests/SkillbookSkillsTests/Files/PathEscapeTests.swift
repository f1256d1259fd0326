import SkillbookTesting
import Foundation
import SkillbookCore
import SkillbookSkills
import Testing

/// Every file skill refuses paths that leave the allowed folders — by `..`, as an absolute path, or
/// through a symbolic link (absolute or relative, along the path or in its last place) — with the
/// same clear message, and touches nothing: the whole temporary tree (inside and outside the allowed
/// folders, the state directory included) is the same afterwards, down to modification times.
@Suite struct PathEscapeTests {
    /// Ways of writing a path to something in `outside/`.
    enum Form: CaseIterable {
        /// `../outside/NAME`
        case dotDot
        /// `/tmp/…/outside/NAME`
        case absolute
        /// `escape/NAME`, where `escape` is an absolute link to `outside/`.
        case absoluteLink
        /// `up/outside/NAME`, where `up` is the relative link `..`.
        case relativeLink
    }

    /// The tree every test starts from.
    func seed(_ files: FilesHarness) throws {
        try files.file("secret.txt", "top secret\n", in: files.outside)
        try files.file("dir/inner.txt", "inner\n", in: files.outside)
        try files.file("good.txt", "good\n")
        try files.file("other.txt", "other\n")
        try files.folder("dest")
        try files.link("escape", to: files.outside.path)
        try files.link("up", to: "..")
        try files.link("secret-link", to: "../outside/secret.txt")
        try files.link("dir-link", to: "../outside/dir")
        try files.link("new-link", to: "../outside/new.txt")  // dangling: leads to a file that does not exist
    }

    /// `name` in `outside/` written in `form`, and the message that refuses it.
    func bad(_ form: Form, _ name: String, _ files: FilesHarness) -> (path: String, message: String) {
        let suffix = name.isEmpty ? "" : "/" + name
        let target = files.outside.path + suffix
        switch form {
        case .dotDot: return ("../outside" + suffix, refusal("../outside" + suffix, files))
        case .absolute: return (target, refusal(target, files))
        case .absoluteLink: return ("escape" + suffix, refusal("escape" + suffix, through: target, files))
        case .relativeLink: return ("up/outside" + suffix, refusal("up/outside" + suffix, through: target, files))
        }
    }

    func refusal(_ parameter: String, through target: String? = nil, _ files: FilesHarness) -> String {
        let how = target.map { "leads through a symbolic link to '\($0)', which is" } ?? "is"
        return "path '\(parameter)' \(how) outside the allowed folders (\(files.rootsText))"
    }

    /// Runs `id` with `parameters`, expecting `message` and no change anywhere in the tree.
    func expectRefused(
        _ files: FilesHarness, _ id: String, _ parameters: Value, _ message: String,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) async {
        let before = files.snapshot()
        await expectFailure(message, sourceLocation: sourceLocation) { _ = try await files.run(id, parameters) }
        let differences = FilesHarness.differences(before, files.snapshot())
        #expect(differences.isEmpty, "\(id) \(parameters) changed the tree: \(differences)", sourceLocation: sourceLocation)
    }

    /// For every form of escape: `cases(path)` gives the parameters to try with that bad path.
    func check(_ id: String, name: String, _ cases: @escaping (String) -> [Value]) async throws {
        try await withFiles { files in
            try seed(files)
            for form in Form.allCases {
                let (path, message) = bad(form, name, files)
                for parameters in cases(path) {
                    await expectRefused(files, id, parameters, message)
                }
            }
        }
    }

    @Test func filesList() async throws {
        try await check("files.list", name: "") { bad in [["root": .string(bad)], ["root": .string(bad), "recursive": true]] }
        try await check("files.list", name: "dir") { bad in [["root": .string(bad), "glob": "*.txt"]] }
    }

    @Test func filesRead() async throws {
        try await check("files.read", name: "secret.txt") { bad in [["path": .string(bad)]] }
    }

    @Test func filesWrite() async throws {
        try await check("files.write", name: "secret.txt") { bad in
            ["overwrite", "append", "create"].map { ["path": .string(bad), "content": "pwned", "mode": .string($0)] }
        }
        try await check("files.write", name: "new.txt") { bad in [["path": .string(bad), "content": "pwned"]] }
    }

    @Test func filesMove() async throws {
        try await check("files.move", name: "secret.txt") { bad in
            [
                ["paths": ["good.txt", .string(bad)], "into": "dest"],
                ["moves": [["from": "good.txt", "to": "dest/good.txt"], ["from": .string(bad), "to": "dest/s.txt"]]],
            ]
        }
        try await check("files.move", name: "stolen.txt") { bad in
            [["moves": [["from": "other.txt", "to": "dest/o.txt"], ["from": "good.txt", "to": .string(bad)]]]]
        }
        try await check("files.move", name: "dir") { bad in [["paths": ["good.txt", "other.txt"], "into": .string(bad)]] }
        try await check("files.move", name: "new-folder") { bad in [["paths": ["good.txt"], "into": .string(bad)]] }
    }

    @Test func filesCopy() async throws {
        try await check("files.copy", name: "secret.txt") { bad in
            [
                ["paths": ["good.txt", .string(bad)], "into": "dest"],
                ["copies": [["from": "good.txt", "to": "dest/good.txt"], ["from": .string(bad), "to": "dest/s.txt"]]],
            ]
        }
        try await check("files.copy", name: "stolen.txt") { bad in
            [["copies": [["from": "other.txt", "to": "dest/o.txt"], ["from": "good.txt", "to": .string(bad)]]]]
        }
        try await check("files.copy", name: "dir") { bad in [["paths": ["good.txt", "other.txt"], "into": .string(bad)]] }
    }

    @Test func filesDelete() async throws {
        try await check("files.delete", name: "secret.txt") { bad in [["paths": ["good.txt", .string(bad)]]] }
        try await check("files.delete", name: "dir") { bad in [["paths": [.string(bad), "other.txt"]]] }
    }

    @Test func filesMkdir() async throws {
        try await check("files.mkdir", name: "newdir") { bad in [["path": .string(bad)], ["path": .string(bad), "parents": true]] }
        try await check("files.mkdir", name: "newdir/sub") { bad in [["path": .string(bad), "parents": true]] }
    }

    /// A link in the last place of the path that leads outside is refused too, even by the skills
    /// that would act on the link itself (move, delete): what it leads to must be allowed as well.
    @Test func aLinkInTheLastPlaceThatLeadsOutsideIsRefusedByEverySkill() async throws {
        try await withFiles { files in
            try seed(files)
            let secret = files.outside.appendingPathComponent("secret.txt").path
            let dir = files.outside.appendingPathComponent("dir").path
            let newFile = files.outside.appendingPathComponent("new.txt").path
            let secretRefusal = refusal("secret-link", through: secret, files)
            let cases: [(String, Value, String)] = [
                ("files.list", ["root": "dir-link"], refusal("dir-link", through: dir, files)),
                ("files.read", ["path": "secret-link"], secretRefusal),
                ("files.write", ["path": "secret-link", "content": "x", "mode": "overwrite"], secretRefusal),
                ("files.write", ["path": "secret-link", "content": "x", "mode": "append"], secretRefusal),
                ("files.write", ["path": "new-link", "content": "x", "mode": "overwrite"], refusal("new-link", through: newFile, files)),
                ("files.move", ["paths": ["good.txt", "secret-link"], "into": "dest"], secretRefusal),
                ("files.move", ["paths": ["good.txt"], "into": "dir-link"], refusal("dir-link", through: dir, files)),
                ("files.copy", ["paths": ["good.txt", "secret-link"], "into": "dest"], secretRefusal),
                ("files.copy", ["copies": [["from": "secret-link", "to": "copy.txt"]]], secretRefusal),
                ("files.delete", ["paths": ["good.txt", "secret-link"]], secretRefusal),
                ("files.mkdir", ["path": "dir-link"], refusal("dir-link", through: dir, files)),
                ("files.mkdir", ["path": "dir-link/sub", "parents": true], refusal("dir-link/sub", through: dir + "/sub", files)),
            ]
            for (id, parameters, message) in cases {
                await expectRefused(files, id, parameters, message)
            }
        }
    }

    @Test func aLinkThatStaysInsideIsFine() async throws {
        try await withFiles { files in
            try files.file("real/a.txt", "a\n")
            try files.link("alias", to: "real")
            try files.link("a-link", to: "real/a.txt")
            let read = try await files.run("files.read", ["path": "alias/a.txt"])
            #expect(read["content"] == "a\n")
            #expect(try await files.run("files.read", ["path": "a-link"])["content"] == "a\n")
            let listed = try await files.run("files.list", ["root": "alias"])
            #expect(listed["items"]?.arrayValue?.map { $0["path"] } == [.string(files.path("real/a.txt"))])
        }
    }

    @Test func anotherAllowedFolderMakesTheSamePathsFine() async throws {
        try await withFiles { files in
            try seed(files)
            let environment = SkillEnvironment(
                stateDirectory: files.state, currentDirectory: files.work,
                allowedRoots: [files.work, files.state, files.outside])
            let registry = try SkillRegistry(BuiltinSkills.all(environment: environment))
            let read = try #require(registry["files.read"])
            for path in ["../outside/secret.txt", files.outside.path + "/secret.txt", "escape/secret.txt", "secret-link"] {
                let output = try await read.run(["path": .string(path)], context: files.context)
                #expect(output["content"] == "top secret\n")
            }
        }
    }

    @Test func tildeIsNotExpanded() async throws {
        try await withFiles { files in
            let before = files.snapshot()
            await expectFailure(
                "path '~/notes.txt' starts with '~', which is not expanded; write the full path "
                    + "(or './~/notes.txt' for a name that starts with '~')"
            ) { _ = try await files.run("files.write", ["path": "~/notes.txt", "content": "x"]) }
            #expect(FilesHarness.differences(before, files.snapshot()).isEmpty)
            try files.folder("~")
            _ = try await files.run("files.write", ["path": "./~/notes.txt", "content": "x"])
            #expect(files.text("~/notes.txt") == "x")
        }
    }

    @Test func skillbooksOwnStateIsOffLimitsToChanges() async throws {
        try await withFiles { files in
            try files.file("trash/old/1/a.txt", "a", in: files.state)
            try files.file("skillbook.sqlite", "db", in: files.state)
            try files.file("notes.txt", "mine", in: files.state)
            let state = files.state.path
            let own = { (path: String) in
                "path '\(path)' is part of Skillbook's own state (its trash or database); file skills do not change it"
            }
            let cases: [(String, Value, String)] = [
                ("files.write", ["path": .string(state + "/skillbook.sqlite"), "content": "x", "mode": "overwrite"], own(state + "/skillbook.sqlite")),
                ("files.write", ["path": .string(state + "/skillbook.sqlite-wal"), "content": "x"], own(state + "/skillbook.sqlite-wal")),
                ("files.delete", ["paths": [.string(state + "/trash/old")]], own(state + "/trash/old")),
                ("files.move", ["paths": ["../state/notes.txt"], "into": "../state/trash"], own("../state/trash")),
                ("files.mkdir", ["path": .string(state + "/trash/new")], own(state + "/trash/new")),
                ("files.delete", ["paths": ["."]], "path '.' is one of the allowed folders; file skills do not move or delete it"),
                ("files.move", ["paths": ["../state"], "into": "somewhere"], "path '../state' is one of the allowed folders; file skills do not move or delete it"),
            ]
            for (id, parameters, message) in cases {
                await expectRefused(files, id, parameters, message)
            }
            // Reading them, and changing other files in the state directory, is fine.
            #expect(try await files.run("files.read", ["path": .string(state + "/trash/old/1/a.txt")])["content"] == "a")
            _ = try await files.run("files.write", ["path": "../state/notes.txt", "content": "more", "mode": "append"])
            #expect(FileManager.default.contents(atPath: state + "/notes.txt") == Data("minemore".utf8))
        }
    }
}
