import Foundation
import SkillbookAgent
import SkillbookCore
import SkillbookHost

/// How a chat reads in the API: its phase, its messages, the decision card (layer, target, inputs,
/// confidence), the plan card (what would run, the steps that change something marked), the run it
/// started. Secret inputs are masked in all of it, and every secret the chat knows (answers to
/// secret inputs, values its runs read from providers) wherever it occurs.
@MainActor enum ChatJSON {
    nonisolated static let empty: ValueObject = [
        "phase": "idle", "busy": false, "messages": [], "decision": .null, "plan": .null, "run": .null, "can_save": false,
        "limits": ["messages": .int(ChatLimits.messages), "message_length": .int(ChatLimits.messageLength)],
    ]

    nonisolated static let limits: Value = empty["limits"] ?? .null

    static func state(_ chat: ConsoleChat) -> ValueObject {
        let session = chat.session
        var object = ValueObject()
        object["phase"] = .string(phaseName(session.phase))
        switch session.phase {
        case .awaitingInput(let missing): object["missing"] = .array(missing.map(Value.string))
        case .running(let completed, let total): object["progress"] = ["completed": .int(completed), "total": .int(total)]
        case .failed(let message), .rolledBack(let message): object["error"] = .string(chat.masked(message))
        default: break
        }
        object["busy"] = .bool(chat.isBusy)
        object["messages"] = .array(
            session.messages.map { ["role": .string($0.role.rawValue), "text": .string(chat.masked($0.text))] })
        object["decision"] = session.lastDecision.map { decision(chat, $0) } ?? .null
        object["plan"] = (session.pending ?? (chat.isBusy ? chat.saveable : nil)).map { plan(chat, $0) } ?? .null
        object["run"] = chat.shared.runID.map(Value.string) ?? .null
        object["can_save"] = .bool(chat.saveable != nil)
        object["limits"] = limits
        return chat.workspace.secrets.redactor.redact(object)
    }

    static func phaseName(_ phase: AgentSession.Phase) -> String {
        switch phase {
        case .idle: "idle"
        case .understanding: "understanding"
        case .awaitingInput: "awaiting_input"
        case .awaitingConfirmation: "awaiting_approval"
        case .planning: "planning"
        case .running: "running"
        case .finished: "finished"
        case .failed: "failed"
        case .rolledBack: "rolled_back"
        }
    }

    /// The decision card: how the request was routed and how sure the router is.
    static func decision(_ chat: ConsoleChat, _ decision: RouteDecision) -> Value {
        var inputs = decision.inputs
        if let target = decision.target {
            let run = PendingRun(layer: decision.layer, target: target, inputs: inputs)
            for key in inputs.keys where chat.isSecret(key, of: run) { inputs[key] = .string(Redactor.mask) }
        }
        return [
            "layer": .string(decision.layer.rawValue), "target": decision.target.map(Value.string) ?? .null, "inputs": .object(inputs),
            "confidence": .double((decision.confidence * 1000).rounded() / 1000),
            "candidates": .array(
                decision.nearest.map { ["layer": .string($0.layer.rawValue), "target": .string($0.target), "confidence": .double(($0.confidence * 1000).rounded() / 1000)] }),
            "missing": .array(decision.missing.map(Value.string)), "question": decision.question.map { .string(chat.masked($0)) } ?? .null,
        ]
    }

    /// The plan card: each step with its values, the ones that change something marked (they are
    /// what approving runs).
    static func plan(_ chat: ConsoleChat, _ run: PendingRun) -> Value {
        let registry = chat.workspace.registry
        let steps: [Value] = run.steps.map { step in
            var with = step.with
            if step.isPlaybook || run.layer != .plan {
                for key in with.keys where chat.isSecret(key, of: run) { with[key] = .string(Redactor.mask) }
            }
            let descriptor = step.isPlaybook ? nil : registry[step.target]?.descriptor
            return [
                "id": .string(step.id), "target": .string(step.target), "playbook": .bool(step.isPlaybook), "with": .object(with),
                "title": descriptor.map { .string($0.title) } ?? .null,
                "action": .bool(chat.workspace.isAction(step.target, isPlaybook: step.isPlaybook)),
            ]
        }
        let warnings = run.plan?.diagnostics.filter { $0.severity != .error }.map { Value.string($0.message) } ?? []
        return [
            "layer": .string(run.layer.rawValue), "target": run.target.map(Value.string) ?? .null, "from_model": .bool(run.layer == .plan),
            "steps": .array(steps), "warnings": .array(warnings),
        ]
    }
}
