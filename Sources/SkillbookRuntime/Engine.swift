import Synchronization
import Foundation
public import SkillbookCore

/// Runs checked playbooks: `when`, parameter mapping, run-time validation, batching driven by
/// `maxItems`, `foreach`, sub-playbooks, retries, timeouts, confirmation, resource locks,
/// `on_failure`, and saga-style rollback of every completed call in reverse order.
public struct Engine: Sendable {
    public let registry: SkillRegistry
    public let environment: EngineEnvironment
    public let confirmer: any Confirmer
    public let resources: ResourceLocks

    /// Attempts per compensation before giving up on it.
    public static let compensationAttempts = 3

    public init(
        registry: SkillRegistry, environment: EngineEnvironment = .live, confirmer: any Confirmer = RefusingConfirmer(),
        resources: ResourceLocks = .shared
    ) {
        self.registry = registry
        self.environment = environment
        self.confirmer = confirmer
        self.resources = resources
    }

    /// Runs a playbook whose inputs are already resolved (see `InputResolver`).
    ///
    /// Never throws: every failure, timeout and interruption ends in a `RunResult`. Cancelling
    /// the calling task interrupts the run; completed calls are then compensated as on failure.
    /// With `dryRun`, query skills run for real and actions are only planned.
    public func run(
        _ playbook: Playbook, inputs: ValueObject, dryRun: Bool = false, onEvent: @escaping RunEventHandler = { _ in }
    ) async -> RunResult {
        let runID = environment.makeRunID()
        let started = environment.now()
        let state = RunState(reports: playbook.steps.map { StepReport(id: $0.id, skill: $0.playbook.map { "playbook:\($0)" } ?? $0.skill) })
        for input in playbook.inputs {
            if let value = inputs[input.name] { state.addSecrets(in: value, schema: input.schema) }
        }
        let execution = RunExecution(
            engine: self, playbook: playbook, inputs: inputs, runID: runID, started: started,
            deadline: playbook.timeout.map { started.addingTimeInterval($0) }, dryRun: dryRun, onEvent: onEvent,
            state: state, prefix: "", topIndex: nil)
        onEvent(.runStarted(runID: runID, playbook: playbook.name, inputs: state.redactor.redact(inputs)))

        var (status, failure, interrupted) = await execution.runSteps()
        if status == .rolledBack, !(await execution.rollBack()) {
            status = .rollbackIncomplete
        }
        var outputs = ValueObject()
        if status == .succeeded || status == .succeededWithErrors {
            do {
                outputs = try execution.evaluateOutputs()
            } catch {
                failure = failure ?? error.message
            }
        }
        let redactor = state.redactor
        let result = RunResult(
            runID: runID, playbook: playbook.name, status: status, interrupted: interrupted,
            outputs: redactor.redact(outputs), steps: state.read(\.reports), error: failure.map(redactor.redact),
            started: started, finished: environment.now())
        onEvent(.runFinished(result))
        return result
    }
}

/// A step failure: its message, and whether retrying could help.
struct StepFailure: Error {
    var message: String
    var retryable = true
}

struct StepTimedOut: Error {
    var seconds: Double
    var wholeRun: Bool
}

/// One run (or sub-playbook run) of a playbook; its mutable parts live in the shared `RunState`.
struct RunExecution: Sendable {
    let engine: Engine
    let playbook: Playbook
    let inputs: ValueObject
    let runID: String
    let started: Date
    let deadline: Date?
    let dryRun: Bool
    let onEvent: RunEventHandler
    let state: RunState
    /// `parent/` inside a sub-playbook, so event step ids stay unique.
    let prefix: String
    /// For a sub-playbook: the index of the top-level step running it (reports and rollback use it).
    let topIndex: Int?

    var isNested: Bool { topIndex != nil }

    func evaluationContext(item: Value? = nil, index: Int? = nil) -> EvaluationContext {
        var run = ValueObject()
        run["id"] = .string(runID)
        run["playbook"] = .string(playbook.name)
        run["started"] = .string(DateParser.formatDateTime(started, timeZone: engine.environment.timeZone))
        let steps = state.read { contents in
            guard !prefix.isEmpty else { return contents.outputs }
            var steps: [String: Value] = [:]
            for (key, value) in contents.outputs where key.hasPrefix(prefix) { steps[String(key.dropFirst(prefix.count))] = value }
            return steps
        }
        return EvaluationContext(
            inputs: inputs, steps: steps, item: item, index: index,
            env: declaredVariables(), run: run,
            now: engine.environment.now(), timeZone: engine.environment.timeZone)
    }

