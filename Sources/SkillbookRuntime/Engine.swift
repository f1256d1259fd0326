import Synchronization
public import Foundation
public import SkillbookCore

/// Runs checked playbooks: `when`, parameter mapping, run-time validation, batching driven by
/// `maxItems`, `foreach`, sub-playbooks, retries, timeouts, confirmation, resource locks,
/// `on_failure`, and saga-style rollback of every completed call in reverse order.
public struct Engine: Sendable {
    public let registry: SkillRegistry
    public let environment: EngineEnvironment
    public let confirmer: any Confirmer
    public let resources: any ResourceLocking
    /// The journal, when runs are recorded.
    public let recorder: (any RunRecorder)?

    /// Attempts per compensation before giving up on it.
    public static let compensationAttempts = 3

    public init(
        registry: SkillRegistry, environment: EngineEnvironment = .live, confirmer: any Confirmer = RefusingConfirmer(),
        resources: any ResourceLocking = ResourceLocks.shared, recorder: (any RunRecorder)? = nil
    ) {
        self.registry = registry
        self.environment = environment
        self.confirmer = confirmer
        self.resources = resources
        self.recorder = recorder
    }

    /// How a run is started: dry or real, from where, and whether it continues an earlier one.
    public struct RunOptions: Sendable {
        public var dryRun: Bool
        /// `cli`, `schedule` or `agent`, for the journal.
        public var trigger: String
        /// The playbook's source text, for the journal (so a resume can detect a changed file).
        public var source: String
        /// Continue this earlier run instead of starting a new one.
        public var resume: (runID: String, plan: ResumePlan)?
        /// The fire's scheduled instant, for a run with trigger `schedule`.
        public var scheduledAt: Date?

        public init(
            dryRun: Bool = false, trigger: String = "cli", source: String = "",
            resume: (runID: String, plan: ResumePlan)? = nil, scheduledAt: Date? = nil
        ) {
            self.scheduledAt = scheduledAt
            self.dryRun = dryRun
            self.trigger = trigger
            self.source = source
            self.resume = resume
        }
    }

    /// Runs a playbook whose inputs are already resolved (see `InputResolver`).
    ///
    /// Never throws: every failure, timeout and interruption ends in a `RunResult`. Cancelling
    /// the calling task interrupts the run; completed calls are then compensated as on failure.
    /// With `dryRun`, query skills run for real and actions are only planned.
    public func run(
        _ playbook: Playbook, inputs: ValueObject, dryRun: Bool = false, onEvent: @escaping RunEventHandler = { _ in }
    ) async -> RunResult {
        await run(playbook, inputs: inputs, options: RunOptions(dryRun: dryRun), onEvent: onEvent)
    }

    public func run(
        _ playbook: Playbook, inputs: ValueObject, options: RunOptions, onEvent: @escaping RunEventHandler = { _ in }
    ) async -> RunResult {
        let runID = options.resume?.runID ?? environment.makeRunID()
        let started = environment.now()
        let state = RunState(reports: playbook.steps.map { StepReport(id: $0.id, skill: $0.playbook.map { "playbook:\($0)" } ?? $0.skill) })
        for input in playbook.inputs {
            if let value = inputs[input.name] { state.addSecrets(in: value, schema: input.schema) }
        }
        let execution = RunExecution(
            engine: self, playbook: playbook, inputs: inputs, runID: runID, started: started,
            deadline: playbook.timeout.map { started.addingTimeInterval($0) }, dryRun: options.dryRun, onEvent: onEvent,
            state: state, prefix: "", topIndex: nil, resume: options.resume.map { ResumeIndex($0.plan) })
        onEvent(.runStarted(runID: runID, playbook: playbook.name, inputs: state.redactor.redact(inputs)))
        if let recorder, !options.dryRun, options.resume == nil {
            do {
                try await recorder.runStarted(
                    RunRecord(
                        runID: runID, playbook: playbook.name, source: options.source,
                        sourceHash: SourceHash.of(options.source), inputs: state.redactor.redact(inputs),
                        trigger: options.trigger, started: started, dryRun: options.dryRun,
                        scheduledAt: options.scheduledAt))
            } catch {
                return await finish(
                    execution, status: .failed, failure: "the run could not be recorded: \(error)", interrupted: false,
                    onEvent: onEvent)
            }
        }
        if let plan = options.resume?.plan { execution.restore(plan) }

        var (status, failure, interrupted) = await execution.runSteps()
        if status == .rolledBack, !(await execution.rollBack()) {
            status = .rollbackIncomplete
        }
        return await finish(execution, status: status, failure: failure, interrupted: interrupted, onEvent: onEvent)
    }

