public import Foundation
public import SkillbookCore

/// The JSON form of approval requests, one for every front end: `run.waiting` events,
/// `skillbook approvals --json`, the console's `/api/v1/approvals` and an MCP call whose run waits.
public enum ApprovalJSON {
    /// `{run, step, call, skill, title, parameters, touches, calls, requested, expires}`; with the
    /// record's playbook and decision when given one.
    public static func request(_ request: ApprovalRequest) -> ValueObject {
        var object = ValueObject()
        object["run"] = .string(request.runID)
        object["step"] = .string(request.step.description)
        object["call"] = .string(request.key.description)
        object["skill"] = .string(request.skill)
        object["title"] = .string(request.title)
        object["parameters"] = .object(request.parameters)
        object["touches"] = touches(request)
        object["calls"] = .int(request.calls)
        object["requested"] = .string(time(request.requested))
        object["expires"] = .string(time(request.expires))
        return object
    }

    public static func record(_ record: ApprovalRecord, now: Date) -> ValueObject {
        var object = request(record.request)
        object["playbook"] = .string(record.playbook)
        object["status"] = .string(record.runStatus.rawValue)
        object["age_seconds"] = .int(max(0, Int(now.timeIntervalSince(record.request.requested))))
        if let decision = record.decision {
            object["decision"] = .object([
                "verdict": .string(decision.verdict.rawValue), "by": .string(decision.by), "at": .string(time(decision.at)),
                "reason": decision.reason.map(Value.string) ?? .null,
            ])
        }
        return object
    }

    /// What the calls would touch, as the terminal confirmation lists it: `{noun, items}`, or null.
    static func touches(_ request: ApprovalRequest) -> Value {
        guard let preview = request.touches else { return .null }
        return .object(["noun": .string(preview.noun), "items": .array(preview.items.map(Value.string))])
    }

    /// ISO 8601 in UTC, as the journal's other times in JSON.
    static func time(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }
}