    /// The environment variables the playbook declares in `env:` and that are set.
    func declaredVariables() -> [String: String] {
        var variables: [String: String] = [:]
        for name in playbook.env { variables[name] = engine.environment.variables[name] }
        return variables
    }

    // MARK: Steps

    /// Runs every step in order; returns the status before rollback, the failure and whether it was interrupted.
    func runSteps() async -> (RunStatus, String?, Bool) {
        var status = RunStatus.succeeded
        for (index, step) in playbook.steps.enumerated() {
            if Task.isCancelled {
                return (rollbackOrStop(), "interrupted before step '\(prefix)\(step.id)'", true)
            }
            do {
                try await runStep(step, index: index)
            } catch let failure as StepFailure {
                let cancelled = Task.isCancelled
                let policy = cancelled ? playbook.onFailure : (step.onFailure ?? playbook.onFailure)
                if policy == .continue {
                    status = .succeededWithErrors
                    continue
                }
                return (policy == .rollback ? .rolledBack : .failed, failure.message, cancelled)
            } catch {
                return (rollbackOrStop(), "step '\(prefix)\(step.id)' failed: \(error)", Task.isCancelled)
            }
        }
        return (status, nil, false)
    }

    func rollbackOrStop() -> RunStatus { playbook.onFailure == .rollback ? .rolledBack : .failed }

    func reportIndex(_ index: Int) -> Int { topIndex ?? index }

    /// Runs one step; throws `StepFailure` (already reported) when it fails.
    func runStep(_ step: PlaybookStep, index: Int) async throws {
        let id = prefix + step.id
        var context = evaluationContext()
        let started = engine.environment.now()
        func fail(_ message: String, continuing: Bool? = nil) -> StepFailure {
            let text = state.redactor.redact(message)
            let policy = step.onFailure ?? playbook.onFailure
            if !isNested {
                state.report(index) {
                    $0.status = .failed
                    $0.error = text
                    $0.duration = engine.environment.now().timeIntervalSince(started)
                }
            }
            onEvent(.stepFailed(step: id, error: text, willContinue: continuing ?? (policy == .continue && !Task.isCancelled)))
            return StepFailure(message: "step '\(id)' failed: \(text)")
        }

        if let when = step.when {
            let value: Value
            do { value = try when.evaluate(in: context) } catch {
                throw fail("'when' could not be evaluated: \(error.message)")
            }
            if !value.isTruthy {
                if !isNested { state.report(index) { $0.status = .skipped } }
                onEvent(.stepSkipped(step: id, reason: "'when' is false"))
                return
            }
        }

        let output: Value?
        do {
            if let name = step.playbook {
                output = try await runSubPlaybook(name, step: step, index: index, context: context)
            } else {
                guard let skill = engine.registry[step.skill] else { throw StepFailure(message: "unknown skill '\(step.skill)'") }
                output = try await runSkillStep(step, skill: skill, index: index, context: context)
            }
        } catch let failure as StepFailure {
            throw fail(failure.message)
        } catch let timeout as StepTimedOut {
            throw fail(describe(timeout))
        } catch is CancellationError {
            throw fail("interrupted while step '\(id)' was running", continuing: false)
        }

        // Let go of this step's view of the outputs first, so adding its own does not copy them all.
        context.steps = [:]
        let duration = engine.environment.now().timeIntervalSince(started)
        let redacted = output.map(state.redactor.redact)
        state.update { contents in
            if let output { contents.outputs[id] = output }
            if !isNested {
                contents.reports[index].status = .succeeded
                contents.reports[index].output = redacted
                contents.reports[index].duration = duration
            }
        }
        onEvent(.stepSucceeded(step: id, output: redacted ?? .null, duration: duration))
    }