    /// Undoes the completed calls of an earlier run whose process ended (see `skillbook rollback`).
    public func rollBack(
        _ playbook: Playbook, runID: String, completed: [RecordedCall], onEvent: @escaping RunEventHandler = { _ in }
    ) async -> RunResult {
        let state = RunState(reports: playbook.steps.map { StepReport(id: $0.id, skill: $0.playbook.map { "playbook:\($0)" } ?? $0.skill) })
        let execution = RunExecution(
            engine: self, playbook: playbook, inputs: [:], runID: runID, started: environment.now(), deadline: nil,
            dryRun: false, onEvent: onEvent, state: state, prefix: "", topIndex: nil, resume: nil)
        execution.restore(ResumePlan(completed: completed))
        let status: RunStatus = await execution.rollBack() ? .rolledBack : .rollbackIncomplete
        return await finish(execution, status: status, failure: nil, interrupted: false, onEvent: onEvent)
    }

    private func finish(
        _ execution: RunExecution, status: RunStatus, failure: String?, interrupted: Bool,
        onEvent: RunEventHandler
    ) async -> RunResult {
        var failure = failure
        var outputs = ValueObject()
        if status == .succeeded || status == .succeededWithErrors {
            do {
                outputs = try execution.evaluateOutputs()
            } catch {
                failure = failure ?? error.message
            }
        }
        let redactor = execution.state.redactor
        let result = RunResult(
            runID: execution.runID, playbook: execution.playbook.name, status: status, interrupted: interrupted,
            outputs: redactor.redact(outputs), steps: execution.state.read(\.reports), error: failure.map(redactor.redact),
            started: execution.started, finished: environment.now())
        if !execution.dryRun { try? await recorder?.runFinished(result) }
        onEvent(.runFinished(result))
        return result
    }
}

/// A resume plan indexed for lookups during the run.
struct ResumeIndex: Sendable {
    let plan: ResumePlan
    let completed: [CallKey: RecordedCall]

    init(_ plan: ResumePlan) {
        self.plan = plan
        var completed: [CallKey: RecordedCall] = [:]
        for call in plan.completed { completed[call.key] = call }
        self.completed = completed
    }
}

/// Some foreach iterations failed under `on_failure: continue`: the step's output has null in their places.
struct PartialFailure: Error {
    var output: Value
    var message: String
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
    /// What an earlier process of this run already did.
    let resume: ResumeIndex?

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

    // MARK: Resume

    /// Takes over what an earlier process of this run did: finished steps' outputs and every
    /// completed call (in order of completion), so rollback covers them too.
    func restore(_ plan: ResumePlan) {
        state.update { contents in
            for (id, finished) in plan.finishedSteps {
                if let output = finished.output { contents.outputs[id] = output }
                if let index = playbook.steps.firstIndex(where: { $0.id == id }) {
                    contents.reports[index].status = finished.status
                    contents.reports[index].output = finished.output.map(contents.redactor.redact)
                }
            }
        }
        for recorded in plan.completed {
            guard let unit = unit(for: recorded) else { continue }
            state.complete(unit)
        }
    }

    /// The step a call key names, with the top-level index and the (sub-)playbook it is in.
    func locate(_ path: String) -> (index: Int, step: PlaybookStep, playbook: Playbook)? {
        let parts = path.split(separator: "/").map(String.init)
        guard let first = parts.first, let index = playbook.steps.firstIndex(where: { $0.id == first }) else { return nil }
        var current = playbook
        var step = playbook.steps[index]
        for part in parts.dropFirst() {
            guard let name = step.playbook, let sub = current.subPlaybooks[name], let next = sub.step(part) else { return nil }
            current = sub
            step = next
        }
        return (index, step, current)
    }

    func unit(for recorded: RecordedCall) -> CompletedUnit? {
        guard let skill = engine.registry[recorded.skill], let (index, step, owner) = locate(recorded.key.step) else { return nil }
        return CompletedUnit(
            stepIndex: index, stepID: recorded.key.step, key: recorded.key, skill: skill, call: recorded.call,
            rollback: step.rollback, playbook: owner)
    }

    func reportIndex(_ index: Int) -> Int { topIndex ?? index }

