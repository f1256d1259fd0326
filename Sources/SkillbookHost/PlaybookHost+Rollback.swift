import Foundation
public import SkillbookCore
public import SkillbookRuntime

extension PlaybookHost {
    /// Makes the undo of an interrupted, failed or incompletely rolled-back run ready: every call it
    /// completed is compensated newest first, with the playbook text recorded when it ran (its
    /// rollback steps), each compensation recorded. An action whose result was never recorded
    /// cannot be undone: the rollback then ends `rollback_incomplete`, naming it.
    /// Takes the run over in the journal.
    public func prepareRollback(run reference: String, onNotice: HostNoticeHandler = { _ in }) async throws(HostError) -> PreparedRun {
        let registry = try await registry(onNotice)
        let journal = try openJournal()
        let runID = try await HostError.journaling { try await journal.resolveRunID(reference) }
        guard let timeline = try await HostError.journaling({ try await journal.timeline(runID) }) else {
            throw .journal(JournalError(.notFound, "no run \(runID)"))
        }
        try RecordedRuns.checkUndoable(timeline.run, journal: journal)

        // Undo with the playbook as it ran (its rollback steps), not as the file is now.
        var text = timeline.source
        var displayName = "\(timeline.run.playbook) (as recorded in run \(runID.prefix(8)))"
        if text.isEmpty, let path = timeline.run.file, let data = FileManager.default.contents(atPath: path),
            let current = String(data: data, encoding: .utf8)
        {
            text = current
            displayName = displayPath(URL(fileURLWithPath: path))
        }
        let playbook = try checkedPlaybook(text, file: displayName, registry: registry, onNotice: onNotice)

        let before = try await RecordedRuns.takeOver(runID, for: .rollback, journal: journal, check: RecordedRuns.checkUndoable)
        do {
            let plan = try await journal.resumePlan(runID, isReadOnly: RecordedRuns.isReadOnly(registry)) { _ in .skip }
            if !plan.maskedOutputs.isEmpty { onNotice(.maskedOutputs(plan.maskedOutputs, rollingBack: true)) }
            // Actions whose result was never recorded cannot be undone: nothing says what they did.
            let unknown = try await RecordedRuns.uncertainCalls(journal, runID, registry: registry)
                .filter { registry[$0.skill]?.descriptor.kind != .query }
            let problem: String? =
                unknown.isEmpty
                ? nil
                : "the result of \(unknown.map { $0.described(in: configuration.timeZone) }.joined(separator: "; ")) was never recorded "
                    + "(its process stopped during the call), so it cannot be undone; check by hand whether it took effect"
            return PreparedRun(
                playbook: playbook, inputs: [:], registry: registry, journal: journal, runID: runID,
                work: .rollback(completed: plan.completed, problem: problem), heldStatus: before.status)
        } catch {
            try? await journal.release(runID, status: before.status)
            throw HostError(error)
        }
    }

    /// Prepares and executes a rollback (see `prepareRollback` and `execute`).
    public func rollback(
        run reference: String, onNotice: HostNoticeHandler = { _ in }, onEvent: @escaping RunEventHandler = { _ in }
    ) async throws(HostError) -> RunResult {
        await execute(try await prepareRollback(run: reference, onNotice: onNotice), onEvent: onEvent)
    }
}
