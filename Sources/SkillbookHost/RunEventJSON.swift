import Foundation
public import SkillbookCore
public import SkillbookRuntime

/// The JSON form of run events (`skillbook run --json`, a daemon's log, an MCP progress note): one
/// object per event, each with a `type`; `run.finished` carries the status, outputs and each step.
public enum RunEventJSON {
    public static func object(_ event: RunEvent) -> ValueObject {
        var object = ValueObject()
        object["type"] = .string(event.type)
        switch event {
        case .runStarted(let runID, let playbook, let inputs):
            // A dry run has no id (nothing is recorded): it says so instead.
            if runID.isEmpty { object["dry_run"] = true } else { object["run"] = .string(runID) }
            object["playbook"] = .string(playbook)
            object["inputs"] = .object(inputs)
        case .stepStarted(let step, let skill, let attempt, let parameters):
            object["step"] = .string(step.description)
            object["skill"] = .string(skill.description)
            object["attempt"] = .int(attempt)
            object["parameters"] = .object(parameters)
        case .stepProgress(let step, let completed, let total, let unit):
            object["step"] = .string(step.description)
            object["completed"] = .int(completed)
            object["total"] = .int(total)
            switch unit {
            case .batches(let items, let of):
                object["unit"] = "batch"
                object["items"] = .int(items)
                object["total_items"] = .int(of)
            case .iterations: object["unit"] = "call"
            case .skill: object["unit"] = "item"
            }
        case .stepSkipped(let step, let reason):
            object["step"] = .string(step.description)
            object["reason"] = .string(reason)
        case .stepRetrying(let step, let attempt, let error, let delay):
            object["step"] = .string(step.description)
            object["attempt"] = .int(attempt)
            object["error"] = .string(error)
            object["delay"] = .double(delay)
        case .stepSucceeded(let step, let output, let duration):
            object["step"] = .string(step.description)
            object["output"] = output
            object["duration"] = .double(rounded(duration))
        case .stepFailed(let step, let error, let kind, let willContinue):
            object["step"] = .string(step.description)
            object["error"] = .string(error)
            object["kind"] = .string(kind.rawValue)
            object["continue"] = .bool(willContinue)
        case .confirmationRequested(let request):
            object["step"] = .string(request.step.description)
            object["skill"] = .string(request.skill)
            object["parameters"] = .object(request.parameters)
            object["calls"] = .int(request.calls)
        case .stepWaiting(let step, let wait):
            object["step"] = .string(step.description)
            object["resources"] = .array(wait.resources.map(Value.string))
            object["held_by"] = wait.heldBy.map(Value.string) ?? .null
        case .confirmationAnswered(let step, let answer):
            object["step"] = .string(step.description)
            object["approved"] = .bool(answer.isApproved)
        case .stepPlanned(let plan):
            object["step"] = .string(plan.step.description)
            object["skill"] = .string(plan.skill)
            object["kind"] = .string(plan.kind.rawValue)
            object["ran"] = .bool(plan.ran)
            object["parameters"] = plan.parameters.map(Value.object) ?? .null
            if !plan.unknownFrom.isEmpty { object["unknown_from"] = .array(plan.unknownFrom.map(Value.string)) }
            if !plan.uncheckableUntil.isEmpty {
                object["not_checkable_until"] = .array(plan.uncheckableUntil.map(Value.string))
                object["error"] = plan.error.map(Value.string) ?? .null
            }
            if let iterations = plan.iterations { object["iterations"] = .int(iterations) }
            if let batches = plan.batches { object["batches"] = .int(batches) }
            object["confirm"] = .bool(plan.confirm)
            object["reversible"] = .bool(plan.reversible)
        case .rollbackStarted:
            break
        case .compensationStarted(let step), .compensationSucceeded(let step):
            object["step"] = .string(step.description)
        case .compensationFailed(let step, let error):
            object["step"] = .string(step.description)
            object["error"] = .string(error)
        case .warning(let warning):
            if let step = warning.step { object["step"] = .string(step.description) }
            object["message"] = .string(warning.message)
        case .runWaiting(let request):
            for (key, value) in ApprovalJSON.request(request) { object[key] = value }
        case .runFinished(let result):
            return finished(result)
        }
        return object
    }

    public static func finished(_ result: RunResult) -> ValueObject {
        var object = ValueObject()
        object["type"] = "run.finished"
        if result.isDryRun { object["dry_run"] = true } else { object["run"] = .string(result.runID) }
        object["playbook"] = .string(result.playbook)
        object["status"] = .string(result.status.rawValue)
        object["interrupted"] = .bool(result.interrupted)
        object["outputs"] = .object(result.outputs)
        if !result.unknownOutputs.isEmpty { object["unknown_outputs"] = .array(result.unknownOutputs.map(Value.string)) }
        object["steps"] = .array(
            result.steps.map { step in
                var entry = ValueObject()
                entry["id"] = .string(step.id)
                entry["skill"] = .string(step.skill)
                entry["status"] = .string(step.status.rawValue)
                entry["attempts"] = .int(step.attempts)
                if let error = step.error { entry["error"] = .string(error) }
                if let kind = step.failureKind { entry["kind"] = .string(kind.rawValue) }
                if let error = step.compensationError { entry["compensation_error"] = .string(error) }
                return .object(entry)
            })
        if let error = result.error { object["error"] = .string(error) }
        if let kind = result.failureKind { object["kind"] = .string(kind.rawValue) }
        if let approval = result.approval { object["waits_at"] = .string(approval.step.description) }
        object["duration"] = .double(rounded(result.finished.timeIntervalSince(result.started)))
        return object
    }

    /// One event as a line of compact JSON (without the newline).
    public static func line(_ event: RunEvent) -> String {
        JSONText.encode(.object(object(event)))
    }

    /// Seconds rounded to the millisecond, as every duration in the JSON form.
    public static func rounded(_ seconds: Double) -> Double {
        (seconds * 1000).rounded() / 1000
    }
}
