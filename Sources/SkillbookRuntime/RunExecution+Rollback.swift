import Foundation
import SkillbookCore

extension RunExecution {
    /// Compensates completed calls in reverse order of completion; `false` when something stays done.
    /// Emits `rollbackStarted` first, so front ends learn of it from the engine. `unrecorded` calls
    /// (of an earlier process that died during them) come first, as the newest: each is reported as
    /// not undone and its step ends `uncertain`.
    func rollBack(unrecorded: [CallKey] = []) async -> Bool {
        // Another process took the run over (its lease was lost): undoing is that process's to do.
        if leaseLost { return false }
        onEvent(.rollbackStarted)
        for key in unrecorded { onEvent(.compensationFailed(step: key.step, error: UnrecordedCalls.reason)) }
        let units = state.read(\.completed)
        let execution = self
        // A fresh task: compensation must run even when the run itself was cancelled.
        let complete = await Task { await execution.compensate(units) }.value
        markUncertain(unrecorded)
        return complete && unrecorded.isEmpty
    }

    /// The steps of `keys` end `uncertain`, whatever became of their other calls.
    private func markUncertain(_ keys: [CallKey]) {
        for key in keys {
            let path = key.step
            guard let index = playbook.steps.firstIndex(where: { $0.id == path.root }) else { continue }
            // Named when it is not the step itself (a batch, an item, a sub-playbook's step).
            let reason = key.description == path.root ? UnrecordedCalls.reason : "\(key): \(UnrecordedCalls.reason)"
            state.report(index) { report in
                report.status = .uncertain
                report.compensationError = report.compensationError.map { "\($0); \(reason)" } ?? reason
            }
        }
    }

    private func compensate(_ units: [CompletedUnit]) async -> Bool {
        var complete = true
        var failedSteps: Set<Int> = []
        var undoneSteps: Set<Int> = []
        for unit in units.reversed() {
            if leaseLost { return false }
            let descriptor = unit.skill.descriptor
            if unit.rollback == nil, descriptor.kind == .query { continue }
            guard unit.rollback != nil || descriptor.reversible else {
                complete = false
                failedSteps.insert(unit.stepIndex)
                let reason = "skill '\(descriptor.id)' cannot be undone"
                state.report(unit.stepIndex) { $0.compensationError = $0.compensationError ?? unit.describe(reason, in: $0) }
                await recordCompensation(unit, error: reason)
                onEvent(.compensationFailed(step: unit.stepID, error: reason))
                continue
            }
            onEvent(.compensationStarted(step: unit.stepID))
            if let error = await undo(unit) {
                complete = false
                failedSteps.insert(unit.stepIndex)
                let text = state.redactor.redact(error)
                state.report(unit.stepIndex) { $0.compensationError = $0.compensationError ?? unit.describe(text, in: $0) }
                await recordCompensation(unit, error: text)
                onEvent(.compensationFailed(step: unit.stepID, error: text))
            } else {
                undoneSteps.insert(unit.stepIndex)
                await recordCompensation(unit, error: nil)
                onEvent(.compensationSucceeded(step: unit.stepID))
            }
        }
        state.update { contents in
            for index in undoneSteps.subtracting(failedSteps) { contents.reports[index].status = .compensated }
            for index in failedSteps { contents.reports[index].status = .notCompensated }
        }
        return complete
    }

    /// The recorder holds runs by leases and no longer holds this one (see `LeaseHolding`).
    var leaseLost: Bool {
        guard let leases = engine.recorder as? any LeaseHolding else { return false }
        return !leases.holdsLease(runID)
    }

    /// Journals a compensation's outcome; a failed write is a warning (the rollback goes on).
    func recordCompensation(_ unit: CompletedUnit, error: String?) async {
        do {
            try await engine.recorder?.compensationFinished(
                runID: runID, key: unit.key, step: unit.stepID.description, error: error, finished: engine.environment.now())
        } catch let journal {
            onEvent(
                .warning(
                    RunWarning(
                        step: unit.stepID,
                        message: state.redactor.redact("the journal could not record the undoing of \(unit.key): \(journal)"))))
        }
    }

    /// Undoes one call with retries: the step's rollback steps, or the skill's compensation. `nil` on success.
    private func undo(_ unit: CompletedUnit) async -> String? {
        var lastError = ""
        for attempt in 1...Engine.compensationAttempts {
            do {
                if let steps = unit.rollback {
                    try await runRollbackSteps(steps, of: unit)
                } else {
                    let context = SkillContext(
                        runID: runID, stepID: unit.stepID.description, attempt: attempt, timeZone: engine.environment.timeZone)
                    try await unit.skill.compensate(unit.call, context: context)
                }
                return nil
            } catch {
                lastError = describe(error)
                if attempt < Engine.compensationAttempts { try? await engine.environment.sleep(0.2 * Double(attempt)) }
            }
        }
        return lastError
    }

    private func runRollbackSteps(_ steps: [PlaybookStep], of unit: CompletedUnit) async throws {
        var context = evaluationContext()
        context.this = ["input": .object(unit.call.parameters), "output": unit.call.output]
        for step in steps {
            if let when = step.when, !(try when.evaluate(in: context).isTruthy) { continue }
            guard let skill = engine.registry[step.skill] else { throw StepFailure(message: "unknown skill '\(step.skill)'", kind: .unavailable) }
            let parameters = try resolveParameters(step, skill.descriptor, context: context, driver: nil)
            _ = try await call(skill, parameters, step: step, attempt: 1)
        }
    }
}
