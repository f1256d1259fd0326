import Foundation
public import SkillbookCore
public import SkillbookRuntime

extension PlaybookHost {
    /// Makes the undo of a recorded run ready: every call it completed is compensated newest
    /// first, with the playbook text recorded when it ran (its rollback steps), each compensation
    /// recorded. An interrupted, failed or incompletely rolled-back run is undone as it is; a
    /// finished one (`succeeded`, `succeeded_with_errors`) only when `approval` approves; a
    /// rolled-back one never again. An action whose result was never recorded cannot be undone:
    /// the rollback then ends `rollback_incomplete`, naming it.
    ///
    /// Before anything is taken or undone, `onNotice` gets `.rollbackPlan` with what will and will
    /// not be undone. A refusal (`rollbackNotApproved` among them) leaves the run as it was.
    /// Takes the run over in the journal.
    public func prepareRollback(
        _ target: RollbackTarget, approval: RollbackApproval = .refuse(reason: "no one to approve undoing a finished run"),
        trigger: RunTrigger = .cli, onNotice: HostNoticeHandler = { _ in }
    ) async throws(HostError) -> PreparedRun {
        let journal = try openJournal()
        let runID = try await resolve(target, in: journal)
        // The skills of the workspace the run was started in, from wherever it is undone.
        if let run = try await HostError.journaling({ try await journal.run(runID) }), let other = hostForRecordedWorkspace(of: run) {
            return try await other.prepareRollback(.run(runID), approval: approval, trigger: trigger, onNotice: onNotice)
        }
        let registry = try await registry(onNotice)
        // The run and its source, not its timeline: the preview reads only the calls it can undo.
        guard let recorded = try await HostError.journaling({ try await journal.run(runID) }) else {
            throw .journal(JournalError(.notFound, "no run \(runID)"))
        }
        try RecordedRuns.checkUndoable(recorded, journal: journal)

        // Undo with the playbook as it ran (its rollback steps), not as the file is now.
        var text = try await HostError.journaling { try await journal.sourceAndReport(of: runID).source }
        var displayName = "\(recorded.playbook) (as recorded in run \(runID.prefix(8)))"
        // The same check as any playbook file: over the limit or not a regular file, it is not read.
        if text.isEmpty, let path = recorded.file,
            let data = try? SourceFile.contents(path, display: displayPath(URL(fileURLWithPath: path))),
            let current = String(data: data, encoding: .utf8)
        {
            text = current
            displayName = displayPath(URL(fileURLWithPath: path))
        }
        let playbook = try checkedPlaybook(text, file: displayName, registry: registry, onNotice: onNotice)

        let preview = try await HostError.journaling {
            try await self.rollbackPreview(recorded, playbook: playbook, journal: journal, registry: registry)
        }
        onNotice(.rollbackPlan(preview))
        if preview.needsApproval {
            switch approval {
            case .approveAll: break
            case .refuse(let reason): throw .rollbackNotApproved(run: recorded, reason: reason)
            case .ask(let ask):
                if !(await ask(preview)) { throw .rollbackNotApproved(run: recorded, reason: "declined") }
            }
        }

        let before = try await RecordedRuns.takeOver(runID, for: .rollback, trigger: trigger, journal: journal) { current, journal throws(HostError) in
            try RecordedRuns.checkUndoable(current, journal: journal)
            // What was shown (and approved) must be what is undone.
            if current.status != recorded.status { throw .runChangedWhilePreparing(runID: runID) }
        }
        do {
            guard let timeline = try await journal.timeline(runID) else { throw JournalError(.notFound, "no run \(runID)") }
            let plan = try await journal.resumePlan(runID, isReadOnly: RecordedRuns.isReadOnly(registry)) { _ in .skip }
            if !plan.maskedOutputs.isEmpty { onNotice(.maskedOutputs(plan.maskedOutputs, rollingBack: true)) }
            // Actions whose result was never recorded cannot be undone: nothing says what they did.
            let unknown = try await uncertainActions(journal, runID, registry: registry)
            return preparedRollback(
                runID, playbook: playbook, registry: registry, journal: journal, completed: plan.completed,
                timeline: timeline, uncertain: unknown, cause: "its process stopped during the call", heldStatus: before.status)
        } catch {
            try? await journal.release(runID, status: before.status)
            throw HostError(error)
        }
    }