    /// Runs one step; throws `StepFailure` (already reported) when it fails.
    func runStep(_ step: PlaybookStep, index: Int) async throws {
        let id = prefix + step.id
        if resume?.plan.finishedSteps[id] != nil {
            onEvent(.stepSkipped(step: id, reason: "finished before the run was interrupted"))
            return
        }
        var context = evaluationContext()
        let started = engine.environment.now()
        func fail(_ message: String, continuing: Bool? = nil) async -> StepFailure {
            let text = state.redactor.redact(message)
            let policy = step.onFailure ?? playbook.onFailure
            if !isNested {
                state.report(index) {
                    $0.status = .failed
                    $0.error = text
                    $0.duration = engine.environment.now().timeIntervalSince(started)
                }
            }
            await record(step: id, .failed, output: nil, error: text)
            onEvent(.stepFailed(step: id, error: text, willContinue: continuing ?? (policy == .continue && !Task.isCancelled)))
            return StepFailure(message: "step '\(id)' failed: \(text)")
        }

        // A `when` that uses `item` or `index` is decided per foreach item, in `runSkillStep`.
        if let when = step.when, !step.whenIsPerItem {
            let value: Value
            do { value = try when.evaluate(in: context) } catch {
                throw await fail("'when' could not be evaluated: \(error.message)")
            }
            guard let holds = value.conditionValue else {
                throw await fail("'when' must be a boolean, got \(value.typeName)")
            }
            if !holds {
                if !isNested { state.report(index) { $0.status = .skipped } }
                await record(step: id, .skipped, output: nil, error: nil)
                onEvent(.stepSkipped(step: id, reason: "'when' is false"))
                return
            }
        }

        var output: Value?
        var partial: String?
        do {
            if let name = step.playbook {
                output = try await runSubPlaybook(name, step: step, index: index, context: context)
            } else {
                guard let skill = engine.registry[step.skill] else { throw StepFailure(message: "unknown skill '\(step.skill)'") }
                output = try await runSkillStep(step, skill: skill, index: index, context: context)
            }
        } catch let failure as PartialFailure {
            output = failure.output
            partial = failure.message
        } catch let failure as StepFailure {
            throw await fail(failure.message)
        } catch let timeout as StepTimedOut {
            throw await fail(describe(timeout))
        } catch is CancellationError {
            throw await fail("interrupted while step '\(id)' was running", continuing: false)
        }

        // Let go of this step's view of the outputs first, so adding its own does not copy them all.
        context.steps = [:]
        let duration = engine.environment.now().timeIntervalSince(started)
        let redacted = output.map(state.redactor.redact)
        if let partial {
            state.update { $0.outputs[id] = output }
            let failure = await fail(partial)
            await record(step: id, .failed, output: output, error: partial)
            throw failure
        }
        state.update { contents in
            if let output { contents.outputs[id] = output }
            if !isNested {
                contents.reports[index].status = .succeeded
                contents.reports[index].output = redacted
                contents.reports[index].duration = duration
            }
        }
        if output != nil || !dryRun { await record(step: id, .succeeded, output: output, error: nil) }
        onEvent(.stepSucceeded(step: id, output: redacted ?? .null, duration: duration))
    }

    /// Writes a step's end to the journal (never in a dry-run), secrets masked. A journal failure
    /// here is not the step's failure: the calls themselves are already recorded.
    func record(step: String, _ status: StepStatus, output: Value?, error: String?) async {
        guard !dryRun, let recorder = engine.recorder else { return }
        let redactor = state.redactor
        let kept = output.map(redactor.redact)
        try? await recorder.stepFinished(
            runID: runID, step: step, status: status, output: kept, outputMasked: kept != output, error: error.map(redactor.redact))
    }

