import Foundation
import SkillbookCore
import SkillbookHost

extension ConsoleAPI {
    /// `GET /api/v1/approvals`: the runs that wait for an approval (expired requests are declined
    /// first, as `skillbook approvals` does), oldest first.
    func approvals() async -> ServerResponse {
        do {
            let records = try await host.approvals()
            let now = host.configuration.clock.now()
            return json(200, ["approvals": .array(records.map { .object(ApprovalJSON.record($0, now: now)) })])
        } catch {
            return failure(error)
        }
    }

    /// `POST /api/v1/runs/RUN/approve` with `{"step": ID}` (optional): approves the call the run
    /// waits at, and the run goes on (in this process, or through a worker); 409 when it no longer
    /// waits or was decided already.
    func approve(_ reference: String, _ request: ServerRequest) async -> ServerResponse {
        let body: ValueObject
        switch Self.jsonObject(request) {
        case .success(let object): body = object
        case .failure(let failure): return failure.response
        }
        var step: String?
        switch body["step"] {
        case nil, .null?: break
        case .string(let text)?: step = text
        default: return json(400, ConsoleJSON.error("\"step\" is the path of the step the run waits at, as text"))
        }
        do {
            return decided(try await host.approve(run: reference, step: step))
        } catch {
            return failure(error)
        }
    }

    /// `POST /api/v1/runs/RUN/decline` with `{"reason": TEXT}` (optional): the step fails as
    /// `declined` and `on_failure` applies.
    func decline(_ reference: String, _ request: ServerRequest) async -> ServerResponse {
        let body: ValueObject
        switch Self.jsonObject(request) {
        case .success(let object): body = object
        case .failure(let failure): return failure.response
        }
        var reason: String?
        switch body["reason"] {
        case nil, .null?: break
        case .string(let text)?: reason = text.isEmpty ? nil : text
        default: return json(400, ConsoleJSON.error("\"reason\" must be text"))
        }
        do {
            return decided(try await host.decline(run: reference, reason: reason))
        } catch {
            return failure(error)
        }
    }

    /// `{run, step, verdict, by, reason, status}`: the decision, and the run's status once it went
    /// on (`queued` when a worker continues it).
    private func decided(_ outcome: ApprovalOutcome) -> ServerResponse {
        let request = outcome.record.request
        var object: ValueObject = ["run": .string(request.runID), "step": .string(request.step.description), "url": .string("/runs/\(request.runID)")]
        if let decision = outcome.record.decision {
            object["verdict"] = .string(decision.verdict.rawValue)
            object["by"] = .string(decision.by)
            object["reason"] = decision.reason.map(Value.string) ?? .null
        }
        switch outcome.continuation {
        case .ran(let result):
            object["status"] = .string(result.status.rawValue)
            if let error = result.error { object["error"] = .string(error) }
        case .queued:
            object["status"] = "queued"
        case .handedOver(let pid):
            object["status"] = "running"
            object["daemon"] = .int(Int(pid))
        case .notContinued(let error):
            object["status"] = "waiting"
            object["error"] = .string("the decision is recorded but the run did not go on: \(String(describing: error)); resume it")
        }
        return json(200, .object(object))
    }
}
