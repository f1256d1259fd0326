public import Foundation
public import SkillbookCore
import SkillbookRuntime

/// The rules `resume` and `rollback` share about a recorded run.
enum RecordedRuns {
    /// Only a run that stopped before finishing can be resumed.
    static func checkResumable(_ run: JournalRun, journal: any RunJournal) throws(HostError) {
        switch run.status {
        // A waiting run goes on once its approval is decided (`PlaybookHost.prepareResume` checks).
        case .interrupted, .failed, .waiting: return
        case .running, .queued: throw .runStillRunning(run: run, message: journal.stillRunningMessage(run))
        case .succeeded, .succeededWithErrors: throw .notResumable(run: run, reason: .finished)
        case .rolledBack: throw .notResumable(run: run, reason: .rolledBack)
        case .rollbackIncomplete: throw .notResumable(run: run, reason: .rollbackIncomplete)
        }
    }

    /// Any run that is not running and not already rolled back can be undone (a finished one
    /// after approval, which `prepareRollback` asks for).
    static func checkUndoable(_ run: JournalRun, journal: any RunJournal) throws(HostError) {
        switch run.status {
        case .interrupted, .failed, .rollbackIncomplete, .succeeded, .succeededWithErrors, .waiting: return
        case .running, .queued: throw .runStillRunning(run: run, message: journal.stillRunningMessage(run))
        case .rolledBack: throw .notUndoable(run: run, reason: .alreadyRolledBack)
        }
    }

    /// The journal's `takeOver` check, with the host's refusals carried through its typed throw.
    static func takeOver(
        _ runID: String, for purpose: RunTakeover, trigger: RunTrigger, journal: any RunJournal,
        check: (JournalRun, any RunJournal) throws(HostError) -> Void
    ) async throws(HostError) -> JournalRun {
        var refusal: HostError?
        do {
            return try await journal.takeOver(runID, for: purpose, trigger: trigger) { current throws(JournalError) in
                do throws(HostError) {
                    try check(current, journal)
                } catch {
                    refusal = error
                    throw JournalError(.refused, "")
                }
            }
        } catch {
            throw refusal ?? HostError(error)
        }
    }

    /// The calls of a run that started and have no result (their process stopped during them), as
    /// a resume would see them: the latest attempt of each call that never completed, oldest first.
    static func uncertainCalls(_ journal: any RunJournal, _ runID: String, registry: SkillRegistry) async throws -> [JournalCall] {
        var keys: Set<CallKey> = []
        _ = try await journal.resumePlan(runID, isReadOnly: isReadOnly(registry)) { call in
            keys.insert(call.key)
            return .rerun
        }
        var latest: [CallKey: JournalCall] = [:]
        for call in try await journal.calls(of: runID) where keys.contains(call.key) { latest[call.key] = call }
        return latest.values.sorted { $0.started < $1.started }
    }

    /// `completed` (in order of completion) with the failed calls a rollback also undoes merged in
    /// where they ended: a call whose every attempt failed, not undone yet, of a skill that undoes
    /// failed calls (see `SkillDescriptor.compensatesFailedCalls`), with a `null` output.
    static func addingFailedUndoable(
        _ completed: [RecordedCall], calls: [JournalCall], registry: SkillRegistry
    ) -> [RecordedCall] {
        var latest: [CallKey: JournalCall] = [:]
        var succeeded: Set<CallKey> = []
        var completedOrder: [CallKey: Int] = [:]
        for call in calls {
            if call.output != nil {
                succeeded.insert(call.key)
                if !call.compensated { completedOrder[call.key] = call.order }
            }
            if (latest[call.key]?.attempt ?? 0) <= call.attempt { latest[call.key] = call }
        }
        let failed = latest.values.filter { call in
            !succeeded.contains(call.key) && !call.compensated && (call.error != nil || call.isUncertain)
                && registry[call.skill]?.descriptor.compensatesFailedCalls == true
        }
        guard !failed.isEmpty else { return completed }
        var ordered = completed.enumerated().map { (order: completedOrder[$0.element.key] ?? $0.offset, call: $0.element) }
        for call in failed {
            ordered.append(
                (call.order, RecordedCall(key: call.key, skill: call.skill, call: CompletedCall(parameters: call.parameters, output: .null))))
        }
        return ordered.sorted { $0.order < $1.order }.map(\.call)
    }

    /// Whether a skill is read-only (a query), as resume plans ask.
    static func isReadOnly(_ registry: SkillRegistry) -> (_ skill: String) -> Bool {
        { skill in registry[skill]?.descriptor.kind == .query }
    }

    /// Whether calling `skill` again is harmless: it is read-only or idempotent.
    static func isRepeatable(_ skill: String, registry: SkillRegistry) -> Bool {
        guard let descriptor = registry[skill]?.descriptor else { return false }
        return descriptor.idempotent || descriptor.kind == .query
    }
}

extension JournalCall {
    /// How a recorded call reads in messages: `many[batch 3] (notes.create_many), started 2026-05-01 09:00:01`
    /// (local time in `timeZone`).
    public func described(in timeZone: TimeZone = .current) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: started)
        let time = String(
            format: "%04d-%02d-%02d %02d:%02d:%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0, parts.hour ?? 0,
            parts.minute ?? 0, parts.second ?? 0)
        return "\(key) (\(skill)), started \(time) \(timeZone.offsetText(at: started))"
    }
}

extension TimeZone {
    /// `+02:00`: the offset from UTC at `date`, as shown after a local time.
    public func offsetText(at date: Date) -> String {
        let seconds = secondsFromGMT(for: date)
        let minutes = abs(seconds) / 60
        return (seconds < 0 ? "-" : "+") + String(format: "%02d:%02d", minutes / 60, minutes % 60)
    }
}
