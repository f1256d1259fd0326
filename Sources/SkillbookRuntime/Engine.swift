import Foundation
public import SkillbookCore

/// Runs checked playbooks: steps in order, `when`, parameter mapping, run-time validation,
/// retries, timeouts, `on_failure`, and saga-style rollback of completed steps.
public struct Engine: Sendable {
    public let registry: SkillRegistry
    public let environment: EngineEnvironment
    let coercion: Coercion

    /// Attempts per compensation before giving up on it.
    public static let compensationAttempts = 3

    public init(registry: SkillRegistry, environment: EngineEnvironment = .live) {
        self.registry = registry
        self.environment = environment
        self.coercion = Coercion(dates: DateParser(now: environment.now(), timeZone: environment.timeZone))
    }

    /// Runs a playbook whose inputs are already resolved (see `InputResolver`).
    ///
    /// Never throws: every failure, timeout and interruption ends in a `RunResult`. Cancelling
    /// the calling task interrupts the run; completed steps are then compensated as on failure.
    public func run(
        _ playbook: Playbook, inputs: ValueObject, onEvent: @escaping RunEventHandler = { _ in }
    ) async -> RunResult {
        var execution = RunExecution(engine: self, playbook: playbook, inputs: inputs, onEvent: onEvent)
        return await execution.run()
    }
}

enum CallOutcome: Sendable {
    case output(Value)
    case timedOut
    case timerStopped
}

struct StepTimedOut: Error {
    var seconds: Double
    var wholeRun: Bool
}

/// The state of one run while it executes.
struct RunExecution {
    let engine: Engine
    let playbook: Playbook
    let inputs: ValueObject
    let onEvent: RunEventHandler
    let runID: String
    let started: Date
    let deadline: Date?
    var redactor = Redactor()
    var outputs: [String: Value] = [:]
    var reports: [StepReport]
    /// Completed calls in order of completion, for rollback.
    var completed: [(index: Int, skill: any Skill, call: CompletedCall)] = []

    init(engine: Engine, playbook: Playbook, inputs: ValueObject, onEvent: @escaping RunEventHandler) {
        self.engine = engine
        self.playbook = playbook
        self.inputs = inputs
        self.onEvent = onEvent
        self.runID = engine.environment.makeRunID()
        let started = engine.environment.now()
        self.started = started
        self.deadline = playbook.timeout.map { started.addingTimeInterval($0) }
        self.reports = playbook.steps.map { StepReport(id: $0.id, skill: $0.skill) }
        for input in playbook.inputs {
            if let value = inputs[input.name] { redactor.addSecrets(in: value, schema: input.schema) }
        }
    }

    var evaluationContext: EvaluationContext {
        var run = ValueObject()
        run["id"] = .string(runID)
        run["playbook"] = .string(playbook.name)
        run["started"] = .string(DateParser.formatDateTime(started, timeZone: engine.environment.timeZone))
        return EvaluationContext(
            inputs: inputs, steps: outputs, env: engine.environment.variables.filter { playbook.env.contains($0.key) },
            run: run, now: engine.environment.now(), timeZone: engine.environment.timeZone)
    }

    mutating func run() async -> RunResult {
        onEvent(.runStarted(runID: runID, playbook: playbook.name, inputs: redactor.redact(inputs)))
        var status = RunStatus.succeeded
        var failure: String?
        var interrupted = false

        for (index, step) in playbook.steps.enumerated() {
            if Task.isCancelled {
                interrupted = true
                failure = "interrupted before step '\(step.id)'"
                break
            }
            let outcome = await runStep(step, index: index)
            guard case .failed(let message, let cancelled) = outcome else { continue }
            interrupted = cancelled
            let policy = cancelled ? playbook.onFailure : (step.onFailure ?? playbook.onFailure)
            if policy == .continue && !cancelled {
                status = .succeededWithErrors
                continue
            }
            failure = message
            status = policy == .rollback ? .rolledBack : .failed
            break
        }

        if interrupted, status == .succeeded || status == .succeededWithErrors {
            status = playbook.onFailure == .rollback ? .rolledBack : .failed
        }
        if status == .rolledBack, !(await rollBack()) {
            status = .rollbackIncomplete
        }

        var resultOutputs = ValueObject()
        if status == .succeeded || status == .succeededWithErrors {
            let context = evaluationContext
            for output in playbook.outputs {
                do {
                    resultOutputs[output.name] = redactor.redact(try output.value.evaluate(in: context))
                } catch {
                    resultOutputs[output.name] = .null
                    failure = failure ?? "output '\(output.name)': \(redactor.redact(error.message))"
                }
            }
        }
        let result = RunResult(
            runID: runID, playbook: playbook.name, status: status, interrupted: interrupted, outputs: resultOutputs,
            steps: reports, error: failure.map(redactor.redact), started: started, finished: engine.environment.now())
        onEvent(.runFinished(result))
        return result
    }

