import Foundation
import SkillbookCore
import SkillbookHost

extension Option where Value == String {
    static var olderThan: Self { Self("--older-than", value: "AGE", help: "Delete runs started more than AGE ago (30d, 12h, 90m).") }
    static var keep: Self {
        Self("--keep", value: "N", help: "Keep only the newest N runs.")
    }
}

/// `skillbook runs prune [--older-than AGE] [--keep N]`
enum RunsPruneCommand: Command {
    static let spec = CommandSpec(
        name: "runs prune", summary: "Delete old runs from the journal.", arguments: "",
        options: [Option.olderThan.spec, Option.keep.spec],
        discussion: """
            A run that is not finished (running, queued, waiting) is never deleted. Without options it
            prunes what the workspace's retention lets go now ('retention:' in skillbook.yaml, by default
            \(RetentionPolicy.defaultDays) days and \(RetentionPolicy.defaultMaxRuns) runs; a playbook's own
            'retention: { days }' keeps its runs longer or shorter), as every run does a little at a time.

            The trash of file skills (<state>/trash, what an undo of files.delete or an overwriting
            files.write puts back) is emptied with the runs: a trash folder made before the oldest run
            left in the journal started goes, once it is a day old.
            """,
        examples: ["skillbook runs prune --older-than 30d", "skillbook runs prune --keep 100"])

    static func execute(_ arguments: ParsedArguments, _ invocation: Invocation) async throws -> ExitCode {
        let host = try invocation.host(arguments)
        var cutoff: Date?
        if let text = arguments[.olderThan] {
            guard text.last?.isLetter == true, let seconds = DurationText.seconds(text) else {
                throw UsageError(
                    message: "--older-than expects an age with a unit such as 30d, 12h or 90m, got '\(text)'", command: "runs prune")
            }
            cutoff = host.configuration.clock.now().addingTimeInterval(-seconds)
        }
        var keep: Int?
        if let text = arguments[.keep] {
            guard let number = Int(text), number >= 0 else {
                throw UsageError(message: "--keep expects a whole number, got '\(text)'", command: "runs prune")
            }
            keep = number
        }
        let pruned =
            cutoff == nil && keep == nil
            ? try await host.pruneByRetention() : try await host.prune(olderThan: cutoff, keepingNewest: keep)
        let (deleted, emptied) = (pruned.runs, pruned.trashFolders)
        invocation.console.out(
            "pruned \(deleted) run\(deleted == 1 ? "" : "s")"
                + (emptied == 0 ? "" : "; emptied \(emptied) trash folder\(emptied == 1 ? "" : "s") older than every run kept"))
        return .success
    }
}
