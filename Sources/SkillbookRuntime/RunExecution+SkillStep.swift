import Foundation
import SkillbookCore

/// Every call a skill step will make, worked out (and validated) before any of them runs.
struct CallPlan: Sendable {
    /// Parameters per foreach element (one entry without `foreach`), before batching.
    var iterations: [ValueObject] = []
    /// The calls of each iteration: one, or one per batch of the driving list.
    var batches: [[ValueObject]] = []
    /// The list parameter that drives batching, if the step batches.
    var driver: BatchDriver?
    /// Dry-run: earlier steps whose unknown outputs the mappings read (nothing was resolved then).
    var unknown: [String] = []
    /// Foreach items whose per-item `when` is false: not called, `{ skipped: true }` in the output.
    var skipped: Set<Int> = []

    /// Calls in all: batches over all iterations.
    var calls: Int { batches.reduce(0) { $0 + $1.count } }
    /// The first call's parameters, for events (before redaction).
    var firstParameters: ValueObject { iterations.first ?? ValueObject() }

    /// The parameters of a plan of one unbatched call, which then holds them no longer (so that
    /// the call can hand them over); `nil`, and the plan unchanged, for any other plan.
    mutating func takeSingleCall() -> ValueObject? {
        guard driver == nil, skipped.isEmpty, batches.count == 1, batches[0].count == 1 else { return nil }
        let parameters = batches[0][0]
        iterations = []
        batches = []
        return parameters
    }
}

extension RunExecution {
    /// A skill step: once, batched, or once per foreach element. `nil` output in a dry-run of an action.
    ///
    /// Once its calls are planned the step has read what it reads: `context` lets go of the
    /// outputs it held, and so does the run of those no later step reads.
    func runSkillStep(_ step: PlaybookStep, skill: any Skill, index: Int, context: inout EvaluationContext) async throws -> Value? {
        let descriptor = skill.descriptor
        let id = path(of: step)
        var plan = try planCalls(step, descriptor, context: context)
        context.steps = [:]
        releaseOutputs(after: index)

        if dryRun && (descriptor.kind == .action || !plan.unknown.isEmpty) {
            onEvent(.stepPlanned(plannedAction(step, descriptor, plan)))
            return nil
        }

        onEvent(
            .stepStarted(
                step: id, target: .skill(descriptor.id), attempt: 1, parameters: state.redactor.redact(plan.firstParameters)))
        if step.confirm ?? descriptor.confirm, !dryRun {
            try await confirm(step, skill, plan)
        }

        let locked = descriptor.kind == .action ? descriptor.resources : []
        if !locked.isEmpty {
            let onEvent = onEvent
            try await engine.resources.acquire(locked, for: runID, step: id.description) { wait in
                onEvent(.stepWaiting(step: id, wait: wait))
            }
        }
        defer {
            if !locked.isEmpty { state.releasing(Task { [resources = engine.resources, runID] in await resources.release(locked, for: runID) }) }
        }

        do {
            if !dryRun, step.foreach == nil, let parameters = plan.takeSingleCall() {
                return try await callWithRetry(
                    skill, consume parameters, step: step, index: index, key: CallKey(step: id), label: "",
                    progress: Progress(total: 1), handOver: true)
            }
            return try await runCalls(step, skill: skill, index: index, plan: plan)
        } catch let failure as StepFailure where dryRun && !Task.isCancelled && failure.kind == .skill {
            // A query may read what an action planned before it would create: not checkable yet.
            // Only a failure of the skill itself can be that; a parameter that does not validate,
            // a path outside the allowed folders, a timeout or a missing program is a real error.
            let pending = plannedBefore(step)
            guard !pending.isEmpty else { throw failure }
            var planned = plannedAction(step, descriptor, plan)
            planned.uncheckableUntil = pending
            planned.error = state.redactor.redact(failure.message)
            onEvent(.stepPlanned(planned))
            return nil
        }
    }

    /// In a dry-run: the steps before `step` that were only planned, in playbook order.
    private func plannedBefore(_ step: PlaybookStep) -> [String] {
        let planned = state.read(\.planned)
        return Array(playbook.steps.prefix { $0.id != step.id }.filter { planned.contains(prefix + $0.id) }.map(\.id))
    }

