import Foundation
import SkillbookCore
import SkillbookHost

/// How journal records, playbooks and skills read in the API's JSON. Values come from the journal
/// and the engine's events, where secrets are already masked; nothing here reads a secret.
enum ConsoleJSON {
    static func iso(_ date: Date) -> Value {
        .string(RunTimelineJSON.iso(date))
    }

    static func row(_ run: JournalRun) -> ValueObject {
        var object = ValueObject()
        object["id"] = .string(run.id)
        object["playbook"] = .string(run.playbook)
        object["status"] = .string(run.status.rawValue)
        object["trigger"] = .string(run.trigger.rawValue)
        object["started"] = iso(run.started)
        object["finished"] = run.finished.map(iso) ?? .null
        object["duration"] = run.duration.map { .double(($0 * 1000).rounded() / 1000) } ?? .null
        object["error"] = run.error.map(Value.string) ?? .null
        if let reason = run.interruption, run.status == .interrupted { object["interruption"] = .string(reason) }
        return object
    }

    static func run(_ timeline: RunTimeline) -> ValueObject {
        let run = timeline.run
        var object = row(run)
        object["file"] = run.file.map(Value.string) ?? .null
        object["inputs"] = .object(run.inputs)
        object["outputs"] = run.outputs.map(Value.object) ?? .null
        object["source"] = .string(timeline.source)
        object["calls"] = .array(timeline.calls.map { .object(RunTimelineJSON.call($0, key: true)) })
        object["steps"] = .array(timeline.steps.map { .object(RunTimelineJSON.step($0)) })
        object["compensations"] = .array(
            timeline.compensations.map { compensation in
                [
                    "key": .string(compensation.key.description), "step": .string(compensation.key.step.description),
                    "error": compensation.error.map(Value.string) ?? .null, "finished": iso(compensation.finished),
                ]
            })
        object["waits"] = .array(
            timeline.waits.map { wait in
                [
                    "step": .string(wait.step), "resources": .array(wait.wait.resources.map(Value.string)), "started": iso(wait.started),
                    "ended": wait.ended.map(iso) ?? .null, "outcome": wait.outcome.map(Value.string) ?? .null,
                ]
            })
        return object
    }

    static func skill(_ descriptor: SkillDescriptor) -> ValueObject {
        var object = ValueObject()
        object["id"] = .string(descriptor.id)
        object["title"] = .string(descriptor.title)
        object["summary"] = .string(descriptor.summary)
        object["kind"] = .string(descriptor.kind.rawValue)
        object["confirm"] = .bool(descriptor.confirm)
        object["reversible"] = .bool(descriptor.reversible)
        object["idempotent"] = .bool(descriptor.idempotent)
        object["resources"] = .array(descriptor.resources.map(Value.string))
        object["examples"] = .array(descriptor.examples.map(Value.string))
        if case .unavailable(let reason) = descriptor.availability {
            object["available"] = false
            object["unavailable"] = .string(reason)
        } else {
            object["available"] = true
        }
        object["parameters"] = JSONSchemaExport.export(descriptor.parameters)
        object["output"] = JSONSchemaExport.export(descriptor.output)
        return object
    }

    /// A playbook's inputs as one JSON Schema object (the run form is generated from it). An input
    /// whose default is an expression (computed at run time) is marked `x-default-expression`.
    static func inputsSchema(_ playbook: Playbook) -> ValueObject {
        var properties = ValueObject()
        var required: [Value] = []
        var order: [Value] = []
        for input in playbook.inputs {
            var schema = JSONSchemaExport.export(input.schema).objectValue ?? ValueObject()
            if input.defaultExpression != nil { schema["x-default-expression"] = true }
            properties[input.name] = .object(schema)
            order.append(.string(input.name))
            if input.isRequired { required.append(.string(input.name)) }
        }
        return [
            "type": "object", "properties": .object(properties), "required": .array(required), "x-order": .array(order),
            "additionalProperties": false,
        ]
    }

    static func diagnostics(_ diagnostics: [Diagnostic]) -> Value {
        .array(diagnostics.map { .object(DiagnosticJSON.object($0)) })
    }

    static func error(_ message: String) -> Value {
        ["error": .string(message)]
    }
}
