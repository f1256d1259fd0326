import Foundation
import SkillbookCore

extension RunExecution {
    /// One call with the step's retries, journaled before and after; recorded for rollback when it
    /// completes. A resumed run reuses calls that completed before instead of making them again.
    ///
    /// With `handOver` (the caller holds no other copy of `parameters`), the last attempt of a
    /// call nothing undoes hands the parameters over to the skill (see `CallParameters`).
    func callWithRetry(
        _ skill: any Skill, _ parameters: consuming ValueObject, step: PlaybookStep, index: Int, key: CallKey, label: String,
        progress: Progress, handOver: Bool = false
    ) async throws -> Value {
        // Owned here, so that handing them over leaves no copy behind.
        var parameters = parameters
        let descriptor = skill.descriptor
        let id = path(of: step)
        let items = progress.items(in: parameters)
        if let resume {
            if let recorded = resume.completed[key] {
                advance(progress, id, items: items)
                return recorded.call.output
            }
            if resume.plan.uncertain[key] == .skip {
                advance(progress, id, items: items)
                return .null
            }
        }
        // What the journal keeps of the parameters, masked first. A query's long texts are cut like
        // its output (nothing reads them back: a resume evaluates them again); an action's, and
        // those of a step whose `rollback:` reads them as `this.input`, are kept whole.
        var recordedParameters = state.redactor.redact(parameters)
        if descriptor.kind == .query, step.rollback == nil,
            case .object(let bounded) = engine.journalValueLimit.bounded(.object(recordedParameters)).value
        {
            recordedParameters = bounded
        }
        // A query without `rollback:` steps is never undone: nothing needs its parameters after the call.
        let undone = descriptor.kind != .query || step.rollback != nil
        var attempt = 0
        while true {
            attempt += 1
            try Task.checkCancellation()
            let record = CallRecord(
                runID: runID, key: key, skill: descriptor.id, attempt: attempt,
                parameters: recordedParameters, started: engine.environment.now(),
                hasEffects: descriptor.kind != .query)
            if let recorder = engine.recorder {
                do { try await recorder.callStarted(record) } catch {
                    throw StepFailure(
                        message: "the journal could not record the call, so it was not made: \(error)", kind: .journal,
                        retryable: false)
                }
            }
            do {
                let handing = handOver && !undone && attempt >= step.retry.attempts
                let given = CallParameters(parameters, handedOver: handing)
                if handing { parameters = ValueObject() }
                let output = try await call(skill, given, step: step, attempt: attempt)
                if let first = SchemaValidator.validate(output, against: descriptor.output).first {
                    throw StepFailure(
                        message: "skill '\(descriptor.id)' returned an output that breaks its schema: \(first)", kind: .skill)
                }
                // A value the skill's output schema marks secret is masked from now on.
                state.addSecrets(in: output, schema: descriptor.output)
                // The call is done whatever the journal says: rollback must know of it. A query
                // that is never undone keeps neither its parameters nor its output (which may be a
                // large text a later step no longer needs) for it.
                state.complete(
                    CompletedUnit(
                        stepIndex: reportIndex(index), stepID: id, key: key, skill: skill,
                        call: undone ? CompletedCall(parameters: parameters, output: output) : CompletedCall(parameters: [:], output: .null),
                        rollback: step.rollback, playbook: playbook))
                if let recorder = engine.recorder {
                    let redacted = state.redactor.redact(output)
                    // Large texts are kept cut short, except what an action's undo reads: a resume runs
                    // a query again and reuses an action's record.
                    let (kept, cut) = engine.journalValueLimit.bounded(
                        redacted, keepingWhole: descriptor.outputFieldsKeptWhole)
                    var finished = record
                    finished.outputMasked = redacted != output || cut
                    do {
                        try await recorder.callFinished(finished, output: kept, error: nil, finished: engine.environment.now())
                    } catch {
                        try journalFailed(
                            "the journal could not record the result of \(key)", error, step: id, isAction: record.hasEffects)
                    }
                }
                if !isNested { state.report(index) { $0.attempts = max($0.attempts, attempt) } }
                advance(progress, id, items: items)
                return output
            } catch {
                // A journal failure after the call completed is final: the call is not made again.
                if let failure = error as? StepFailure, failure.kind == .journal { throw failure }
                let message = (label.isEmpty ? "" : "\(label): ") + describe(error)
                let kind = Self.kind(of: error)
                // It may have done part of its work (half an archive): undone on rollback when it can be.
                if descriptor.compensatesFailedCalls, step.rollback == nil {
                    var unit = CompletedUnit(
                        stepIndex: reportIndex(index), stepID: id, key: key, skill: skill,
                        call: CompletedCall(parameters: parameters, output: .null), rollback: nil, playbook: playbook)
                    unit.failed = true
                    state.completeFailed(unit)
                }
                if let recorder = engine.recorder {
                    do {
                        try await recorder.callFinished(
                            record, output: nil, error: state.redactor.redact(message), finished: engine.environment.now())
                    } catch let journal {
                        // The failure is recorded as the step's; only this attempt's line is missing.
                        try? journalFailed(
                            "the journal could not record the failure of \(key)", journal, step: id, isAction: false)
                    }
                }
                if Task.isCancelled { throw CancellationError() }
                if let timeout = error as? StepTimedOut, timeout.wholeRun { throw error }
                if let failure = error as? StepFailure, !failure.retryable {
                    throw StepFailure(message: message, kind: kind, retryable: false)
                }
                guard attempt < step.retry.attempts else {
                    if !isNested { state.report(index) { $0.attempts = max($0.attempts, attempt) } }
                    throw StepFailure(message: message, kind: kind)
                }
                let delay = step.retry.delay(after: attempt)
                onEvent(.stepRetrying(step: id, attempt: attempt, error: state.redactor.redact(message), delay: delay))
                try await engine.environment.sleep(delay)
            }
        }
    }