    enum StepOutcome {
        case succeeded, skipped
        case failed(String, cancelled: Bool)
    }

    mutating func runStep(_ step: PlaybookStep, index: Int) async -> StepOutcome {
        let context = evaluationContext
        let stepStart = engine.environment.now()
        if let when = step.when {
            do {
                if !(try when.evaluate(in: context).isTruthy) {
                    reports[index].status = .skipped
                    onEvent(.stepSkipped(step: step.id, reason: "'when' is false"))
                    return .skipped
                }
            } catch {
                return fail(index, step, "'when' could not be evaluated: \(error.message)")
            }
        }
        guard let skill = engine.registry[step.skill] else {
            return fail(index, step, "unknown skill '\(step.skill)'")
        }
        let descriptor = skill.descriptor

        let parameters: ValueObject
        switch resolveParameters(step, skill: descriptor, context: context) {
        case .success(let resolved): parameters = resolved
        case .failure(let problem): return fail(index, step, problem.message)
        }

        var attempt = 0
        while true {
            attempt += 1
            reports[index].attempts = attempt
            onEvent(
                .stepStarted(step: step.id, skill: descriptor.id, attempt: attempt, parameters: redactor.redact(parameters)))
            do {
                let output = try await call(skill, parameters, step: step, attempt: attempt)
                let violations = SchemaValidator.validate(output, against: descriptor.output)
                if let first = violations.first {
                    throw SkillError("skill '\(descriptor.id)' returned an output that breaks its schema: \(first)")
                }
                outputs[step.id] = output
                completed.append((index, skill, CompletedCall(parameters: parameters, output: output)))
                reports[index].status = .succeeded
                reports[index].output = redactor.redact(output)
                reports[index].duration = engine.environment.now().timeIntervalSince(stepStart)
                onEvent(.stepSucceeded(step: step.id, output: redactor.redact(output), duration: reports[index].duration))
                return .succeeded
            } catch {
                reports[index].duration = engine.environment.now().timeIntervalSince(stepStart)
                if Task.isCancelled {
                    return fail(index, step, "interrupted while step '\(step.id)' was running", cancelled: true)
                }
                let message = describe(error, step: step)
                if let timeout = error as? StepTimedOut, timeout.wholeRun {
                    return fail(index, step, message)
                }
                guard attempt < step.retry.attempts else { return fail(index, step, message) }
                let delay = step.retry.delay(after: attempt)
                onEvent(.stepRetrying(step: step.id, attempt: attempt, error: redactor.redact(message), delay: delay))
                do {
                    try await engine.environment.sleep(delay)
                } catch {
                    return fail(index, step, "interrupted while waiting to retry step '\(step.id)'", cancelled: true)
                }
            }
        }
    }

    mutating func fail(_ index: Int, _ step: PlaybookStep, _ message: String, cancelled: Bool = false) -> StepOutcome {
        let text = redactor.redact(message)
        reports[index].status = .failed
        reports[index].error = text
        let policy = step.onFailure ?? playbook.onFailure
        onEvent(.stepFailed(step: step.id, error: text, willContinue: policy == .continue && !cancelled))
        return .failed("step '\(step.id)' failed: \(text)", cancelled: cancelled)
    }

    func describe(_ error: any Error, step: PlaybookStep) -> String {
        switch error {
        case let timeout as StepTimedOut:
            timeout.wholeRun
                ? "the playbook timed out after \(JSONText.number(playbook.timeout ?? timeout.seconds))s"
                : "timed out after \(JSONText.number(timeout.seconds))s"
        case let skillError as SkillError: skillError.message
        case let diagnostics as DiagnosticError: diagnostics.description
        default: String(describing: error)
        }
    }

