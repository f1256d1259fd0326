import SkillbookTesting
import Foundation
import SkillbookCore
import SkillbookSkills
import SkillbookSQLite
import Testing

@Suite struct FilesMoveSkillTests {
    @Test func movesPathsIntoAFolderAndUndoMovesThemBack() async throws {
        try await withFiles { files in
            try files.file("a.txt", "a")
            try files.file("b.pdf", bytes: [0, 1, 2, 255])
            try files.file("docs/c.md", "c")
            try files.link("link-to-a", to: "a.txt")
            try files.folder("archive")
            try files.setAttributes("a.txt", mode: 0o600, modified: Date(timeIntervalSince1970: 1_600_000_000))
            let before = files.snapshot(of: files.work, folderTimes: false)
            let parameters: Value = ["paths": ["a.txt", "b.pdf", "docs", "link-to-a"], "into": "archive"]
            let output = try await files.run("files.move", parameters)
            let moved = ["a.txt", "b.pdf", "docs", "link-to-a"].map { name -> Value in
                ["from": .string(files.path(name)), "to": .string(files.path("archive/" + name))]
            }
            #expect(output == ["moved": .array(moved), "created": []])
            #expect(files.text("archive/docs/c.md") == "c")
            #expect(!files.exists("a.txt") && !files.exists("docs"))
            // A link is moved as a link.
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: files.path("archive/link-to-a")) == "a.txt")