    /// A skill step: once, batched, or once per foreach element. `nil` output in a dry-run of an action.
    func runSkillStep(_ step: PlaybookStep, skill: any Skill, index: Int, context: EvaluationContext) async throws -> Value? {
        let descriptor = skill.descriptor
        let id = prefix + step.id
        let driver = try? step.batchDriver(for: descriptor).get()

        // Work out every call first: parameters are validated before anything runs.
        var iterations: [ValueObject] = []
        var unknown: [String] = []
        // Foreach items whose `when` is false: not called, `{ skipped: true }` in the output.
        var skipped: Set<Int> = []
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
                    let itemContext = evaluationContext(item: item, index: position)
                    if step.whenIsPerItem, let when = step.when, !(try Self.holds(when, in: itemContext, item: position)) {
                        skipped.insert(position)
                        iterations.append(ValueObject())
                        continue
                    }
                    iterations.append(try resolveParameters(step, descriptor, context: itemContext, driver: driver))
                }
            } else {
                iterations = [try resolveParameters(step, descriptor, context: context, driver: driver)]
            }
        }
        let batches = iterations.enumerated().map { skipped.contains($0.offset) ? [] : batchesOf($0.element, driver: driver) }
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
        if !locked.isEmpty {
            let onEvent = onEvent
            try await engine.resources.acquire(locked, for: runID, step: id) { wait in onEvent(.stepWaiting(step: id, wait: wait)) }
        }
        defer { if !locked.isEmpty { Task { [resources = engine.resources, runID] in await resources.release(locked, for: runID) } } }

        let progress = Progress(total: calls)
        if calls > 1 { onEvent(.stepProgress(step: id, completed: 0, total: calls)) }
        if step.foreach == nil {
            let outputs = try await runBatches(batches[0], step: step, skill: skill, index: index, progress: progress)
            if dryRun { onEvent(.stepPlanned(plannedQuery(step, descriptor, iterations, calls, driver))) }
            return driver == nil ? outputs[0] : Value.mergedBatches(outputs)
        }
        let results = try await forEach(
            batches, step: step, skill: skill, index: index, driver: driver, progress: progress, skipped: skipped)
        return .array(results)
    }

    /// A per-item `when`: true, false (null counts as false), or a failure for another value.
    static func holds(_ when: MappedValue, in context: EvaluationContext, item: Int) throws -> Bool {
        let value: Value
        do { value = try when.evaluate(in: context) } catch {
            throw StepFailure(message: "'when' of item \(item + 1) could not be evaluated: \(error.message)")
        }
        guard let holds = value.conditionValue else {
            throw StepFailure(message: "'when' of item \(item + 1) must be a boolean, got \(value.typeName)")
        }
        return holds
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
        progress: Progress, skipped: Set<Int> = []
    ) async throws -> [Value] {
        let continuing = (step.onFailure ?? playbook.onFailure) == .continue
        var results = [Value](repeating: .null, count: iterations.count)
        for position in skipped { results[position] = ["skipped": true] }
        var failures: [(Int, String)] = []
        try await withThrowingTaskGroup(of: (Int, Result<Value, StepFailure>).self) { group in
            var next = 0
            var running = 0
            var stopped = false
            func passSkipped() {
                while next < iterations.count, skipped.contains(next) { next += 1 }
            }
            passSkipped()
            func launch() {
                let position = next
                let batches = iterations[position]
                next += 1
                passSkipped()
                running += 1
                group.addTask {
                    do {
                        let outputs = try await runBatches(
                            batches, step: step, skill: skill, index: index, progress: progress,
                            iteration: position, iterations: iterations.count)
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
            let message = sorted[0].1 + (sorted.count > 1 ? " (and \(sorted.count - 1) more failed)" : "")
            if continuing { throw PartialFailure(output: .array(results), message: message) }
            throw StepFailure(message: message)
        }
        return results
    }

    /// Runs the batches of one call in order (or `batch.concurrency` at once, with `batch.pause`).
    func runBatches(
        _ batches: [ValueObject], step: PlaybookStep, skill: any Skill, index: Int, progress: Progress,
        iteration: Int? = nil, iterations: Int = 1
    ) async throws -> [Value] {
        let concurrency = step.batch?.concurrency ?? 1
        let pause = step.batch?.pause ?? 0
        let batched = (try? step.batchDriver(for: skill.descriptor).get()) != nil
        func key(_ number: Int) -> CallKey {
            CallKey(step: prefix + step.id, iteration: iteration, batch: batched ? number : nil)
        }
        func label(_ number: Int) -> String {
            [
                iteration.map { "item \($0 + 1) of \(iterations)" },
                batches.count > 1 ? "batch \(number + 1) of \(batches.count)" : nil,
            ].compactMap { $0 }.joined(separator: ", ")
        }
        // The pause spaces out calls the skill really gets: none before a batch a resume reuses.
        func isCalled(_ number: Int) -> Bool {
            guard let resume else { return true }
            let callKey = key(number)
            return resume.completed[callKey] == nil && resume.plan.uncertain[callKey] != .skip
        }
        if concurrency <= 1 {
            var outputs: [Value] = []
            outputs.reserveCapacity(batches.count)
            var called = false
            for (number, parameters) in batches.enumerated() {
                let calling = isCalled(number)
                if calling, called, pause > 0 { try await engine.environment.sleep(pause) }
                called = called || calling
                outputs.append(
                    try await callWithRetry(
                        skill, parameters, step: step, index: index, key: key(number), label: label(number), progress: progress))
            }
            return outputs
        }
        var outputs = [Value?](repeating: nil, count: batches.count)
        try await withThrowingTaskGroup(of: (Int, Value).self) { group in
            var next = 0
            func launch() {
                let number = next
                next += 1
                let callKey = key(number)
                let where_ = label(number)
                group.addTask {
                    (
                        number,
                        try await callWithRetry(
                            skill, batches[number], step: step, index: index, key: callKey, label: where_, progress: progress)
                    )
                }
            }
            while next < batches.count && next < concurrency { launch() }
            while let (number, output) = try await group.next() {
                outputs[number] = output
                if next < batches.count {
                    if pause > 0, isCalled(next) { try await engine.environment.sleep(pause) }
                    launch()
                }
            }
        }
        return outputs.map { $0 ?? .null }
    }

    /// One call with the step's retries, journaled before and after; recorded for rollback when it
    /// completes. A resumed run reuses calls that completed before instead of making them again.
    func callWithRetry(
        _ skill: any Skill, _ parameters: ValueObject, step: PlaybookStep, index: Int, key: CallKey, label: String,
        progress: Progress
    ) async throws -> Value {
        let descriptor = skill.descriptor
        let id = prefix + step.id
        if let resume {
            if let recorded = resume.completed[key] {
                advance(progress, id)
                return recorded.call.output
            }
            if resume.plan.uncertain[key] == .skip {
                advance(progress, id)
                return .null
            }
        }
        var attempt = 0
        while true {
            attempt += 1
            try Task.checkCancellation()
            let record = CallRecord(
                runID: runID, key: key, skill: descriptor.id, attempt: attempt,
                parameters: state.redactor.redact(parameters), started: engine.environment.now(),
                hasEffects: descriptor.kind != .query)
            if let recorder = engine.recorder {
                do { try await recorder.callStarted(record) } catch {
                    throw StepFailure(message: "the journal could not record the call, so it was not made: \(error)", retryable: false)
                }
            }
            do {
                let output = try await call(skill, parameters, step: step, attempt: attempt)
                if let first = SchemaValidator.validate(output, against: descriptor.output).first {
                    throw StepFailure(message: "skill '\(descriptor.id)' returned an output that breaks its schema: \(first)")
                }
                // A value the skill's output schema marks secret is masked from now on.
                state.addSecrets(in: output, schema: descriptor.output)
                if let recorder = engine.recorder {
                    let kept = state.redactor.redact(output)
                    var finished = record
                    finished.outputMasked = kept != output
                    try? await recorder.callFinished(finished, output: kept, error: nil, finished: engine.environment.now())
                }
                state.complete(
                    CompletedUnit(
                        stepIndex: reportIndex(index), stepID: id, key: key, skill: skill,
                        call: CompletedCall(parameters: parameters, output: output), rollback: step.rollback,
                        playbook: playbook))
                if !isNested { state.report(index) { $0.attempts = max($0.attempts, attempt) } }
                advance(progress, id)
                return output
            } catch {
                let message = (label.isEmpty ? "" : "\(label): ") + describe(error)
                try? await engine.recorder?.callFinished(
                    record, output: nil, error: state.redactor.redact(message), finished: engine.environment.now())
                if Task.isCancelled { throw CancellationError() }
                if let timeout = error as? StepTimedOut, timeout.wholeRun { throw error }
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

    func advance(_ progress: Progress, _ id: String) {
        let done = progress.advance()
        if progress.total > 1 { onEvent(.stepProgress(step: id, completed: done, total: progress.total)) }
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
        let context = SkillContext(
            runID: runID, stepID: stepID, attempt: attempt, timeZone: engine.environment.timeZone
        ) { done, total in
            onEvent(.stepProgress(step: stepID, completed: done, total: total))
        }
        // The skill's own result always decides: after a timeout (or an interrupt) the skill is
        // cancelled and awaited, so an effect it completed anyway is still recorded and can be undone.
        let (result, timedOut) = await Deadlines.shared.run(timeout: seconds) {
            try await skill.run(parameters, context: context)
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
            dryRun: dryRun, onEvent: onEvent, state: state, prefix: "\(prefix)\(step.id)/", topIndex: reportIndex(index),
            resume: resume)
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

    func recordCompensation(_ unit: CompletedUnit, error: String?) async {
        try? await engine.recorder?.compensationFinished(
            runID: runID, key: unit.key, step: unit.stepID, error: error, finished: engine.environment.now())
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
                        runID: runID, stepID: unit.stepID, attempt: attempt, timeZone: engine.environment.timeZone)
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
