import Foundation
import SkillbookCore
import SkillbookRuntime
import SkillbookSkills
import SkillbookStore
import Testing

/// `runs prune` empties the trash folders no run in the journal refers to any more.
@Suite struct TrashCleanupTests {
    func makeFolder(_ trash: Trash, _ name: String) throws {
        let folder = URL(fileURLWithPath: trash.root).appendingPathComponent(name).appendingPathComponent("1")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("keep me?".utf8).write(to: folder.appendingPathComponent("notes.txt"))
    }

    func names(_ trash: Trash) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: trash.root)) ?? []).sorted()
    }

    /// Records a finished run whose one `files.delete` call put something in the trash folder `name`.
    func recordRun(_ directory: TemporaryDirectory, trash: Trash, folder name: String) throws {
        let journal = try SQLiteJournal(stateDirectory: directory.state)
        let runID = UUID().uuidString.lowercased()
        try journal.runStarted(
            RunRecord(
                runID: runID, playbook: "tidy", source: "", sourceHash: "", inputs: [:], trigger: "cli", started: Date(),
                dryRun: false))
        let call = CallRecord(
            runID: runID, key: CallKey(step: "delete"), skill: "files.delete", attempt: 1, parameters: [:], started: Date())
        try journal.callStarted(call)
        let folder = trash.root + "/" + name
        try journal.callFinished(
            call, output: ["deleted": [["path": "/w/notes.txt", "trashed": .string(folder + "/1/notes.txt")]], "trash": .string(folder)],
            error: nil, finished: Date())
        try journal.runFinished(
            RunResult(runID: runID, playbook: "tidy", status: .succeeded, steps: [], started: Date(), finished: Date()))
    }

    @Test func pruningEmptiesTheTrashOfTheRunsItDeletes() async throws {
        let directory = TemporaryDirectory()
        let trash = Trash(stateDirectory: directory.state)
        let referenced = "20200101T000000-bbbbbbbb"
        try makeFolder(trash, "20200101T000000-aaaaaaaa")
        try makeFolder(trash, referenced)
        let young = Date().formatted(
            .iso8601.year().month().day().dateSeparator(.omitted).time(includingFractionalSeconds: false).timeSeparator(.omitted))
            + "-cccccccc"
        try makeFolder(trash, young)
        try recordRun(directory, trash: trash, folder: referenced)

        let kept = await skillbook(["runs", "prune", "--keep", "5"], in: directory)
        #expect(kept.code == 0, "\(kept.err)")
        #expect(kept.out == "pruned 0 runs; emptied 1 trash folder no run refers to any more\n")
        #expect(names(trash) == [referenced, young], "its run is still in the journal; the other is a day old at most")

        let all = await skillbook(["runs", "prune", "--keep", "0"], in: directory)
        #expect(all.code == 0, "\(all.err)")
        #expect(all.out == "pruned 1 run; emptied 1 trash folder no run refers to any more\n")
        #expect(names(trash) == [young])

        let nothing = await skillbook(["runs", "prune"], in: directory)
        #expect(nothing.out == "pruned 0 runs\n")
    }
}
