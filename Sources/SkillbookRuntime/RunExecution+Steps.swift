import Foundation
import SkillbookCore

/// How the steps of a (sub-)playbook ended, before any rollback.
struct StepsOutcome: Sendable {
    /// `rolledBack` here means a rollback is due, not that it happened.
    var status: RunStatus
    /// The failure that ended the steps, if any.
    var failure: String?
    /// What kind of failure it was.
    var kind: FailureKind?
    /// The run was interrupted (cancelled).
    var interrupted: Bool
    /// With status `waiting`: the request the run stopped at.
    var pause: ApprovalRequest?
}

extension RunExecution {
    /// Runs every step in order and applies the failure policies.
    func runSteps() async -> StepsOutcome {
        var status = RunStatus.succeeded
        for (index, step) in playbook.steps.enumerated() {
            if Task.isCancelled {
                return StepsOutcome(
                    status: rollbackOrStop(), failure: "interrupted before step '\(prefix)\(step.id)'", kind: .interrupted,
                    interrupted: true)
            }
            // Whatever becomes of the step, later steps read only what they read.
            defer { releaseOutputs(after: index) }
            do {
                try await runStep(step, index: index)
            } catch let pause as ApprovalPause {
                return StepsOutcome(status: .waiting, failure: nil, kind: nil, interrupted: false, pause: pause.request)
            } catch let failure as StepFailure {
                let cancelled = Task.isCancelled
                let policy = cancelled ? playbook.onFailure : (step.onFailure ?? playbook.onFailure)
                if policy == .continue {
                    status = .succeededWithErrors
                    continue
                }
                return StepsOutcome(
                    status: policy == .rollback ? .rolledBack : .failed, failure: failure.message,
                    kind: cancelled ? .interrupted : failure.kind, interrupted: cancelled)
            } catch {
                return StepsOutcome(
                    status: rollbackOrStop(), failure: "step '\(prefix)\(step.id)' failed: \(error)",
                    kind: Task.isCancelled ? .interrupted : Self.kind(of: error), interrupted: Task.isCancelled)
            }
        }
        return StepsOutcome(status: status, failure: nil, interrupted: false)
    }

    func rollbackOrStop() -> RunStatus { playbook.onFailure == .rollback ? .rolledBack : .failed }

    /// Runs one step; throws `StepFailure` (already reported) when it fails.
    func runStep(_ step: PlaybookStep, index: Int) async throws {
        let stepPath = path(of: step)
        let id = stepPath.description
        if resume?.plan.finishedSteps[id] != nil {
            onEvent(.stepSkipped(step: stepPath, reason: "already done before the run stopped (interrupted, or waiting for an approval)"))
            return
        }
        var context = evaluationContext()
        let started = engine.environment.now()
        func fail(_ message: String, kind: FailureKind, continuing: Bool? = nil) async -> StepFailure {
            let text = state.redactor.redact(message)
            let policy = step.onFailure ?? playbook.onFailure
            if !isNested {
                state.report(index) {
                    $0.status = .failed
                    $0.error = text
                    $0.failureKind = kind
                    $0.duration = engine.environment.now().timeIntervalSince(started)
                }
            }
            await record(step: stepPath, .failed, output: nil, error: text, kind: kind)
            let willContinue = continuing ?? (policy == .continue && !Task.isCancelled)
            onEvent(.stepFailed(step: stepPath, error: text, kind: kind, willContinue: willContinue))
            return StepFailure(message: "step '\(id)' failed: \(text)", kind: kind)
        }

        // A `when` that uses `item` or `index` is decided per foreach item, in `planCalls`.
        // In a dry-run, a `when` that reads an action's unknown output is planned with the step.
        if let when = step.when, !step.whenIsPerItem, !whenIsUnknown(step) {
            let value: Value
            do { value = try when.evaluate(in: context) } catch {
                throw await fail("'when' could not be evaluated: \(error.message)", kind: .validation)
            }
            guard let holds = value.conditionValue else {
                throw await fail("'when' must be a boolean, got \(value.typeName)", kind: .validation)
            }
            if !holds {
                if !isNested { state.report(index) { $0.status = .skipped } }
                await record(step: stepPath, .skipped, output: nil, error: nil)
                onEvent(.stepSkipped(step: stepPath, reason: "'when' is false"))
                return
            }
        }

        var output: Value?
        var partial: PartialFailure?
        do {
            if let name = step.playbook {
                output = try await runSubPlaybook(name, step: step, index: index, context: context)
            } else {
                guard let skill = engine.registry[step.skill] else {
                    throw StepFailure(message: "unknown skill '\(step.skill)'", kind: .unavailable)
                }
                output = try await runSkillStep(step, skill: skill, index: index, context: &context)
            }
        } catch let failure as PartialFailure {
            output = failure.output
            partial = failure
        } catch let failure as StepFailure {
            throw await fail(failure.message, kind: Task.isCancelled ? .interrupted : failure.kind)
        } catch let timeout as StepTimedOut {
            throw await fail(describe(timeout), kind: .timeout)
        } catch is CancellationError {
            throw await fail("interrupted while step '\(id)' was running", kind: .interrupted, continuing: false)
        }

        // Let go of this step's view of the outputs first, so adding its own does not copy them all.
        context.steps = [:]
        let duration = engine.environment.now().timeIntervalSince(started)
        let redacted = output.map(state.redactor.redact)
        if let partial {
            state.update { $0.outputs[id] = output }
            let failure = await fail(partial.message, kind: partial.kind)
            await record(step: stepPath, .failed, output: output, error: partial.message, kind: partial.kind)
            throw failure
        }
        // A dry run only planned it: `stepPlanned` said what it would do; it did not succeed.
        if dryRun, output == nil, state.read({ $0.planned.contains(id) }) {
            if !isNested { state.report(index) { $0.status = .planned } }
            return
        }
        state.update { contents in
            if let output { contents.outputs[id] = output }
            if !isNested {
                contents.reports[index].status = .succeeded
                contents.reports[index].output = keepsStepOutputs ? redacted : nil
                contents.reports[index].duration = duration
            }
        }
        if output != nil || !dryRun { await record(step: stepPath, .succeeded, output: output, error: nil) }
        onEvent(.stepSucceeded(step: stepPath, output: redacted ?? .null, duration: duration))
    }

    /// Writes a step's end to the journal (never in a dry-run), secrets masked. A journal failure
    /// here is not the step's failure (the calls themselves are already recorded): it is a warning.
    func record(step: StepPath, _ status: StepStatus, output: Value?, error: String?, kind: FailureKind? = nil) async {
        guard !dryRun, let recorder = engine.recorder else { return }
        let redactor = state.redactor
        let redacted = output.map(redactor.redact)
        // Large texts are kept cut short: a resume works the step's output out again from its calls.
        let bounded = redacted.map(engine.journalValueLimit.bounded)
        let kept = bounded?.value
        do {
            try await recorder.stepFinished(
                runID: runID, step: step.description, status: status, output: kept,
                outputMasked: redacted != output || bounded?.cut == true,
                error: error.map(redactor.redact))
        } catch {
            onEvent(.warning(RunWarning(step: step, message: redactor.redact("the journal could not record the end of the step: \(error)"))))
        }
    }
}
