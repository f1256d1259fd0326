import Foundation
public import SkillbookCore
import SkillbookRuntime

/// What a worker does with a run it claimed.
public enum ClaimedWork: Sendable {
    /// Run it (from the start, or on from where the last worker stopped, by the resume rules).
    case run(PreparedRun)
    /// It cannot go on without a person: an uncertain call of a skill that is neither idempotent
    /// nor read-only (the run was given back as `interrupted`), or it could not be prepared (the
    /// run was recorded as failed). The text says why.
    case needsPerson(String)
    /// Another worker took the run while this one was getting it ready: it must not touch it.
    case leaseLost
}

extension PlaybookHost {
    /// Makes a run a worker claimed (`RunQueue.claimNext`) ready, by the rules of
    /// `prepareResume`: the recorded playbook file (or text), the recorded inputs, completed calls
    /// reused; an uncertain call is re-run only when its skill is idempotent or read-only,
    /// otherwise the run is given back `interrupted` for a person to `resume` or `rollback`, or,
    /// when its playbook says `on_worker_loss: rollback`, rolled back here at once.
    ///
    /// A run straight from the queue has nothing recorded yet: it starts without reading the
    /// journal. `cache` keeps the worker's registry and checked playbooks between runs.
    public func prepareClaimed(_ claimed: ClaimedRun, journal: any RunQueue, cache: WorkerCache? = nil) async -> ClaimedWork {
        let runID = claimed.run.id
        do throws(HostError) {
            let registry: SkillRegistry
            if let cache {
                registry = try await cache.registry { () async throws(HostError) in try await self.registry { _ in } }
            } else {
                registry = try await self.registry { _ in }
            }
            if claimed.wasQueued {
                let (text, displayName) = try resumeText(claimed.run, recordedSource: claimed.source, force: false) { _ in }
                let playbook = try checked(text, file: displayName, registry: registry, cache: cache)
                let (inputs, secrets) = try await resumeInputs(claimed.run, playbook: playbook, given: [])
                return .run(
                    prepared(
                        claimed, playbook: playbook, inputs: inputs, secrets: secrets, registry: registry, journal: journal, text: text,
                        plan: ResumePlan()))
            }
            guard let timeline = try await HostError.journaling({ try await journal.timeline(runID) }) else {
                throw .journal(JournalError(.notFound, "no run \(runID)"))
            }
            let (text, displayName) = try resumeText(claimed.run, recordedSource: timeline.source, force: false) { _ in }
            let playbook = try checked(text, file: displayName, registry: registry, cache: cache)
            let (inputs, secrets) = try await resumeInputs(claimed.run, playbook: playbook, given: [])
            let uncertain = try await HostError.journaling { try await RecordedRuns.uncertainCalls(journal, runID, registry: registry) }
            let open = uncertain.filter { !RecordedRuns.isRepeatable($0.skill, registry: registry) }
            if !open.isEmpty, playbook.onWorkerLoss == .rollback {
                return .run(try await rollingBack(claimed, timeline: timeline, uncertain: uncertain, playbook: playbook, registry: registry, journal: journal))
            }
            if !open.isEmpty {
                try? await journal.release(runID, status: .interrupted)
                let names = open.map { "\($0.key) (\($0.skill))" }.joined(separator: ", ")
                return .needsPerson(
                    "run \(runID) stopped during \(names) on a worker that died, and that may or may not have happened; "
                        + "'skillbook resume \(runID.prefix(8))' or 'skillbook rollback \(runID.prefix(8))' decides")
            }
            let plan = try await HostError.journaling {
                try await journal.resumePlan(runID, isReadOnly: RecordedRuns.isReadOnly(registry)) { _ in .rerun }
            }
            if text != timeline.source { try await HostError.journaling { try await journal.setSource(text, forRun: runID) } }
            // What was read above is this run's only while the lease is still this worker's.
            try await HostError.journaling { try await journal.confirmLease(runID) }
            return .run(
                prepared(claimed, playbook: playbook, inputs: inputs, secrets: secrets, registry: registry, journal: journal, text: text, plan: plan))
        } catch {
            if !journal.holdsLease(runID) { return .leaseLost }
            let message = "run \(runID) could not be started: \(error.secretText ?? "\(error)")"
            var result = RunResult(
                runID: runID, playbook: claimed.run.playbook, status: .failed, steps: [], error: message,
                started: claimed.run.started, finished: configuration.clock.now())
            result.failureKind = .validation
            do {
                try await journal.runFinished(result)
            } catch {
                return .needsPerson(
                    "\(message); recording that failed too (\(error)), so the run stays \(claimed.run.status.rawValue) in the journal "
                        + "until its lease runs out and another worker takes it")
            }
            return .needsPerson(message)
        }
    }

    /// `on_worker_loss: rollback`: the claimed run's completed calls undone, newest first, with the
    /// playbook as recorded; the actions whose result was never recorded are named as not undone.
    private func rollingBack(
        _ claimed: ClaimedRun, timeline: RunTimeline, uncertain: [JournalCall], playbook: Playbook, registry: SkillRegistry,
        journal: any RunQueue
    ) async throws(HostError) -> PreparedRun {
        let runID = claimed.run.id
        let plan = try await HostError.journaling {
            try await journal.resumePlan(runID, isReadOnly: RecordedRuns.isReadOnly(registry)) { _ in .skip }
        }
        try await HostError.journaling { try await journal.confirmLease(runID) }
        return preparedRollback(
            runID, playbook: playbook, registry: registry, journal: journal, completed: plan.completed, timeline: timeline,
            uncertain: uncertain.filter { registry[$0.skill]?.descriptor.kind != .query }, cause: "its worker died during the call",
            heldStatus: .interrupted)
    }

    /// The claimed run to go on with `plan` (empty for a run from the queue).
    private func prepared(
        _ claimed: ClaimedRun, playbook: Playbook, inputs: ValueObject, secrets: [String: String], registry: SkillRegistry,
        journal: any RunQueue, text: String, plan: ResumePlan
    ) -> PreparedRun {
        PreparedRun(
            playbook: playbook, inputs: inputs, registry: registry, journal: journal, runID: claimed.run.id,
            work: .run(
                Engine.RunOptions(
                    trigger: claimed.run.trigger, source: text, resume: (claimed.run.id, plan), scheduledAt: claimed.run.scheduledAt,
                    secrets: secrets)),
            heldStatus: .interrupted)
    }

    /// The checked playbook of `text`, from `cache` when it checked the same text under that name.
    private func checked(_ text: String, file: String, registry: SkillRegistry, cache: WorkerCache?) throws(HostError) -> Playbook {
        guard let cache else { return try checkedPlaybook(text, file: file, registry: registry) { _ in } }
        return try cache.playbook(file: file, text: text) { () throws(HostError) in
            try self.checkedPlaybook(text, file: file, registry: registry) { _ in }
        }
    }
}