    /// What `prepareRollback` would show before undoing `target`, with nothing taken over or undone
    /// (the console shows it before a person decides). Refuses as `prepareRollback` does: a run still
    /// running, or one already rolled back.
    public func rollbackPreview(_ target: RollbackTarget) async throws(HostError) -> RollbackPreview {
        let journal = try openJournal()
        let runID = try await resolve(target, in: journal)
        if let run = try await HostError.journaling({ try await journal.run(runID) }), let other = hostForRecordedWorkspace(of: run) {
            return try await other.rollbackPreview(.run(runID))
        }
        let registry = try await registry({ _ in })
        guard let recorded = try await HostError.journaling({ try await journal.run(runID) }) else {
            throw .journal(JournalError(.notFound, "no run \(runID)"))
        }
        try RecordedRuns.checkUndoable(recorded, journal: journal)
        var text = try await HostError.journaling { try await journal.sourceAndReport(of: runID).source }
        var displayName = "\(recorded.playbook) (as recorded in run \(runID.prefix(8)))"
        if text.isEmpty, let path = recorded.file, let data = FileManager.default.contents(atPath: path),
            let current = String(data: data, encoding: .utf8)
        {
            text = current
            displayName = displayPath(URL(fileURLWithPath: path))
        }
        let playbook = try checkedPlaybook(text, file: displayName, registry: registry, onNotice: { _ in })
        return try await HostError.journaling {
            try await self.rollbackPreview(recorded, playbook: playbook, journal: journal, registry: registry)
        }
    }

    /// The undo of an interrupted, failed or incompletely rolled-back run (see `prepareRollback(_:approval:onNotice:)`).
    public func prepareRollback(run reference: String, onNotice: HostNoticeHandler = { _ in }) async throws(HostError) -> PreparedRun {
        try await prepareRollback(.run(reference), onNotice: onNotice)
    }

    /// Prepares and executes a rollback (see `prepareRollback` and `execute`).
    public func rollback(
        _ target: RollbackTarget, approval: RollbackApproval = .refuse(reason: "no one to approve undoing a finished run"),
        onNotice: HostNoticeHandler = { _ in }, onEvent: @escaping RunEventHandler = { _ in }
    ) async throws(HostError) -> RunResult {
        await execute(try await prepareRollback(target, approval: approval, onNotice: onNotice), onEvent: onEvent)
    }

    /// Prepares and executes the rollback of an interrupted or failed run.
    public func rollback(
        run reference: String, onNotice: HostNoticeHandler = { _ in }, onEvent: @escaping RunEventHandler = { _ in }
    ) async throws(HostError) -> RunResult {
        try await rollback(.run(reference), onNotice: onNotice, onEvent: onEvent)
    }

    /// The full id of the run `target` names.
    private func resolve(_ target: RollbackTarget, in journal: any RunJournal) async throws(HostError) -> String {
        switch target {
        case .run(let reference):
            return try await HostError.journaling { try await journal.resolveRunID(reference) }
        case .last:
            return try await newestUndoable(in: journal)
        }
    }

    /// How many of the newest runs `rollback --last` looks through.
    static let lastRunsLookedAt = 50

    /// The newest run that did something: not a notification about another run, and with a call of
    /// an action (a read-only `call notes.list` made after a run is not what "undo the last run"
    /// means; a skill this workspace does not know counts as an action). A rolled-back one is not
    /// passed over: undoing an older run instead would surprise; it says it is rolled back.
    private func newestUndoable(in journal: any RunJournal) async throws(HostError) -> String {
        let runs = try await HostError.journaling { try await journal.runs(playbook: nil, status: nil, limit: Self.lastRunsLookedAt) }
        guard !runs.isEmpty else { throw .journal(JournalError(.notFound, "no runs recorded in \(journal.location); nothing to undo")) }
        let queries = Set(try await registry({ _ in }).descriptors.filter { $0.kind == .query }.map(\.id))
        for run in runs where run.trigger != .notify {
            // A run still going (or waiting for an approval, before its call) is the newest: the
            // checks that follow say why it cannot be undone yet, rather than an older one undone.
            if [.running, .waiting, .queued].contains(run.status) { return run.id }
            let calls = try await HostError.journaling { try await journal.calls(of: run.id, excludingSkills: queries) }
            if !calls.isEmpty { return run.id }
        }
        let which = runs.count == 1 ? "the one run in \(journal.location) did" : "no run of the newest \(runs.count) in \(journal.location) did"
        throw .journal(
            JournalError(.notFound, "\(which) anything to undo (only reads or notifications); name a run: skillbook rollback RUN"))
    }