    /// A call of `items` items of the driving list is done.
    func advance(_ progress: Progress, _ id: StepPath, items: Int) {
        let done = progress.advance(items: items)
        if progress.total > 1 {
            onEvent(.stepProgress(step: id, completed: done.calls, total: progress.total, unit: progress.unit(items: done.items)))
        }
    }

    /// A journal write failed. For an action's record this fails the step (kind `journal`): a
    /// resume could not tell what the action did. Any other record only costs a warning event.
    func journalFailed(_ what: String, _ error: any Error, step: StepPath?, isAction: Bool) throws {
        let message = "\(what): \(error)"
        if isAction { throw StepFailure(message: message, kind: .journal, retryable: false) }
        onEvent(.warning(RunWarning(step: step, message: state.redactor.redact(message))))
    }

    /// The kind of a call's failure.
    static func kind(of error: any Error) -> FailureKind {
        switch error {
        case is StepTimedOut: .timeout
        case let failure as StepFailure: failure.kind
        case let skillError as SkillError: skillError.kind
        case is CancellationError: .interrupted
        case is DiagnosticError: .validation
        default: .skill
        }
    }

    func describe(_ error: any Error) -> String {
        switch error {
        case let timeout as StepTimedOut:
            timeout.wholeRun
                ? "the playbook timed out after \(JSONText.number(playbook.timeout ?? timeout.seconds))s"
                : "timed out after \(JSONText.number(timeout.seconds))s"
        case let failure as StepFailure: failure.message
        case let skillError as SkillError: skillError.message
        case let diagnostics as DiagnosticError: diagnostics.description
        default: String(describing: error)
        }
    }


    /// Calls the skill under the step's timeout (and what is left of the playbook's).
    func call(_ skill: any Skill, _ parameters: ValueObject, step: PlaybookStep, attempt: Int) async throws -> Value {
        try await call(skill, CallParameters(parameters), step: step, attempt: attempt)
    }

    func call(_ skill: any Skill, _ parameters: CallParameters, step: PlaybookStep, attempt: Int) async throws -> Value {
        var limit = step.timeout ?? skill.descriptor.timeout
        var wholeRun = false
        if let deadline {
            let left = deadline.timeIntervalSince(engine.environment.now())
            if left <= limit {
                limit = max(0, left)
                wholeRun = true
            }
        }
        let onEvent = self.onEvent
        let stepPath = path(of: step)
        let seconds = limit
        let endsRun = wholeRun
        let context = SkillContext(
            runID: runID, stepID: stepPath.description, attempt: attempt, timeZone: engine.environment.timeZone
        ) { done, total in
            onEvent(.stepProgress(step: stepPath, completed: done, total: total, unit: .skill))
        }
        // The skill's own result always decides: after a timeout (or an interrupt) the skill is
        // cancelled and awaited, so an effect it completed anyway is still recorded and can be undone.
        let (result, timedOut) = await Deadlines.shared.run(timeout: seconds) {
            try await skill.run(handedOver: parameters, context: context)
        }
        switch result {
        case .success(let value): return value
        // A skill that failed on its own keeps its own error, even if the time ran out meanwhile
        // (on a starved machine the timer can fire before the skill's task even starts).
        case .failure(let error) where timedOut && !(error is SkillError):
            throw StepTimedOut(seconds: seconds, wholeRun: endsRun)
        case .failure(let error): throw error
        }
    }
}