    /// A skill step: once, batched, or once per foreach element. `nil` output in a dry-run of an action.
    func runSkillStep(_ step: PlaybookStep, skill: any Skill, index: Int, context: EvaluationContext) async throws -> Value? {
        let descriptor = skill.descriptor
        let id = prefix + step.id
        let driver = try? step.batchDriver(for: descriptor).get()

        // Work out every call first: parameters are validated before anything runs.
        var iterations: [ValueObject] = []
        var unknown: [String] = []
        if dryRun {
            unknown = unknownReferences(of: step)
        }
        if unknown.isEmpty {
            if let foreach = step.foreach {
                let list: Value
                do { list = try foreach.evaluate(in: context) } catch { throw StepFailure(message: "'foreach': \(error.message)") }
                guard case .array(let items) = list else {
                    throw StepFailure(message: "'foreach' expects a list, got \(list.typeName)")
                }
                for (position, item) in items.enumerated() {
                    iterations.append(try resolveParameters(step, descriptor, context: evaluationContext(item: item, index: position), driver: driver))
                }
            } else {
                iterations = [try resolveParameters(step, descriptor, context: context, driver: driver)]
            }
        }
        let batches = iterations.map { batchesOf($0, driver: driver) }
        let calls = batches.reduce(0) { $0 + $1.count }

        if dryRun && (descriptor.kind == .action || !unknown.isEmpty) {
            let plan = StepPlan(
                step: id, skill: descriptor.id, kind: descriptor.kind, ran: false,
                parameters: iterations.first.map(state.redactor.redact), unknownFrom: unknown,
                iterations: step.foreach == nil ? nil : (unknown.isEmpty ? iterations.count : nil),
                batches: driver == nil ? nil : (unknown.isEmpty ? calls : nil),
                confirm: step.confirm ?? descriptor.confirm, reversible: descriptor.reversible || step.rollback != nil)
            onEvent(.stepPlanned(plan))
            return nil
        }

        onEvent(
            .stepStarted(
                step: id, skill: descriptor.id, attempt: 1, parameters: state.redactor.redact(iterations.first ?? ValueObject())))
        if step.confirm ?? descriptor.confirm, !dryRun {
            let request = ConfirmationRequest(
                step: id, skill: descriptor.id, summary: descriptor.summary,
                parameters: state.redactor.redact(iterations.first ?? ValueObject()), calls: calls)
            onEvent(.confirmationRequested(request))
            let refusal = await engine.confirmer.confirm(request)
            onEvent(.confirmationAnswered(step: id, approved: refusal == nil))
            if let refusal {
                throw StepFailure(message: "step needs confirmation (\(descriptor.id) has confirm): \(refusal)", retryable: false)
            }
        }

        let locked = descriptor.kind == .action ? descriptor.resources : []
        if !locked.isEmpty { await engine.resources.acquire(locked) }
        defer { if !locked.isEmpty { Task { [resources = engine.resources] in await resources.release(locked) } } }

        let progress = Progress(total: calls)
        if step.foreach == nil {
            let outputs = try await runBatches(batches[0], step: step, skill: skill, index: index, progress: progress)
            if dryRun { onEvent(.stepPlanned(plannedQuery(step, descriptor, iterations, calls, driver))) }
            return driver == nil ? outputs[0] : Value.mergedBatches(outputs)
        }
        let results = try await forEach(batches, step: step, skill: skill, index: index, driver: driver, progress: progress)
        return .array(results)
    }

    func plannedQuery(
        _ step: PlaybookStep, _ descriptor: SkillDescriptor, _ iterations: [ValueObject], _ calls: Int, _ driver: BatchDriver?
    ) -> StepPlan {
        StepPlan(
            step: prefix + step.id, skill: descriptor.id, kind: descriptor.kind, ran: true,
            parameters: iterations.first.map(state.redactor.redact), unknownFrom: [],
            iterations: step.foreach == nil ? nil : iterations.count, batches: driver == nil ? nil : calls,
            confirm: false, reversible: true)
    }

    /// Runs foreach iterations, `concurrency` at a time; `on_failure: continue` applies per iteration.
    func forEach(
        _ iterations: [[ValueObject]], step: PlaybookStep, skill: any Skill, index: Int, driver: BatchDriver?,
        progress: Progress
    ) async throws -> [Value] {
        let continuing = (step.onFailure ?? playbook.onFailure) == .continue
        var results = [Value](repeating: .null, count: iterations.count)
        var failures: [(Int, String)] = []
        try await withThrowingTaskGroup(of: (Int, Result<Value, StepFailure>).self) { group in
            var next = 0
            var running = 0
            var stopped = false
            func launch() {
                let position = next
                let batches = iterations[position]
                next += 1
                running += 1
                group.addTask {
                    do {
                        let outputs = try await runBatches(
                            batches, step: step, skill: skill, index: index, progress: progress,
                            label: "item \(position + 1) of \(iterations.count)")
                        return (position, .success(driver == nil ? outputs[0] : Value.mergedBatches(outputs)))
                    } catch let failure as StepFailure {
                        return (position, .failure(failure))
                    } catch let timeout as StepTimedOut {
                        return (position, .failure(StepFailure(message: describe(timeout))))
                    }
                }
            }
            while next < iterations.count && running < step.concurrency { launch() }
            while let (position, result) = try await group.next() {
                running -= 1
                switch result {
                case .success(let value): results[position] = value
                case .failure(let failure):
                    failures.append((position, failure.message))
                    if !continuing { stopped = true }
                }
                if !stopped && !Task.isCancelled && next < iterations.count { launch() }
            }
        }
        try Task.checkCancellation()
        guard failures.isEmpty else {
            let sorted = failures.sorted { $0.0 < $1.0 }
            let first = sorted[0]
            let message = "item \(first.0 + 1) of \(iterations.count) failed: \(first.1)"
                + (sorted.count > 1 ? " (and \(sorted.count - 1) more)" : "")
            throw StepFailure(message: message)
        }
        return results
    }