    /// Evaluates `with:`, fills skill defaults, coerces and validates.
    mutating func resolveParameters(
        _ step: PlaybookStep, skill: SkillDescriptor, context: EvaluationContext
    ) -> Result<ValueObject, SkillError> {
        var parameters = ValueObject()
        for mapping in step.with {
            do {
                var value = try mapping.value.evaluate(in: context)
                if let schema = skill.parameters.property(mapping.name) {
                    value = engine.coercion.coerce(value, to: schema)
                }
                parameters[mapping.name] = value
            } catch {
                return .failure(SkillError("parameter '\(mapping.name)': \(error.message)"))
            }
        }
        for property in skill.parameters.properties where parameters[property.name] == nil {
            if let value = property.schema.defaultValue { parameters[property.name] = value }
        }
        redactor.addSecrets(in: .object(parameters), schema: skill.parameters)
        let violations = SchemaValidator.validate(.object(parameters), against: skill.parameters)
        guard violations.isEmpty else {
            let text = violations.map { violation in
                violation.path.isEmpty
                    ? violation.predicate : "parameter '\(violation.path.rendered())' \(violation.predicate)"
            }
            return .failure(SkillError(text.joined(separator: "; ")))
        }
        return .success(parameters)
    }

    /// Calls the skill under the step's timeout (and what is left of the playbook's).
    func call(_ skill: any Skill, _ parameters: ValueObject, step: PlaybookStep, attempt: Int) async throws -> Value {
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
        let stepID = step.id
        let seconds = limit
        let endsRun = wholeRun
        let context = SkillContext(runID: runID, stepID: step.id, attempt: attempt) { done, total in
            onEvent(.stepProgress(step: stepID, completed: done, total: total))
        }
        // The skill's own result always decides: after a timeout (or an interrupt) the skill is
        // cancelled and awaited, so an effect it completed anyway is still recorded and can be undone.
        return try await withThrowingTaskGroup(of: CallOutcome.self) { group in
            group.addTask { .output(try await skill.run(parameters, context: context)) }
            group.addTask {
                try? await Task.sleep(nanoseconds: UInt64(seconds * 1e9))
                return Task.isCancelled ? .timerStopped : .timedOut
            }
            var timedOut = false
            do {
                while let outcome = try await group.next() {
                    switch outcome {
                    case .output(let value):
                        group.cancelAll()
                        return value
                    case .timedOut:
                        timedOut = true
                        group.cancelAll()
                    case .timerStopped:
                        continue
                    }
                }
            } catch where timedOut {
                throw StepTimedOut(seconds: seconds, wholeRun: endsRun)
            }
            throw CancellationError()
        }
    }

    /// Compensates completed calls in reverse order of completion; `false` when something stays done.
    mutating func rollBack() async -> Bool {
        var complete = true
        let calls = completed
        let sleep = engine.environment.sleep
        let runID = runID
        for entry in calls.reversed() {
            let descriptor = entry.skill.descriptor
            let stepID = reports[entry.index].id
            if descriptor.kind == .query {
                continue
            }
            guard descriptor.reversible else {
                complete = false
                reports[entry.index].status = .notCompensated
                reports[entry.index].compensationError = "skill '\(descriptor.id)' cannot be undone"
                onEvent(.compensationFailed(step: stepID, error: "skill '\(descriptor.id)' cannot be undone"))
                continue
            }
            onEvent(.compensationStarted(step: stepID))
            // A fresh task: compensation must run even when the run itself was cancelled.
            let skill = entry.skill
            let call = entry.call
            let error: String? = await Task {
                var lastError = ""
                for attempt in 1...Engine.compensationAttempts {
                    do {
                        try await skill.compensate(call, context: SkillContext(runID: runID, stepID: stepID, attempt: attempt))
                        return nil
                    } catch {
                        lastError = (error as? SkillError)?.message ?? String(describing: error)
                        if attempt < Engine.compensationAttempts { try? await sleep(0.2 * Double(attempt)) }
                    }
                }
                return lastError
            }.value
            if let error {
                complete = false
                let text = redactor.redact(error)
                reports[entry.index].status = .notCompensated
                reports[entry.index].compensationError = text
                onEvent(.compensationFailed(step: stepID, error: text))
            } else {
                reports[entry.index].status = .compensated
                onEvent(.compensationSucceeded(step: stepID))
            }
        }
        return complete
    }
}
