import SkillbookCore

extension RunExecution {
    func runSubPlaybook(_ name: String, step: PlaybookStep, index: Int, context: EvaluationContext) async throws -> Value? {
        guard let sub = playbook.subPlaybooks[name] else { throw StepFailure(message: "unknown playbook '\(name)'", kind: .unavailable) }
        var values = ValueObject()
        for mapping in step.with {
            do { values[mapping.name] = try mapping.value.evaluate(in: context) } catch {
                throw StepFailure(message: "parameter '\(mapping.name)': \(error.message)", kind: .validation, retryable: false)
            }
        }
        // An input that says `from:` and is not mapped takes the run's value of that secret.
        for input in sub.inputs where values[input.name] == nil {
            if let secret = input.schema.secretFrom, let value = state.secretValues[secret] { values[input.name] = .string(value) }
        }
        let inputs: ValueObject
        do {
            inputs = try InputResolver(now: engine.environment.now(), timeZone: engine.environment.timeZone).resolve(sub, values: values)
        } catch {
            throw StepFailure(message: "playbook '\(name)': " + error.diagnostics.map(\.message).joined(separator: "; "),
                kind: .validation, retryable: false)
        }
        for input in sub.inputs {
            if let value = inputs[input.name] { state.addSecrets(in: value, schema: input.schema) }
        }
        onEvent(.stepStarted(step: path(of: step), target: .playbook(name), attempt: 1, parameters: state.redactor.redact(inputs)))
        let nested = RunExecution(
            engine: engine, playbook: sub, inputs: inputs, runID: runID, started: started, deadline: deadline,
            dryRun: dryRun, onEvent: onEvent, state: state, scope: path(of: step), topIndex: reportIndex(index),
            resume: resume, keepsStepOutputs: keepsStepOutputs)
        let outcome = await nested.runSteps()
        if let pause = outcome.pause { throw ApprovalPause(request: pause) }
        if outcome.status != .succeeded && outcome.status != .succeededWithErrors {
            try Task.checkCancellation()
            throw StepFailure(message: "playbook '\(name)': \(outcome.failure ?? "failed")", kind: outcome.kind ?? .skill)
        }
        do {
            return .object(try nested.evaluateOutputs())
        } catch {
            throw StepFailure(message: "playbook '\(name)': \(error.message)", kind: .validation)
        }
    }
}
