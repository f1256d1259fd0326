import Foundation
import SkillbookCore
import SkillbookRuntime
import SkillbookStore

/// `skillbook rollback RUN [--json]`
enum RollbackCommand: Command {
    static let spec = CommandSpec(
        name: "rollback", summary: "Undo what an interrupted or failed run did, newest first.", usage: "RUN [--json]",
        options: [OptionSpec(names: ["--json"], help: "Print one JSON object per event on stdout; the last is run.finished.")],
        positionals: 1...1,
        discussion: """
            RUN is a run id or any unique prefix of it (see 'skillbook runs'). Every call the run completed
            is compensated in reverse order of completion (with the playbook text recorded when it ran),
            and each compensation is recorded. The run ends 'rolled_back', or 'rollback_incomplete' when
            something stays done: a skill without compensation, a compensation that failed, or an action
            whose process died during the call (its result, needed to undo it, was never recorded).
            Running it again retries what is left. Exit code 0 when everything was undone, 3 when not.
            """,
        examples: ["skillbook rollback 5c0e"])

    static func execute(_ arguments: ParsedArguments, _ invocation: Invocation) async throws -> Int32 {
        let console = invocation.console
        let workspace = invocation.workspace(arguments)
        let registry = try workspace.registry()
        let journal = try workspace.journal()
        let runID = try journal.resolveRunID(arguments.positionals[0])
        guard let timeline = try journal.timeline(runID) else { throw JournalError(.notFound, "no run \(runID)") }
        try checkUndoable(timeline.run, journal: journal)

        // Undo with the playbook as it ran (its rollback steps), not as the file is now.
        var text = timeline.source
        var displayName = "\(timeline.run.playbook) (as recorded in run \(JournalText.shortID(runID)))"
        if text.isEmpty, let path = timeline.run.file, let data = FileManager.default.contents(atPath: path),
            let current = String(data: data, encoding: .utf8)
        {
            text = current
            displayName = workspace.displayPath(URL(fileURLWithPath: path))
        }
        guard
            let playbook = JournalCommandSupport.load(
                text, displayName: displayName, workspace: workspace, registry: registry, console: console)
        else { return 2 }

        let before = try journal.takeOver(runID, for: .rollback) { current throws(JournalError) in try checkUndoable(current, journal: journal) }
        let completed: [RecordedCall]
        let unknown: [JournalCall]
        do {
            let plan = try await journal.resumePlan(runID, isReadOnly: JournalCommandSupport.isReadOnly(registry)) { _ in .skip }
            completed = plan.completed
            if !plan.maskedOutputs.isEmpty {
                console.err(
                    "skillbook: note: the recorded output of \(plan.maskedOutputs.map(\.description).joined(separator: ", ")) "
                        + "held a secret and was kept masked; undoing works from that record, so what it puts back shows *** "
                        + "where the secret was")
            }
            // Actions whose result was never recorded cannot be undone: nothing says what they did.
            unknown = try JournalCommandSupport.uncertainCalls(journal, runID, registry: registry).filter { registry[$0.skill]?.descriptor.kind != .query }
        } catch {
            try? journal.release(runID, status: before.status)
            throw error
        }
        let problem: String? =
            unknown.isEmpty
            ? nil
            : "the result of \(unknown.map(JournalCommandSupport.describe).joined(separator: "; ")) was never recorded "
                + "(its process stopped during the call), so it cannot be undone; check by hand whether it took effect"

        let events = EventPrinter(console: console, json: arguments.flag("json"))
        var environment = EngineEnvironment.live
        environment.variables = invocation.environment
        let engine = Engine(registry: registry, environment: environment, recorder: journal)
        var result = await engine.rollBack(playbook, runID: runID, completed: completed) { event in
            guard case .runFinished(var result) = event, let problem else { return events.print(event) }
            result.status = .rollbackIncomplete
            result.error = problem
            events.print(.runFinished(result))
        }
        if let problem {
            result.status = .rollbackIncomplete
            result.error = problem
            try journal.runFinished(result)
        }
        return result.status == .rolledBack ? 0 : 3
    }

    /// Only a run that stopped without finishing its work, or whose rollback was incomplete, is undone.
    static func checkUndoable(_ run: JournalRun, journal: SQLiteJournal) throws(JournalError) {
        switch run.status {
        case .interrupted, .failed, .rollbackIncomplete:
            return
        case .running:
            throw JournalError(.busy, journal.stillRunningMessage(run))
        case .rolledBack:
            throw JournalError(.refused, "run \(run.id) (\(run.playbook)) is already rolled back; nothing to undo")
        case .succeeded, .succeededWithErrors:
            throw JournalError(
                .refused,
                "run \(run.id) (\(run.playbook)) \(run.status.rawValue); rollback undoes only interrupted or failed runs")
        }
    }
}