    /// What undoing `run` would do, from the journal as it is now. Reads once, and only the calls
    /// that can have something to undo: not those of reads (query skills) outside steps with
    /// `rollback` steps, which the preview leaves out anyway.
    private func rollbackPreview(
        _ run: JournalRun, playbook: Playbook, journal: any RunJournal, registry: SkillRegistry
    ) async throws -> RollbackPreview {
        let excluded = RollbackPreview.skillsWithNothingToUndo(playbook, registry: registry)
        let calls = try await journal.calls(of: run.id, excludingSkills: excluded)
        var uncertainKeys: Set<CallKey> = []
        let plan = ResumePlan.from(
            calls: JournaledCall.renumbered(calls), steps: try await journal.journaledSteps(of: run.id),
            isReadOnly: RecordedRuns.isReadOnly(registry)
        ) { call in
            uncertainKeys.insert(call.key)
            return .skip
        }
        // The latest attempt of each call that never completed, oldest first (see `uncertainActions`).
        var latest: [CallKey: JournalCall] = [:]
        for call in calls where uncertainKeys.contains(call.key) { latest[call.key] = call }
        let uncertain = latest.values.sorted { $0.started < $1.started }.filter { call in
            let descriptor = registry[call.skill]?.descriptor
            return descriptor?.kind != .query && descriptor?.compensatesFailedCalls != true
        }
        return RollbackPreview.make(run: run, playbook: playbook, completed: plan.completed, uncertain: uncertain, registry: registry)
    }

    /// Actions whose result was never recorded: nothing says what they did.
    /// A rollback of a recorded run, ready to execute: its completed calls, and the failed ones a
    /// rollback also undoes, newest first; the `uncertain` actions (their result was never
    /// recorded: `cause`) are named in the run's error as not undone.
    func preparedRollback(
        _ runID: String, playbook: Playbook, registry: SkillRegistry, journal: any RunJournal, completed: [RecordedCall],
        timeline: RunTimeline, uncertain: [JournalCall], cause: String, heldStatus: JournalStatus
    ) -> PreparedRun {
        let unrecorded: UnrecordedCalls? =
            uncertain.isEmpty
            ? nil
            : UnrecordedCalls(
                keys: uncertain.map(\.key),
                message: "the result of \(uncertain.map { $0.described(in: configuration.timeZone) }.joined(separator: "; ")) "
                    + "was never recorded (\(cause)), so it cannot be undone; check by hand whether it took effect")
        return PreparedRun(
            playbook: playbook, inputs: [:], registry: registry, journal: journal, runID: runID,
            work: .rollback(
                completed: RecordedRuns.addingFailedUndoable(completed, calls: timeline.calls, registry: registry),
                unrecorded: unrecorded),
            heldStatus: heldStatus,
            workspace: WorkspaceFolder.of(recordedFile: timeline.run.file, fallback: configuration.currentDirectory).path)
    }

    private func uncertainActions(_ journal: any RunJournal, _ runID: String, registry: SkillRegistry) async throws -> [JournalCall] {
        // An idempotent action whose undo needs only its parameters is undone anyway (a half-written
        // archive is removed): `RecordedRuns.addingFailedUndoable` adds it to the calls to undo.
        try await RecordedRuns.uncertainCalls(journal, runID, registry: registry).filter { call in
            let descriptor = registry[call.skill]?.descriptor
            return descriptor?.kind != .query && descriptor?.compensatesFailedCalls != true
        }
    }
}
