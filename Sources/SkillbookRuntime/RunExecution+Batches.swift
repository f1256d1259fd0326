import SkillbookCore

/// What one of concurrently running batches returned.
struct BatchOutput: Sendable {
    /// 0-based batch.
    var number: Int
    var output: Value
}

extension RunExecution {
    /// The list a step's calls are batched over, if any. The checker refuses a step whose
    /// batching does not fit its skill; a playbook run unchecked against this skill fails the step
    /// here (a validation failure), rather than running unbatched as if nothing were wrong.
    static func batchDriver(of step: PlaybookStep, _ descriptor: SkillDescriptor) throws -> BatchDriver? {
        switch step.batchDriver(for: descriptor) {
        case .success(let driver): return driver
        case .failure(let diagnostic): throw StepFailure(message: diagnostic.message, kind: .validation, retryable: false)
        }
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

    /// Runs the batches of one call in order (or `batch.concurrency` at once, with `batch.pause`).
    func runBatches(
        _ batches: [ValueObject], step: PlaybookStep, skill: any Skill, index: Int, progress: Progress,
        iteration: Int? = nil, iterations: Int = 1
    ) async throws -> [Value] {
        let concurrency = step.batch?.concurrency ?? 1
        let pause = step.batch?.pause ?? 0
        let batched = try Self.batchDriver(of: step, skill.descriptor) != nil
        let stepKey = path(of: step)
        func key(_ number: Int) -> CallKey {
            CallKey(step: stepKey, iteration: iteration, batch: batched ? number : nil)
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
        try await withThrowingTaskGroup(of: BatchOutput.self) { group in
            var next = 0
            func launch() {
                let number = next
                next += 1
                let callKey = key(number)
                let where_ = label(number)
                group.addTask {
                    BatchOutput(
                        number: number,
                        output: try await callWithRetry(
                            skill, batches[number], step: step, index: index, key: callKey, label: where_, progress: progress))
                }
            }
            while next < batches.count && next < concurrency { launch() }
            while let done = try await group.next() {
                outputs[done.number] = done.output
                if next < batches.count {
                    if pause > 0, isCalled(next) { try await engine.environment.sleep(pause) }
                    launch()
                }
            }
        }
        return outputs.map { $0 ?? .null }
    }
}
