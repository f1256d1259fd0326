public import SkillbookCore

/// The `report` column of a run: each step's final status, attempts, error, failure kind,
/// compensation error and duration; the same entries in every journal (SQLite, PostgreSQL).
public enum RunReport {
    /// Entries of steps the result did not run (`not_run`) are taken from `earlier` when there.
    public static func encode(_ result: RunResult, keeping earlier: [String: Value]) -> Value {
        .array(
            result.steps.map { step in
                if step.status == .notRun, let kept = earlier[step.id] { return kept }
                var entry = ValueObject()
                entry["id"] = .string(step.id)
                entry["skill"] = .string(step.skill)
                entry["status"] = .string(step.status.rawValue)
                entry["attempts"] = .int(step.attempts)
                if let error = step.error { entry["error"] = .string(error) }
                if let kind = step.failureKind { entry["failure_kind"] = .string(kind.rawValue) }
                if let error = step.compensationError { entry["compensation_error"] = .string(error) }
                entry["duration"] = .double(step.duration)
                return .object(entry)
            })
    }
}
