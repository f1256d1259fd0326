import Foundation
import SkillbookCore
public import SkillbookPostgres
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
    /// Makes a run a worker claimed (`PostgresJournal.claimNext`) ready, by the rules of
    /// `prepareResume`: the recorded playbook file (or text), the recorded inputs, completed calls
    /// reused; an uncertain call is re-run only when its skill is idempotent or read-only,
    /// otherwise the run is given back `interrupted` for a person to `resume` or `rollback`.
    public func prepareClaimed(_ claimed: ClaimedRun, journal: PostgresJournal) async -> ClaimedWork {
        let runID = claimed.run.id
        do throws(HostError) {
            let registry = try await registry { _ in }
            guard let timeline = try HostError.journaling({ try journal.timeline(runID) }) else {
                throw .journal(JournalError(.notFound, "no run \(runID)"))
            }
            let (text, displayName) = try resumeText(claimed.run, timeline: timeline, force: false) { _ in }
            let playbook = try checkedPlaybook(text, file: displayName, registry: registry) { _ in }
            let inputs = try resumeInputs(claimed.run, playbook: playbook, given: [])
            let uncertain = try await HostError.journaling { try await RecordedRuns.uncertainCalls(journal, runID, registry: registry) }
            let open = uncertain.filter { !RecordedRuns.isRepeatable($0.skill, registry: registry) }
            if !open.isEmpty {
                try? journal.release(runID, status: .interrupted)
                let names = open.map { "\($0.key) (\($0.skill))" }.joined(separator: ", ")
                return .needsPerson(
                    "run \(runID) stopped during \(names) on a worker that died, and that may or may not have happened; "
                        + "'skillbook resume \(runID.prefix(8))' or 'skillbook rollback \(runID.prefix(8))' decides")
            }
            let plan = try await HostError.journaling {
                try await journal.resumePlan(runID, isReadOnly: RecordedRuns.isReadOnly(registry)) { _ in .rerun }
            }
            if text != timeline.source { try HostError.journaling { try journal.setSource(text, forRun: runID) } }
            // What was read above is this run's only while the lease is still this worker's.
            try HostError.journaling { try journal.confirmLease(runID) }
            return .run(
                PreparedRun(
                    playbook: playbook, inputs: inputs, registry: registry, journal: journal, runID: runID,
                    work: .run(
                        Engine.RunOptions(
                            trigger: claimed.run.trigger, source: text, resume: (runID, plan), scheduledAt: claimed.run.scheduledAt)),
                    heldStatus: .interrupted))
        } catch {
            if !journal.holdsLease(runID) { return .leaseLost }
            let message = "run \(runID) could not be started: \(error)"
            var result = RunResult(
                runID: runID, playbook: claimed.run.playbook, status: .failed, steps: [], error: message,
                started: claimed.run.started, finished: configuration.clock.now())
            result.failureKind = .validation
            try? journal.runFinished(result)
            return .needsPerson(message)
        }
    }
}