    /// Runs the batches of one call in order (or `batch.concurrency` at once, with `batch.pause`).
    func runBatches(
        _ batches: [ValueObject], step: PlaybookStep, skill: any Skill, index: Int, progress: Progress,
        label: String? = nil
    ) async throws -> [Value] {
        let concurrency = step.batch?.concurrency ?? 1
        let pause = step.batch?.pause ?? 0
        let many = batches.count > 1
        if concurrency <= 1 {
            var outputs: [Value] = []
            outputs.reserveCapacity(batches.count)
            for (number, parameters) in batches.enumerated() {
                if number > 0, pause > 0 { try await engine.environment.sleep(pause) }
                let where_ = [label, many ? "batch \(number + 1) of \(batches.count)" : nil].compactMap { $0 }.joined(separator: ", ")
                outputs.append(try await callWithRetry(skill, parameters, step: step, index: index, label: where_, progress: progress))
            }
            return outputs
        }
        var outputs = [Value?](repeating: nil, count: batches.count)
        try await withThrowingTaskGroup(of: (Int, Value).self) { group in
            var next = 0
            func launch() {
                let number = next
                next += 1
                let where_ = [label, "batch \(number + 1) of \(batches.count)"].compactMap { $0 }.joined(separator: ", ")
                group.addTask {
                    (number, try await callWithRetry(skill, batches[number], step: step, index: index, label: where_, progress: progress))
                }
            }
            while next < batches.count && next < concurrency { launch() }
            while let (number, output) = try await group.next() {
                outputs[number] = output
                if next < batches.count {
                    if pause > 0 { try await engine.environment.sleep(pause) }
                    launch()
                }
            }
        }
        return outputs.map { $0 ?? .null }
    }

