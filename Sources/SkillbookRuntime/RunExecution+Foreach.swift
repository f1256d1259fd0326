import SkillbookCore

/// How one foreach element ended: its output, or the failure of its calls.
struct IterationResult: Sendable {
    /// 0-based element.
    var position: Int
    var result: Result<Value, StepFailure>
}

extension RunExecution {
    /// Runs foreach iterations, `concurrency` at a time; `on_failure: continue` applies per iteration.
    func forEach(
        _ iterations: [[ValueObject]], step: PlaybookStep, skill: any Skill, index: Int, driver: BatchDriver?,
        progress: Progress, skipped: Set<Int> = []
    ) async throws -> [Value] {
        let continuing = (step.onFailure ?? playbook.onFailure) == .continue
        var results = [Value](repeating: .null, count: iterations.count)
        for position in skipped { results[position] = ["skipped": true] }
        var failures: [(position: Int, failure: StepFailure)] = []
        try await withThrowingTaskGroup(of: IterationResult.self) { group in
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
                        let output = driver == nil ? outputs[0] : Value.mergedBatches(outputs)
                        return IterationResult(position: position, result: .success(output))
                    } catch let failure as StepFailure {
                        return IterationResult(position: position, result: .failure(failure))
                    } catch let timeout as StepTimedOut {
                        return IterationResult(
                            position: position, result: .failure(StepFailure(message: describe(timeout), kind: .timeout)))
                    }
                }
            }
            while next < iterations.count && running < step.concurrency { launch() }
            while let done = try await group.next() {
                running -= 1
                switch done.result {
                case .success(let value): results[done.position] = value
                case .failure(let failure):
                    failures.append((done.position, failure))
                    if !continuing { stopped = true }
                }
                if !stopped && !Task.isCancelled && next < iterations.count { launch() }
            }
        }
        try Task.checkCancellation()
        guard failures.isEmpty else {
            let sorted = failures.sorted { $0.position < $1.position }
            let first = sorted[0].failure
            let message = first.message + (sorted.count > 1 ? " (and \(sorted.count - 1) more failed)" : "")
            if continuing { throw PartialFailure(output: .array(results), message: message, kind: first.kind) }
            throw StepFailure(message: message, kind: first.kind)
        }
        return results
    }
}
