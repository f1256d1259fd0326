import SkillbookTesting
import Foundation
import SkillbookCore
import SkillbookRuntime
import SkillbookSkills
import SkillbookSQL
import SkillbookSQLite
import Testing

/// `runs prune` empties the trash folders older than every run left in the journal.
@Suite struct TrashCleanupTests {
    static let stamp = Date.ISO8601FormatStyle().year().month().day().dateSeparator(.omitted)
        .time(includingFractionalSeconds: false).timeSeparator(.omitted)

    func makeFolder(_ trash: Trash, made: Date, _ hex: String) throws -> String {
        let name = made.formatted(Self.stamp) + "-" + hex
        let folder = URL(fileURLWithPath: trash.root).appendingPathComponent(name).appendingPathComponent("1")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("keep me?".utf8).write(to: folder.appendingPathComponent("notes.txt"))
        return name
    }

    func names(_ trash: Trash) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: trash.root)) ?? []).sorted()
    }

    /// Records a run that started at `started` and was killed during a `files.delete` call: no
    /// output says which trash folder it used.
    func recordKilledRun(_ directory: TemporaryDirectory, started: Date) throws {
        let journal = try SQLiteJournal(stateDirectory: directory.state)
        let runID = UUID().uuidString.lowercased()
        try journal.runStarted(
            RunRecord(
                runID: runID, playbook: "tidy", source: "", sourceHash: "", inputs: [:], trigger: "cli", started: started,
                dryRun: false))
        try journal.callStarted(
            CallRecord(runID: runID, key: CallKey(step: "delete"), skill: "files.delete", attempt: 1, parameters: [:], started: started))
        try journal.runFinished(
            RunResult(runID: runID, playbook: "tidy", status: .failed, steps: [], started: started, finished: started))
    }

    @Test func pruningEmptiesTheTrashOlderThanEveryRunKept() async throws {
        let directory = TemporaryDirectory()
        let trash = Trash(stateDirectory: directory.state)
        let day: TimeInterval = 86_400
        let now = Date()
        let ancient = try makeFolder(trash, made: now.addingTimeInterval(-30 * day), "aaaaaaaa")
        let runs = try makeFolder(trash, made: now.addingTimeInterval(-10 * day), "bbbbbbbb")
        let young = try makeFolder(trash, made: now, "cccccccc")
        // The run that made `runs` started a little before it, and died before recording it.
        try recordKilledRun(directory, started: now.addingTimeInterval(-10 * day - 5))

        let kept = await skillbook(["runs", "prune", "--keep", "5"], in: directory)
        #expect(kept.code == 0, "\(kept.err)")
        #expect(kept.out == "pruned 0 runs; emptied 1 trash folder older than every run kept\n")
        #expect(names(trash) == [runs, young], "its run is still in the journal; the other is a day old at most")
        #expect(!names(trash).contains(ancient))

        let all = await skillbook(["runs", "prune", "--keep", "0"], in: directory)
        #expect(all.code == 0, "\(all.err)")
        #expect(all.out == "pruned 1 run; emptied 1 trash folder older than every run kept\n")
        #expect(names(trash) == [young])

        let nothing = await skillbook(["runs", "prune"], in: directory)
        #expect(nothing.out == "pruned 0 runs\n")
    }
}