    /// One call with the step's retries; records it for rollback when it completes.
    func callWithRetry(
        _ skill: any Skill, _ parameters: ValueObject, step: PlaybookStep, index: Int, label: String, progress: Progress
    ) async throws -> Value {
        let descriptor = skill.descriptor
        let id = prefix + step.id
        var attempt = 0
        while true {
            attempt += 1
            try Task.checkCancellation()
            do {
                let output = try await call(skill, parameters, step: step, attempt: attempt)
                if let first = SchemaValidator.validate(output, against: descriptor.output).first {
                    throw StepFailure(message: "skill '\(descriptor.id)' returned an output that breaks its schema: \(first)")
                }
                state.complete(
                    CompletedUnit(
                        stepIndex: reportIndex(index), stepID: id, skill: skill,
                        call: CompletedCall(parameters: parameters, output: output), rollback: step.rollback,
                        playbook: playbook))
                if !isNested { state.report(index) { $0.attempts = max($0.attempts, attempt) } }
                let done = progress.advance()
                if progress.total > 1 { onEvent(.stepProgress(step: id, completed: done, total: progress.total)) }
                return output
            } catch {
                if Task.isCancelled { throw CancellationError() }
                if let timeout = error as? StepTimedOut, timeout.wholeRun { throw error }
                let message = (label.isEmpty ? "" : "\(label): ") + describe(error)
                if let failure = error as? StepFailure, !failure.retryable { throw StepFailure(message: message, retryable: false) }
                guard attempt < step.retry.attempts else {
                    if !isNested { state.report(index) { $0.attempts = max($0.attempts, attempt) } }
                    throw StepFailure(message: message)
                }
                let delay = step.retry.delay(after: attempt)
                onEvent(.stepRetrying(step: id, attempt: attempt, error: state.redactor.redact(message), delay: delay))
                try await engine.environment.sleep(delay)
            }
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

    /// Evaluates `with:`, fills skill defaults, coerces and validates (the batched list as a whole).
    func resolveParameters(
        _ step: PlaybookStep, _ skill: SkillDescriptor, context: EvaluationContext, driver: BatchDriver?
    ) throws -> ValueObject {
        let coercion = Coercion(dates: DateParser(now: context.now, timeZone: context.timeZone))
        var parameters = ValueObject()
        for mapping in step.with {
            do {
                var value = try mapping.value.evaluate(in: context)
                if let schema = skill.parameters.property(mapping.name) {
                    value = coercion.coerce(value, to: schema)
                }
                if value != .null { parameters[mapping.name] = value }
            } catch {
                throw StepFailure(message: "parameter '\(mapping.name)': \(error.message)", retryable: false)
            }
        }
        for property in skill.parameters.properties where parameters[property.name] == nil {
            if let value = property.schema.defaultValue { parameters[property.name] = value }
        }
        state.addSecrets(in: .object(parameters), schema: skill.parameters)
        var schema = skill.parameters
        if let driver, let listSchema = schema.property(driver.parameter) {
            schema = Schema(
                type: .object, properties: schema.properties.map { $0.name == driver.parameter ? ($0.name, listSchema.withoutMaxItems()) : $0 },
                required: schema.required, additionalProperties: schema.additionalProperties)
        }
        let violations = SchemaValidator.validate(.object(parameters), against: schema)
        guard violations.isEmpty else {
            let text = violations.map { violation in
                violation.path.isEmpty ? violation.predicate : "parameter '\(violation.path.rendered())' \(violation.predicate)"
            }
            throw StepFailure(message: state.redactor.redact(text.joined(separator: "; ")), retryable: false)
        }
        return parameters
    }

    /// The calls of one set of parameters: one, or one per chunk of the driving list.
    func batchesOf(_ parameters: ValueObject, driver: BatchDriver?) -> [ValueObject] {
        guard let driver, case .array(let items)? = parameters[driver.parameter] else { return [parameters] }
        return stride(from: 0, to: items.count, by: driver.size).map { start in
            var chunk = parameters
            chunk[driver.parameter] = .array(Array(items[start..<min(start + driver.size, items.count)]))
            return chunk
        }
    }

    /// In a dry-run: the earlier steps this step's mappings read whose outputs are unknown (actions not run).
    func unknownReferences(of step: PlaybookStep) -> [String] {
        let known = state.read { $0.outputs }
        let values = step.with.map(\.value) + [step.foreach].compactMap { $0 }
        var unknown: [String] = []
        for value in values {
            for (template, _) in value.templates {
                for expression in template.expressions {
                    for reference in expression.references where reference.count > 1 && reference[0] == "steps" {
                        let name = reference[1]
                        if known[prefix + name] == nil, playbook.step(name) != nil, !unknown.contains(name) {
                            unknown.append(name)
                        }
                    }
                }
            }
        }
        return unknown
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
        let stepID = prefix + step.id
        let seconds = limit
        let endsRun = wholeRun
        let context = SkillContext(runID: runID, stepID: stepID, attempt: attempt) { done, total in
            onEvent(.stepProgress(step: stepID, completed: done, total: total))
        }
        // The skill's own result always decides: after a timeout (or an interrupt) the skill is
        // cancelled and awaited, so an effect it completed anyway is still recorded and can be undone.
        let (result, timedOut) = await Deadlines.shared.run(timeout: seconds) {
            try await skill.run(parameters, context: context)
        }
        switch result {
        case .success(let value): return value
        case .failure where timedOut: throw StepTimedOut(seconds: seconds, wholeRun: endsRun)
        case .failure(let error): throw error
        }
    }

    // MARK: Sub-playbooks

    func runSubPlaybook(_ name: String, step: PlaybookStep, index: Int, context: EvaluationContext) async throws -> Value? {
        guard let sub = playbook.subPlaybooks[name] else { throw StepFailure(message: "unknown playbook '\(name)'") }
        var values = ValueObject()
        for mapping in step.with {
            do { values[mapping.name] = try mapping.value.evaluate(in: context) } catch {
                throw StepFailure(message: "parameter '\(mapping.name)': \(error.message)", retryable: false)
            }
        }
        let inputs: ValueObject
        do {
            inputs = try InputResolver(now: engine.environment.now(), timeZone: engine.environment.timeZone).resolve(sub, values: values)
        } catch {
            throw StepFailure(message: "playbook '\(name)': " + error.diagnostics.map(\.message).joined(separator: "; "), retryable: false)
        }
        for input in sub.inputs {
            if let value = inputs[input.name] { state.addSecrets(in: value, schema: input.schema) }
        }
        onEvent(.stepStarted(step: prefix + step.id, skill: "playbook:\(name)", attempt: 1, parameters: state.redactor.redact(inputs)))
        let nested = RunExecution(
            engine: engine, playbook: sub, inputs: inputs, runID: runID, started: started, deadline: deadline,
            dryRun: dryRun, onEvent: onEvent, state: state, prefix: "\(prefix)\(step.id)/", topIndex: reportIndex(index))
        let (status, failure, _) = await nested.runSteps()
        if status != .succeeded && status != .succeededWithErrors {
            try Task.checkCancellation()
            throw StepFailure(message: "playbook '\(name)': \(failure ?? "failed")")
        }
        do {
            return .object(try nested.evaluateOutputs())
        } catch {
            throw StepFailure(message: "playbook '\(name)': \(error.message)")
        }
    }

    func evaluateOutputs() throws(ExpressionError) -> ValueObject {
        let context = evaluationContext()
        var outputs = ValueObject()
        for output in playbook.outputs {
            do {
                outputs[output.name] = try output.value.evaluate(in: context)
            } catch {
                throw ExpressionError(message: "output '\(output.name)': \(error.message)", offset: error.offset)
            }
        }
        return outputs
    }

    // MARK: Rollback

    /// Compensates completed calls in reverse order of completion; `false` when something stays done.
    func rollBack() async -> Bool {
        let units = state.read(\.completed)
        let execution = self
        // A fresh task: compensation must run even when the run itself was cancelled.
        return await Task { await execution.compensate(units) }.value
    }

    private func compensate(_ units: [CompletedUnit]) async -> Bool {
        var complete = true
        var failedSteps: Set<Int> = []
        var undoneSteps: Set<Int> = []
        for unit in units.reversed() {
            let descriptor = unit.skill.descriptor
            if unit.rollback == nil, descriptor.kind == .query { continue }
            guard unit.rollback != nil || descriptor.reversible else {
                complete = false
                failedSteps.insert(unit.stepIndex)
                let reason = "skill '\(descriptor.id)' cannot be undone"
                state.report(unit.stepIndex) { $0.compensationError = $0.compensationError ?? unit.describe(reason, in: $0) }
                onEvent(.compensationFailed(step: unit.stepID, error: reason))
                continue
            }
            onEvent(.compensationStarted(step: unit.stepID))
            if let error = await undo(unit) {
                complete = false
                failedSteps.insert(unit.stepIndex)
                let text = state.redactor.redact(error)
                state.report(unit.stepIndex) { $0.compensationError = $0.compensationError ?? unit.describe(text, in: $0) }
                onEvent(.compensationFailed(step: unit.stepID, error: text))
            } else {
                undoneSteps.insert(unit.stepIndex)
                onEvent(.compensationSucceeded(step: unit.stepID))
            }
        }
        state.update { contents in
            for index in undoneSteps.subtracting(failedSteps) { contents.reports[index].status = .compensated }
            for index in failedSteps { contents.reports[index].status = .notCompensated }
        }
        return complete
    }

    /// Undoes one call with retries: the step's rollback steps, or the skill's compensation. `nil` on success.
    private func undo(_ unit: CompletedUnit) async -> String? {
        var lastError = ""
        for attempt in 1...Engine.compensationAttempts {
            do {
                if let steps = unit.rollback {
                    try await runRollbackSteps(steps, of: unit)
                } else {
                    try await unit.skill.compensate(unit.call, context: SkillContext(runID: runID, stepID: unit.stepID, attempt: attempt))
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
            guard let skill = engine.registry[step.skill] else { throw StepFailure(message: "unknown skill '\(step.skill)'") }
            let parameters = try resolveParameters(step, skill.descriptor, context: context, driver: nil)
            _ = try await call(skill, parameters, step: step, attempt: 1)
        }
    }
}

/// Counts completed calls of one step, across concurrent tasks.
final class Progress: Sendable {
    let total: Int
    private let done = Mutex(0)

    init(total: Int) {
        self.total = total
    }

    func advance() -> Int {
        done.withLock {
            $0 += 1
            return $0
        }
    }
}