            try await files.compensate("files.move", parameters, output)
            #expect(FilesHarness.differences(before, files.snapshot(of: files.work, folderTimes: false)).isEmpty)
            try await files.compensate("files.move", parameters, output)  // already back: not an error
            #expect(FilesHarness.differences(before, files.snapshot(of: files.work, folderTimes: false)).isEmpty)
        }
    }

    @Test func intoIsCreatedWhenMissingAndRemovedOnUndo() async throws {
        try await withFiles { files in
            try files.file("a.txt", "a")
            let before = files.snapshot(of: files.work, folderTimes: false)
            let parameters: Value = ["paths": ["a.txt"], "into": "sorted/2024/text"]
            let output = try await files.run("files.move", parameters)
            #expect(output["created"] == .array(["sorted", "sorted/2024", "sorted/2024/text"].map { .string(files.path($0)) }))
            #expect(files.text("sorted/2024/text/a.txt") == "a")
            try await files.compensate("files.move", parameters, output)
            #expect(FilesHarness.differences(before, files.snapshot(of: files.work, folderTimes: false)).isEmpty)
        }
    }

    @Test func movesEachToItsOwnPath() async throws {
        try await withFiles { files in
            try files.file("report.txt", "r")
            try files.file("photo.jpg", "p")
            let before = files.snapshot(of: files.work, folderTimes: false)
            let parameters: Value = [
                "moves": [["from": "report.txt", "to": "report-2024.txt"], ["from": "photo.jpg", "to": "pictures/holiday/p.jpg"]]
            ]
            let output = try await files.run("files.move", parameters)
            #expect(files.text("report-2024.txt") == "r")
            #expect(files.text("pictures/holiday/p.jpg") == "p")
            #expect(output["created"] == .array(["pictures", "pictures/holiday"].map { .string(files.path($0)) }))
            try await files.compensate("files.move", parameters, output)
            #expect(FilesHarness.differences(before, files.snapshot(of: files.work, folderTimes: false)).isEmpty)
        }
    }

    @Test func aHundredFilesMoveAndComeBackExactly() async throws {
        try await withFiles { files in
            for n in 1...100 {
                try files.file("in/file-\(n).dat", bytes: (0..<(n * 37)).map { UInt8(truncatingIfNeeded: $0 &* n) })
                try files.setAttributes(
                    "in/file-\(n).dat", mode: n.isMultiple(of: 2) ? 0o600 : 0o644,
                    modified: Date(timeIntervalSince1970: 1_600_000_000 + Double(n) * 61.25))
            }
            let before = files.snapshot(of: files.work, folderTimes: false)
            let paths: [Value] = (1...100).map { .string("in/file-\($0).dat") }
            let parameters: Value = ["paths": .array(paths), "into": "out"]
            let progress = Shared<[Int]>([])
            let context = SkillContext(runID: "r", stepID: "s") { done, total in
                #expect(total == 100)
                progress.withLock { $0.append(done) }
            }
            let skill = try files.harness.skill("files.move")
            let output = try await skill.run(params(parameters), context: context)
            #expect(SchemaValidator.validate(output, against: skill.descriptor.output).isEmpty)
            #expect(progress.withLock { $0 } == Array(1...100))
            #expect(output["moved"]?.arrayValue?.count == 100)
            #expect(try FileManager.default.contentsOfDirectory(atPath: files.path("in")).isEmpty)
            #expect(try FileManager.default.contentsOfDirectory(atPath: files.path("out")).count == 100)

            try await files.compensate("files.move", parameters, output)
            #expect(FilesHarness.differences(before, files.snapshot(of: files.work, folderTimes: false)).isEmpty)
            #expect(!files.exists("out"))

            let schema = skill.descriptor.parameters
            #expect(!SchemaValidator.validate(["paths": .array(paths + ["x"]), "into": "out"], against: schema).isEmpty)
        }
    }

    @Test func batchesUndoneInReverseOrderRemoveTheFolderTheFirstOneCreated() async throws {
        try await withFiles { files in
            for n in 1...5 { try files.file("f\(n).txt", "\(n)") }
            let before = files.snapshot(of: files.work, folderTimes: false)
            let first: Value = ["paths": ["f1.txt", "f2.txt", "f3.txt"], "into": "box"]
            let second: Value = ["paths": ["f4.txt", "f5.txt"], "into": "box"]
            let out1 = try await files.run("files.move", first)
            let out2 = try await files.run("files.move", second)
            #expect(out1["created"] == [.string(files.path("box"))])
            #expect(out2["created"] == [])
            try await files.compensate("files.move", second, out2)
            try await files.compensate("files.move", first, out1)
            #expect(FilesHarness.differences(before, files.snapshot(of: files.work, folderTimes: false)).isEmpty)
        }
    }

    @Test func neverOverwritesAndChangesNothingWhenAnyItemIsWrong() async throws {
        try await withFiles { files in
            for name in ["a.txt", "b.txt", "c.txt", "box/c.txt"] { try files.file(name, name) }
            try files.file("dir/inner.txt", "i")
            let before = files.snapshot()
            let id = "files.move"
            let cases: [(Value, String)] = [
                (
                    ["paths": ["a.txt", "b.txt", "c.txt"], "into": "box"],
                    "cannot move 'c.txt' to '\(files.path("box/c.txt"))': something is already there (files.move never overwrites)"
                ),
                (
                    ["moves": [["from": "a.txt", "to": "new/a.txt"], ["from": "b.txt", "to": "c.txt"]]],
                    "cannot move 'b.txt' to '\(files.path("c.txt"))': something is already there (files.move never overwrites)"
                ),
                (["paths": ["a.txt", "nope.txt"], "into": "box"], "there is nothing at 'nope.txt'"),
                (
                    ["moves": [["from": "a.txt", "to": "x.txt"], ["from": "b.txt", "to": "x.txt"]]],
                    "files.move: 'a.txt' and 'b.txt' would both go to '\(files.path("x.txt"))'"
                ),
                (
                    ["paths": ["dir", "dir/inner.txt"], "into": "box"],
                    "files.move: 'dir' and 'dir/inner.txt' overlap (one is, or is inside, the other); give each file or folder once"
                ),
                (
                    ["moves": [["from": "dir", "to": "dir/sub/dir"]]],
                    "cannot move the folder 'dir' into itself ('\(files.path("dir/sub/dir"))')"
                ),
                (["paths": ["a.txt"], "into": "a.txt"], "files.move: into 'a.txt' is not a folder"),
            ]
            for (parameters, message) in cases {
                await expectFailure(message) { _ = try await files.run(id, parameters) }
                #expect(FilesHarness.differences(before, files.snapshot()).isEmpty, "\(parameters)")
            }
        }
    }


    /// Which parameters go together is in the schema, so the checker refuses a wrong shape before
    /// the run; the skill still refuses it in its own words when called without the check.
    @Test func aWrongShapeIsRefusedByTheSchemaAndByTheSkill() async throws {
        try await withFiles { files in
            try files.file("a.txt", "a")
            let before = files.snapshot()
            let skill = try files.harness.skill("files.move")
            let cases: [(Value, String, String)] = [
                (["paths": ["a.txt"]], "has 'paths', so it must also have 'into'", "files.move: paths needs into, the folder to move them into"),
                (["into": "box"], "has 'into', so it must also have 'paths'", "files.move: into needs paths, the files and folders to move"),
                ([:], "needs 'paths' or 'moves'", "files.move: nothing to move; give either paths with into, or moves (a list of { from, to })"),
                (
                    ["paths": ["a.txt"], "into": "box", "moves": [["from": "a.txt", "to": "z.txt"]]],
                    "takes 'paths' or 'moves', not both",
                    "files.move: give either paths with into, or moves (a list of { from, to }), not both"
                ),
            ]
            for (parameters, problem, message) in cases {
                let problems = SchemaValidator.validate(parameters, against: skill.descriptor.parameters).map(\.predicate)
                #expect(problems.contains(problem), "\(parameters): \(problems)")
                await expectFailure(message) {
                    _ = try await skill.run(parameters.objectValue ?? [:], context: files.harness.context)
                }
                #expect(FilesHarness.differences(before, files.snapshot()).isEmpty, "\(parameters)")
            }
        }
    }
    @Test func aFailureHalfwayPutsBackWhatWasAlreadyMoved() async throws {
        try await withFiles { files in
            for n in 1...10 { try files.file("f\(n).txt", "\(n)") }
            let before = files.snapshot(of: files.work, folderTimes: false)
            // The seventh destination's name is too long for the file system: only the move fails.
            var moves: [Value] = (1...10).map { ["from": .string("f\($0).txt"), "to": .string("out/g\($0).txt")] }
            moves[6] = ["from": "f7.txt", "to": .string("out/" + String(repeating: "x", count: 300))]
            await #expect(throws: SkillError.self) { _ = try await files.run("files.move", ["moves": .array(moves)]) }
            #expect(FilesHarness.differences(before, files.snapshot(of: files.work, folderTimes: false)).isEmpty)
        }
    }

    @Test func cancellationHalfwayPutsBackWhatWasAlreadyMoved() async throws {
        try await withFiles { files in
            for n in 1...10 { try files.file("f\(n).txt", "\(n)") }
            let before = files.snapshot(of: files.work, folderTimes: false)
            let skill = try files.harness.skill("files.move")
            let context = SkillContext(runID: "r", stepID: "s") { done, _ in
                if done == 4 { withUnsafeCurrentTask { $0?.cancel() } }
            }
            let paths: [Value] = (1...10).map { .string("f\($0).txt") }
            let task = Task { try await skill.run(params(["paths": .array(paths), "into": "out"]), context: context) }
            await #expect(throws: CancellationError.self) { _ = try await task.value }
            #expect(FilesHarness.differences(before, files.snapshot(of: files.work, folderTimes: false)).isEmpty)
        }
    }

    @Test func undoChecksEverythingBeforeMovingAnything() async throws {
        try await withFiles { files in
            try files.file("a.txt", "a")
            try files.file("b.txt", "b")
            let parameters: Value = ["paths": ["a.txt", "b.txt"], "into": "box"]
            let output = try await files.run("files.move", parameters)
            try files.file("b.txt", "a new b")
            await expectFailure(
                "cannot move '\(files.path("box/b.txt"))' back to '\(files.path("b.txt"))': something is there now"
            ) { try await files.compensate("files.move", parameters, output) }
            #expect(files.text("box/a.txt") == "a")  // nothing moved back
            #expect(files.text("b.txt") == "a new b")
        }
    }

    @Test func undoLeavesACreatedFolderThatIsNotEmptyAndSaysSo() async throws {
        try await withFiles { files in
            try files.file("a.txt", "a")
            let parameters: Value = ["paths": ["a.txt"], "into": "box"]
            let output = try await files.run("files.move", parameters)
            try files.file("box/someone-elses.txt", "x")
            await expectFailure(
                "files.move was undone, except that the folder '\(files.path("box"))' it created is not empty now and was left"
            ) { try await files.compensate("files.move", parameters, output) }
            #expect(files.text("a.txt") == "a")
            #expect(files.text("box/someone-elses.txt") == "x")
        }
    }
}