    /// The calls of a skill step whose plan is settled (see `runSkillStep`).
    private func runCalls(_ step: PlaybookStep, skill: any Skill, index: Int, plan: CallPlan) async throws -> Value? {
        let descriptor = skill.descriptor
        let id = path(of: step)
        let calls = plan.calls
        // Items are counted for a step that batches one list (with foreach, its calls are counted).
        let driver = step.foreach == nil ? plan.driver?.parameter : nil
        let items = driver.map { name in plan.iterations.first?[name]?.arrayValue?.count ?? 0 } ?? 0
        let progress = Progress(total: calls, driver: driver, totalItems: items)
        if calls > 1 { onEvent(.stepProgress(step: id, completed: 0, total: calls, unit: progress.unit(items: 0))) }
        if step.foreach == nil {
            let outputs = try await runBatches(plan.batches[0], step: step, skill: skill, index: index, progress: progress)
            if dryRun { onEvent(.stepPlanned(plannedQuery(step, descriptor, plan))) }
            return plan.driver == nil ? outputs[0] : Value.mergedBatches(outputs)
        }
        let results = try await forEach(
            plan.batches, step: step, skill: skill, index: index, driver: plan.driver, progress: progress, skipped: plan.skipped)
        return .array(results)
    }

    /// Resolves and validates the parameters of every call of the step (none in a dry-run that
    /// reads unknown outputs).
    func planCalls(_ step: PlaybookStep, _ descriptor: SkillDescriptor, context: EvaluationContext) throws -> CallPlan {
        var plan = CallPlan(driver: try Self.batchDriver(of: step, descriptor))
        if dryRun {
            plan.unknown = unknownReferences(of: step)
        }
        if plan.unknown.isEmpty {
            if let foreach = step.foreach {
                let list: Value
                do { list = try foreach.evaluate(in: context) } catch { throw StepFailure(message: "'foreach': \(error.message)", kind: .validation) }
                guard case .array(let items) = list else {
                    throw StepFailure(message: "'foreach' expects a list, got \(list.typeName)", kind: .validation)
                }
                for (position, item) in items.enumerated() {
                    let itemContext = evaluationContext(item: item, index: position)
                    if step.whenIsPerItem, let when = step.when, !(try Self.holds(when, in: itemContext, item: position)) {
                        plan.skipped.insert(position)
                        plan.iterations.append(ValueObject())
                        continue
                    }
                    plan.iterations.append(try resolveParameters(step, descriptor, context: itemContext, driver: plan.driver))
                }
            } else {
                plan.iterations = [try resolveParameters(step, descriptor, context: context, driver: plan.driver)]
            }
        }
        plan.batches = plan.iterations.enumerated().map { position, parameters in
            plan.skipped.contains(position) ? [] : batchesOf(parameters, driver: plan.driver)
        }
        return plan
    }

    /// A per-item `when`: true, false (null counts as false), or a failure for another value.
    static func holds(_ when: MappedValue, in context: EvaluationContext, item: Int) throws -> Bool {
        let value: Value
        do { value = try when.evaluate(in: context) } catch {
            throw StepFailure(message: "'when' of item \(item + 1) could not be evaluated: \(error.message)", kind: .validation)
        }
        guard let holds = value.conditionValue else {
            throw StepFailure(message: "'when' of item \(item + 1) must be a boolean, got \(value.typeName)", kind: .validation)
        }
        return holds
    }

    /// Asks the confirmer; throws a non-retryable `StepFailure` when it refuses.
    /// What every call of the step would touch, as its skill says (secrets masked), in call order.
    func preview(_ skill: any Skill, _ plan: CallPlan) async -> CallPreview? {
        var merged: CallPreview?
        for parameters in plan.batches.joined() {
            guard let one = await skill.preview(parameters) else { return nil }
            merged = CallPreview(noun: one.noun, items: (merged?.items ?? []) + one.items.map(state.redactor.redact))
        }
        return merged
    }

    func confirm(_ step: PlaybookStep, _ skill: any Skill, _ plan: CallPlan) async throws {
        let descriptor = skill.descriptor
        let id = path(of: step)
        let request = ConfirmationRequest(
            step: id, skill: descriptor.id, summary: descriptor.summary,
            parameters: state.redactor.redact(plan.firstParameters), calls: plan.calls, title: descriptor.title,
            touches: await preview(skill, plan))
        onEvent(.confirmationRequested(request))
        let answer = await engine.confirmer.confirm(request)
        onEvent(.confirmationAnswered(step: id, answer: answer))
        switch answer {
        case .approved: return
        case .declined(let reason):
            throw StepFailure(
                message: "step needs confirmation (\(descriptor.id) has confirm): \(reason)", kind: .declined, retryable: false)
        case .refused(let reason):
            throw StepFailure(
                message: "step needs confirmation (\(descriptor.id) has confirm): \(reason)", kind: .refused, retryable: false)
        case .awaitApproval:
            let now = engine.environment.now()
            throw ApprovalPause(
                request: ApprovalRequest(
                    runID: runID, step: id, key: CallKey(step: id, iteration: step.foreach == nil ? nil : 0, batch: plan.driver == nil ? nil : 0),
                    skill: descriptor.id, title: descriptor.title, parameters: request.parameters, touches: request.touches,
                    calls: plan.calls, requested: now, expires: now.addingTimeInterval(ApprovalTimeout.of(step, in: playbook))))
        }
    }
}
