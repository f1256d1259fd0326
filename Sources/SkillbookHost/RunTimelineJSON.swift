public import Foundation
public import SkillbookCore

/// A journaled run's records as JSON, one form for every front end (`runs show --json`, the
/// console's run API): times in ISO 8601 UTC with milliseconds, absent values as `null`. Values
/// come from the journal, where secrets are already masked.
public enum RunTimelineJSON {
    /// `2026-12-02T14:40:55.293Z`.
    public static func iso(_ date: Date) -> String {
        UTCTimestamp.milliseconds(date)
    }

    /// One attempt of one call; with `key`, the call's key (`step[2]#1`) follows its step.
    public static func call(_ call: JournalCall, key: Bool = false) -> ValueObject {
        var entry = ValueObject(minimumCapacity: 13)
        entry["step"] = .string(call.key.step.description)
        if key { entry["key"] = .string(call.key.description) }
        entry["iteration"] = call.key.iteration.map(Value.int) ?? .null
        entry["batch"] = call.key.batch.map(Value.int) ?? .null
        entry["skill"] = .string(call.skill)
        entry["attempt"] = .int(call.attempt)
        entry["parameters"] = .object(call.parameters)
        entry["output"] = call.output ?? .null
        entry["error"] = call.error.map(Value.string) ?? .null
        entry["started"] = .string(iso(call.started))
        entry["finished"] = call.finished.map { .string(iso($0)) } ?? .null
        entry["uncertain"] = .bool(call.isUncertain)
        entry["compensated"] = .bool(call.compensated)
        return entry
    }

    /// How one step ended.
    public static func step(_ step: JournalStep) -> ValueObject {
        [
            "step": .string(step.step), "status": .string(step.status.rawValue), "output": step.output ?? .null,
            "error": step.error.map(Value.string) ?? .null, "finished": .string(iso(step.finished)),
        ]
    }
}
