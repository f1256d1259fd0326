import Foundation
public import SkillbookCore

/// Rows of the `approvals` table as records, the same on every SQL backend (see `JournalRows`):
/// one row per request, its decision filled in once (`verdict`, `decided_by`, `decided_at`,
/// `reason`).
public enum ApprovalRows {
    /// The columns a request is inserted with, in the order of `parameters(_:)`.
    public static let insertColumns =
        "run, step, iteration, batch, skill, title, parameters, touches, calls, requested, expires"

    /// The columns `record` reads, the request's (`a.`) with its run's playbook and stored status (`r.`).
    public static let selectColumns = """
        a.id, a.run, a.step, a.iteration, a.batch, a.skill, a.title, a.parameters, a.touches, a.calls, a.requested,
        a.expires, a.verdict, a.decided_by, a.decided_at, a.reason, r.playbook, r.status
        """

    /// The values of `insertColumns` for `request`.
    public static func parameters(_ request: ApprovalRequest) -> [SQLValue] {
        var touches: SQLValue = .null
        if let preview = request.touches {
            touches = .text(
                JSONText.encode(.object(["noun": .string(preview.noun), "items": .array(preview.items.map(Value.string))])))
        }
        return [
            .text(request.runID), .text(request.step.description), SQLValue(request.key.iteration), SQLValue(request.key.batch),
            .text(request.skill), .text(request.title), .text(JSONText.encode(.object(request.parameters))), touches,
            .integer(request.calls), .real(request.requested.timeIntervalSince1970), .real(request.expires.timeIntervalSince1970),
        ]
    }

    /// The values a decision is written with: `verdict`, `decided_by`, `decided_at`, `reason`.
    public static func decisionParameters(_ decision: ApprovalDecision) -> [SQLValue] {
        [.text(decision.verdict.rawValue), .text(decision.by), .real(decision.at.timeIntervalSince1970), SQLValue(decision.reason)]
    }

    /// A row of `selectColumns`; `malformed` is the backend's error for a row it cannot read.
    public static func record<Failure: Error>(_ row: Row, malformed: (_ what: String) -> Failure) throws(Failure) -> ApprovalRecord {
        guard let runID = row.string("run"), let step = row.string("step"), let skill = row.string("skill"),
            let requested = row.double("requested"), let expires = row.double("expires"),
            case .object(let parameters)? = try? JSONText.decode(row.string("parameters") ?? "")
        else { throw malformed("approval request") }
        var touches: CallPreview?
        if let text = row.string("touches") {
            guard let value = try? JSONText.decode(text), let noun = value["noun"]?.stringValue,
                let items = value["items"]?.arrayValue
            else { throw malformed("approval request's preview") }
            touches = CallPreview(noun: noun, items: items.compactMap(\.stringValue))
        }
        let path = StepPath(parsing: step)
        let request = ApprovalRequest(
            runID: runID, step: path, key: CallKey(step: path, iteration: row.int("iteration"), batch: row.int("batch")),
            skill: skill, title: row.string("title") ?? skill, parameters: parameters, touches: touches,
            calls: row.int("calls") ?? 1, requested: Date(timeIntervalSince1970: requested),
            expires: Date(timeIntervalSince1970: expires))
        var decision: ApprovalDecision?
        if let text = row.string("verdict") {
            guard let verdict = ApprovalVerdict(rawValue: text), let at = row.double("decided_at") else {
                throw malformed("approval decision")
            }
            decision = ApprovalDecision(
                verdict: verdict, by: row.string("decided_by") ?? "", at: Date(timeIntervalSince1970: at), reason: row.string("reason"))
        }
        return ApprovalRecord(
            request: request, decision: decision, playbook: row.string("playbook") ?? "",
            runStatus: JournalStatus(rawValue: row.string("status") ?? "") ?? .interrupted)
    }

    /// Why `decision` cannot be recorded for `newest` (the newest request of a run whose status is
    /// `status` now, `nil` when it has none), or `nil` when it can.
    public static func refusal(
        _ runID: String, newest: ApprovalRecord?, status: JournalStatus, step: StepPath?
    ) -> JournalError? {
        guard let newest else { return ApprovalRefusal.noRequest(runID, status: status) }
        if let decided = newest.decision { return ApprovalRefusal.alreadyDecided(runID, decided, status: status) }
        guard status == .waiting else { return ApprovalRefusal.movedOn(runID, status: status) }
        if let step, step != newest.request.step {
            return ApprovalRefusal.otherStep(runID, waiting: newest.request.step, asked: step)
        }
        return nil
    }
}
